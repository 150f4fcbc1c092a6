"""How the compiled engine is built (simcore/games/evolution/build.py): bots handed in from
strategies/, the source-hash cache, one compilation before the workers fan out, and the
private numba option it relies on.

The tests that compile a new engine (a new bot, edited sources, a cold cache) take minutes
on a cold cache: they are marked slow.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from simcore.games.evolution import build

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- the private option

Pair = namedtuple("Pair", "x y")


def _sum_fields(a, i):
    return a.x[i] + a.y[i]


def test_nrt_false_compiles_array_field_reads_without_reference_counting():
    """build.kernel relies on numba's private `_nrt=False`: reading an array field of a
    tuple of arrays then costs no atomic reference count. If a numba upgrade drops or
    changes the option, this fails loudly (and kernels would be slow or crash)."""
    a = Pair(np.arange(4), np.arange(4))
    kernel = build.kernel(_sum_fields)
    assert kernel(a, 2) == 4
    assert kernel.targetoptions == {**kernel.targetoptions, **build.kernel_options()}
    # build.kernel caches its code, and numba cannot inspect cached code ("Inspection disabled
    # for cached code"): compile the same function with the same options, uncached, to read
    # its LLVM IR.
    plain = njit(_sum_fields)
    lean = njit(**build.kernel_options())(_sum_fields)
    assert plain(a, 2) == lean(a, 2) == 4
    ir_plain = plain.inspect_llvm(plain.signatures[0])
    ir_lean = lean.inspect_llvm(lean.signatures[0])
    assert "_sum_fields" in ir_lean, "no IR for the function: the check below would mean nothing"
    assert "NRT_decref" in ir_plain or "NRT_incref" in ir_plain, \
        "numba no longer reference-counts here: check what _nrt=False means now"
    assert "NRT_incref" not in ir_lean and "NRT_decref" not in ir_lean



_LINKED = """
define linkonce_odr i64 @"_ZN7simcore5games9evolution7kernels4ruleB2v1E"(i64 %x) {
  ret i64 %x
}
define i64 @"_ZN7simcore5games9evolution6engine5entryB2v2E"(i64 %x) {
  %r = call i64 @"_ZN7simcore5games9evolution7kernels4ruleB2v1E"(i64 %x)
  ret i64 %r
}
"""


def test_callees_linked_into_evolution_code_are_made_internal():
    """build._internalize (hooked into numba's private final-module optimisation): in a
    module of Evolution's code the linked-in (linkonce_odr) callees become internal, so LLVM
    may inline them and drop their unused arguments; the module's own functions keep their
    linkage, and a module holding no Evolution code is left alone."""
    import llvmlite.binding as ll
    mod = ll.parse_assembly(_LINKED)
    assert build._internalize(mod) == 1
    linkage = {f.name.split("evolution")[1][:12]: f.linkage for f in mod.functions}
    assert linkage == {"7kernels4rul": ll.Linkage.internal, "6engine5entr": ll.Linkage.external}
    other = ll.parse_assembly(_LINKED.replace("9evolution", "8capybara"))
    assert build._internalize(other) == 0
    assert all(f.linkage != ll.Linkage.internal for f in other.functions)


def test_the_internalize_hook_runs_when_numba_optimises_a_final_module(monkeypatch):
    """If a numba upgrade renames or stops calling CPUCodeLibrary._optimize_final_module,
    the hook would silently do nothing (and the engine be about half as fast): fail here."""
    from numba.core.codegen import CPUCodeLibrary
    assert getattr(CPUCodeLibrary, "_evolution_internalize", False)
    seen = []
    monkeypatch.setattr(build, "_internalize", lambda module: seen.append(module) or 0)
    f = njit(lambda x: x + 1)                 # uncached: compiled here
    assert f(1) == 2
    assert seen, "numba optimised a final module without calling build._internalize"

def test_the_cache_folder_is_named_by_every_engine_source_and_the_numba_version(tmp_path):
    src = tmp_path / "a.py"
    src.write_text("x = 1\n")
    before = build._digest([src])
    src.write_text("x = 2\n")
    assert build._digest([src]) != before
    assert all(Path(f).exists() for f in build.ENGINE_SOURCES)
    names = {Path(f).name for f in build.ENGINE_SOURCES}
    assert {"kernels.py", "engine.py", "packed.py", "traits.py", "addresses.py", "rng.py"} <= names


def test_no_module_under_simcore_imports_strategies():
    for path in (ROOT / "simcore" / "games" / "evolution").rglob("*.py"):
        text = path.read_text()
        assert "import strategies" not in text and "from strategies" not in text, path


# ---------------------------------------------------------------- a new bot, one file

NEW_BOT = '''
"""A bot in one file: gives its highest card as food card, plays no card, takes the last
feeding option (an attack before plant food, where both are on offer)."""
import numpy as np

from simcore.games.evolution.build import Policy, kernel
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
    The first build is asked for by two processes at once: build.warm compiles a cold build
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

