"""A bot added as ONE new file under strategies/evolversi/ plays both engines, no engine edit.

The file is written into a temporary copy of strategies/ (the package discovers every
module beside registered.py); a fresh interpreter with that copy first on the path plays
the same games on both engines through the adapter and checks that they agree.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NEW_BOT = '''
"""Always the first legal option (so it never buys: BUY option 0 is no purchase)."""
import numpy as np

from ..registry import register


class _FirstBatch:
    uses_keys = False

    def choose(self, q):
        return q.column(np.zeros(len(q), np.int64))


class _FirstOne:
    def choose(self, decision, view):
        return 0


@register("evolversi", "first", doc="always the first legal option")
class First:
    def batch(self, rs):
        return _FirstBatch()

    def reference(self, rs, seat):
        return _FirstOne()
'''

PLAY = '''
import json, numpy as np, strategies
from simcore.games.evolversi.adapter import GAME
from strategies.registry import make_bots
rs = GAME.data.load()
bots = make_bots("evolversi", "first,greedy,random", 3)
batch = GAME.play_batch(rs, 3, bots, 5, np.arange(60))
same = all(np.array_equal(batch[k][i], np.asarray(GAME.play_one(rs, 3, bots, 5, i)[k]))
           for i in range(60) for k in ("score", "winner", "rounds", "faction", "acquired"))
print(json.dumps({"from": strategies.__file__, "same": bool(same),
                  "first_bought": int(batch["acquired"][:, 0].sum()),
                  "others_bought": int(batch["acquired"][:, 1:].sum())}))
'''


def test_a_bot_in_one_new_file_plays_both_engines(tmp_path):
    shutil.copytree(ROOT / "strategies", tmp_path / "strategies",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "strategies" / "evolversi" / "first_option.py").write_text(NEW_BOT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    proc = subprocess.run([sys.executable, "-c", PLAY], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["from"].startswith(str(tmp_path))          # the copy with the new file was played
    assert got["same"]                                     # both engines, game by game
    assert got["first_bought"] == 0 and got["others_bought"] > 0   # the new bot's choices were used


def test_no_evolversi_engine_module_imports_strategies():
    import ast
    for path in (ROOT / "simcore" / "games" / "evolversi").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n.split(".")[0] == "strategies" for n in names), f"{path.name} imports {names}"
