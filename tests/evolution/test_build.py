"""How Evolution's compiled engine is built (simcore/games/evolution/jit.py on
simcore.jit.GameBuild): bots handed in from strategies/ and inlined, one engine module per
set of bots, the source-hash cache, one compilation before the workers fan out. (The
private numba options the build relies on are pinned in tests/core/test_jit.py.)

The tests that compile a new engine (a new bot, edited sources, a cold cache) take minutes
on a cold cache: they are marked slow.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from simcore.games.evolution import jit as evolution_jit

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_build_is_keyed_by_the_engine_sources_and_each_bot_set_by_its_bots():
    build = evolution_jit.BUILD
    assert all(Path(f).exists() for f in build.sources)
    names = {Path(f).name for f in build.sources}
    assert {"kernels.py", "engine.py", "packed.py", "traits.py", "addresses.py", "rng.py"} <= names
    assert not any("strategies" in Path(f).parts for f in build.sources)     # no bot by path
    from strategies.registry import make_bots
    from simcore.games.evolution.adapter import GAME
    rs = GAME.data.load("default")
    greedy = evolution_jit.engine_for([b.batch_policy(rs) for b in make_bots("evolution", "greedy", 2)])
    mixed = evolution_jit.engine_for([b.batch_policy(rs) for b in make_bots("evolution", "greedy,silly", 2)])
    assert greedy is not mixed and greedy.BUILD.folder != mixed.BUILD.folder != build.folder
    compiled = ROOT / "strategies" / "evolution" / "compiled.py"
    assert compiled.resolve() in greedy.BUILD.sources             # learned from the bot's functions
    assert evolution_jit.engine_for([b.batch_policy(rs) for b in make_bots("evolution", "greedy", 2)]) is greedy


def test_every_module_of_compiled_rules_the_engine_reaches_is_in_its_build_key():
    """An edit to a file whose compiled code the engine links in (a kernels_*.py module the
    rules are split into) recompiles the engine: each module kernels.py and engine.py import,
    transitively within the package, that compiles code (imports the build or numba) is
    one of the build's sources."""
    from simcore import jit
    package = "simcore.games.evolution"
    here = Path(evolution_jit.__file__).resolve().parent
    todo, seen, compiling = [f"{package}.kernels", f"{package}.engine"], set(), []
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = here / f"{module.rpartition('.')[2]}.py"
        imports = jit._imports(path, module)
        if any(i == c or i.startswith(c + ".") for i in imports
               for c in (*jit.COMPILING_MODULES, f"{package}.jit")):
            compiling.append(path)
        todo += [i for i in imports if i.rpartition(".")[0] == package
                 and (here / f"{i.rpartition('.')[2]}.py").exists()]
    assert {"kernels_food.py", "kernels_attacks.py", "kernels_feeding.py"} <= {f.name for f in compiling}
    assert not set(compiling) - set(evolution_jit.BUILD.sources)


def test_no_module_under_simcore_imports_strategies():
    for path in (ROOT / "simcore" / "games" / "evolution").rglob("*.py"):
        text = path.read_text()
        assert "import strategies" not in text and "from strategies" not in text, path


# ---------------------------------------------------------------- a new bot, one file

NEW_BOT = '''
"""A bot in one file: gives its highest card as food card, plays no card, takes the last
feeding option (an attack before plant food, where both are on offer)."""
import numpy as np

from simcore.games.evolution.decisions import Policy
from simcore.games.evolution.jit import kernel
from strategies.registry import register


@kernel
def _food(a, rk, b, seat, mem):
    n = np.int64(a.hand_n[b, seat])
    return np.int64(a.hand[b, seat, n - 1]) if n > 0 else np.int64(-1)


@kernel
def _plan(a, rk, b, seat, acts, mem):
    return np.int64(0)


@kernel
def _feed(a, rk, b, seat, opts, n_opts, turn, mem):
    return np.int64(n_opts - 1)


class _Reference:
    def choose_food_card(self, g, seat):
        return max(g.players[seat].hand)

    def play_cards(self, g, seat):
        return []

    def choose_feeding(self, g, seat, opts, turn):
        return opts[-1]


@register("evolution", "last_option", doc="test bot")
class LastOption:
    def batch(self, rs):
        return Policy("last_option", _food, _plan, _feed)

    def reference(self, rs, seat):
        return _Reference()
'''


@pytest.mark.slow
def test_a_bot_added_in_one_new_file_plays_both_engines_with_no_engine_edit(tmp_path):
    import importlib.util

    from simcore.games.evolution.adapter import GAME
    from strategies import registry
    path = tmp_path / "last_option.py"
    path.write_text(textwrap.dedent(NEW_BOT))
    spec = importlib.util.spec_from_file_location("last_option_test_bot", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    try:
        spec.loader.exec_module(mod)
        rs = GAME.data.load("default")
        bots = registry.make_bots("evolution", "last_option,greedy,last_option", 3)
        games = np.arange(60)
        batch = GAME.play_batch(rs, 3, bots, 9, games)
        for k in games:
            one = GAME.play_one(rs, 3, bots, 9, int(k))
            assert one["score"].tolist() == batch["score"][k].tolist(), k
            assert one["rounds"] == batch["rounds"][k], k
        greedy = GAME.play_batch(rs, 3, registry.make_bots("evolution", "greedy", 3), 9, games)
        assert (greedy["score"] != batch["score"]).any()      # the new bot really played
    finally:
        registry._BOTS.pop(("evolution", "last_option"), None)
        sys.modules.pop(spec.name, None)


# ---------------------------------------------------------------- the cache follows the sources

PLAY = '''
import sys
import numpy as np
from simcore.games import get_game
from strategies.registry import make_bots
g = get_game("evolution")
rs = g.data.load("default")
bots = make_bots("evolution", "silly", 3)
g.warmup(rs, bots)
out = g.play_batch(rs, 3, bots, 5, np.arange(40))
print(int(out["score"].sum()), int(out["rounds"].sum()))
'''


def _copy_sources(to: Path) -> None:
    for pkg in ("simcore", "strategies"):
        shutil.copytree(ROOT / pkg, to / pkg, ignore=shutil.ignore_patterns("__pycache__"))


def _play(src: Path, cache: Path) -> subprocess.CompletedProcess:
    proc = _start(src, cache)
    out, err = proc.communicate(timeout=1800)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _start(src: Path, cache: Path) -> subprocess.Popen:
    """PLAY in a fresh interpreter on the sources in `src` and the cache `cache`, not waited for."""
    env = dict(os.environ, BALANCELAB_CACHE_DIR=str(cache), PYTHONPATH=str(src))
    return subprocess.Popen([sys.executable, "-c", "import sys; sys.path.insert(0, %r)\n" % str(src) + PLAY],
                            cwd=src, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _compilations(cache: Path) -> int:
    return sum(len(p.read_text().splitlines()) for p in cache.rglob("compile.log"))


@pytest.mark.slow
def test_two_processes_compile_a_cold_build_once_and_an_edit_of_a_bot_elsewhere_recompiles(tmp_path):
    """The engine inlines the bots (strategies/evolution/compiled.py): numba alone would
    keep running the old compiled bot; here the cache folder follows every source.
    The first build is asked for by two processes at once: GameBuild.warm compiles a cold build
    under simcore.jit.compile_lock, so one compiles and the other waits and loads it (two
    test workers reaching one build share one compilation)."""
    src, cache = tmp_path / "src", tmp_path / "cache"
    _copy_sources(src)
    both = [_start(src, cache) for _ in range(2)]
    outs = [p.communicate(timeout=1800) for p in both]
    assert all(p.returncode == 0 for p in both), [err for _, err in outs]
    assert outs[0][0] == outs[1][0]                      # the same games
    assert sum(err.count("compiling the evolution engine") for _, err in outs) == 1
    assert _compilations(cache) == 1
    first = subprocess.CompletedProcess(both[0].args, 0, *outs[0])
    again = _play(src, cache)
    assert again.stdout == first.stdout and "compiling" not in again.stderr   # a cache hit
    bots = src / "strategies" / "evolution" / "compiled.py"
    text = bots.read_text()
    old = "    return np.int64(a.hand[b, seat, 0])\n"          # silly's food card: its lowest card
    assert text.count(old) == 1
    bots.write_text(text.replace(old, "    return np.int64(a.hand[b, seat, a.hand_n[b, seat] - 1])\n"))
    edited = _play(src, cache)
    assert edited.returncode == 0, edited.stderr
    assert "compiling the evolution engine" in edited.stderr
    assert edited.stdout != first.stdout                  # the edited bot plays
    assert _compilations(cache) == 2


@pytest.mark.slow
def test_a_run_with_two_workers_on_a_cold_cache_compiles_once(tmp_path):
    cache = tmp_path / "cache"
    env = dict(os.environ, BALANCELAB_CACHE_DIR=str(cache))
    r = subprocess.run([sys.executable, "-m", "experiments.cli", "run", "evolution", "--games", "4000",
                        "--batch-size", "500", "--jobs", "2", "--bots", "random"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("compiling the evolution engine, once") == 1
    assert _compilations(cache) == 1          # the workers loaded the parent's build

