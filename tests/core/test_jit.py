"""The compiled-engine build every numba game shares (simcore/jit.py): the cache folder
follows every source the game compiles (simcore's shared ones included), a cold build says
so once on stderr, a warm one is silent; and the compiled random streams (rng_jit.py) are
rng.py's, bit for bit."""
from __future__ import annotations

from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from simcore import jit, rng
from simcore.games.capybara import jit as capybara_jit
from simcore.games.evo import jit as evo_jit
from simcore.rng_jit import add, below, key3


def test_an_edit_of_any_source_moves_the_build_to_another_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "rules.py"
    src.write_text("x = 1\n")
    before = jit.GameBuild("toy", [src], "toy: compiling").folder
    assert jit.GameBuild("toy", [src], "toy: compiling").folder == before
    src.write_text("x = 2\n")
    assert jit.GameBuild("toy", [src], "toy: compiling").folder != before
    assert before.parent == tmp_path / "cache" / "numba" and before.name.startswith("toy-")


def test_every_game_build_is_keyed_by_its_package_and_simcores_shared_sources_no_bot_by_path():
    from simcore.games.evolversi import jit as evolversi_jit
    assert {(f.parent.name, f.name) for f in jit.CORE_SOURCES} == {
        ("simcore", "jit.py"), ("simcore", "rng.py"), ("simcore", "rng_jit.py")}
    games = jit.TREE / "simcore" / "games"
    capybara = jit.python_files(games / "capybara")
    evo = jit.python_files(games / "evo", skip=evo_jit._never_compiled)
    evolversi = jit.python_files(games / "evolversi")
    for build, sources in ((capybara_jit.BUILD, capybara), (evo_jit.BUILD, evo), (evolversi_jit.BUILD, evolversi)):
        assert not any("strategies" in f.parts for f in build.sources)     # a bot keys its own folder
        assert build.folder.name == f"{build.game}-{jit.digest(sources + list(jit.CORE_SOURCES))}"
        assert build.folder.name != f"{build.game}-{jit.digest(sources)}"


def test_a_cold_build_says_so_once_and_a_warm_one_is_silent(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "toy_rules.py"
    src.write_text("# the toy game's sources\n")
    cold = jit.GameBuild("toy", [src], "toy: compiling the batch engine")

    def double(x):
        return 2 * x

    def triple(x):
        return 3 * x

    f, g = cold.kernel(double), cold.kernel(triple)
    assert f(21) == 42 and g(2) == 6
    assert capsys.readouterr().err.count("toy: compiling the batch engine") == 1
    assert any(cold.folder.rglob("*.nbi"))             # numba's cache index, in the build's folder
    warm = jit.GameBuild("toy", [src], "toy: compiling the batch engine")
    warm.kernel(double)
    assert capsys.readouterr().err == ""


def test_a_cold_builds_line_gives_its_measured_compile_at_this_machines_speed(tmp_path, monkeypatch, capsys):
    """The measured cold compile of the game, scaled by how much slower the machine runs
    speed_probe than the machine it was measured on (here: planted 3x slower)."""
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(jit.COLD_COMPILE_SECONDS, "toy", 20.0)
    monkeypatch.setattr(jit, "speed_probe", lambda: 3 * jit.PROBE_SECONDS)
    src = tmp_path / "toy_rules.py"
    src.write_text("# the toy game's sources\n")
    build = jit.GameBuild("toy", [src], "toy: compiling (about {seconds} s of CPU here)")

    def double(x):
        return 2 * x

    assert build.kernel(double)(4) == 8
    assert capsys.readouterr().err == "toy: compiling (about 60 s of CPU here)\n"


def test_two_folders_of_one_engine_say_one_line_whichever_compiles_first(tmp_path, monkeypatch, capsys):
    """Evolversi compiles into two folders (its kernels; phase 3 and the bots): one line for
    the engine, with the whole engine's time, said by the first to compile, then nothing."""
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(jit.COLD_COMPILE_SECONDS, "toy", 20.0)
    monkeypatch.setattr(jit, "speed_probe", lambda: jit.PROBE_SECONDS)
    src = tmp_path / "toy_rules.py"
    src.write_text("# the toy game's sources\n")
    first = jit.GameBuild("toy", [src], "toy: compiling the engine (about {seconds} s here in all)")
    second = jit.GameBuild("toyturn", [src], nrt=False, line_of=first)

    def inc(x):
        return x + 1

    assert second.kernel(inc)(1) == 2               # the second folder compiles first
    assert capsys.readouterr().err == "toy: compiling the engine (about 20 s here in all)\n"
    assert first.kernel(inc)(2) == 3
    assert capsys.readouterr().err == ""            # the line is said once for both
    assert (tmp_path / "cache").is_dir() and first.folder != second.folder


def _toy_build(tmp_path, monkeypatch, **options):
    """A toy game's build in an empty cache: (build, kernel inner, kernel outer calling
    inner, a policy function not yet decorated); nothing compiled yet."""
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "toy_rules.py"
    src.write_text("# the toy game's sources\n")
    build = jit.GameBuild("toy", [src], "toy: compiling the batch engine", **options)

    def inner(x):
        return x + 1

    def outer(x):
        return inner_k(x) * 2

    def decide(g, rk, kind, seat, n, h):
        return n - 1

    inner_k = build.kernel(inner)
    return build, inner_k, build.kernel(outer), decide


def test_a_build_compiles_at_its_opt_level_and_leaves_numbas_own(tmp_path, monkeypatch):
    """Every build's kernels, their callees and its policies compile with LLVM's passes at
    jit.COMPILE_OPT; outside them numba.config.OPT is what it was (other numba code keeps
    its own). A numba upgrade that stopped reading config.OPT per compile would keep its
    default silently: this reads the level numba's pass builder is handed."""
    import numba
    from numba.core import codegen
    monkeypatch.setattr(numba.config, "OPT", type(numba.config.OPT)(3))   # numba's default, whatever NUMBA_OPT says
    levels = []
    plain = codegen.JITCPUCodegen._pass_builder

    def spy(self, **kwargs):
        levels.append(int(kwargs.get("opt", numba.config.OPT)))
        return plain(self, **kwargs)
    monkeypatch.setattr(codegen.JITCPUCodegen, "_pass_builder", spy)
    build, _, outer_k, decide = _toy_build(tmp_path, monkeypatch, nrt=False)
    before = int(numba.config.OPT)
    assert outer_k(20) == 42 and build.policy(decide).compiled.address
    full = [lv for lv in levels if lv != 0]      # numba's "cheap" pre-pass runs at 0 by design
    assert full and set(full) == {jit.COMPILE_OPT} != {before}
    assert int(numba.config.OPT) == before


def test_every_game_has_a_measured_cold_compile_and_its_line_says_it(tmp_path, monkeypatch):
    from simcore.games import GAMES
    from simcore.games.evolution import jit as evolution_jit
    from simcore.games.evolversi import jit as evolversi_jit
    assert set(GAMES) <= set(jit.COLD_COMPILE_SECONDS)
    for note in (capybara_jit.BUILD.note, evo_jit.BUILD.note, evolversi_jit.BUILD.note, evolution_jit.NOTE):
        assert "{seconds}" in note
    assert evolversi_jit.TURN_BUILD.line_of is evolversi_jit.BUILD   # its second folder says the same line
    assert 0 < jit.speed_probe() < 5     # a loop of 200,000 steps: hundredths of a second
    monkeypatch.setattr(jit, "speed_probe", lambda: 2 * jit.PROBE_SECONDS)
    assert jit.compile_estimate("evolution") == round(2 * jit.COLD_COMPILE_SECONDS["evolution"])


def test_decorating_compiles_and_says_nothing_the_first_use_does(tmp_path, monkeypatch, capsys):
    """A game's bot modules are all imported to register their names: decorating a kernel or
    a policy must compile nothing and print nothing (else `run capybara --bots nobody`
    compiles the engine before its one-line error). The note comes with the first compile,
    also when it is a compiled caller that compiles the kernel (numba goes through the
    dispatcher's `compile` either way: this fails if an upgrade stops it)."""
    build, inner_k, outer_k, decide = _toy_build(tmp_path, monkeypatch)
    pol = build.policy(decide)
    assert capsys.readouterr().err == ""
    assert inner_k.signatures == [] and isinstance(pol, jit.Policy) and pol._cfunc is None
    assert outer_k(20) == 42                        # compiles outer, and inner from inside it
    assert capsys.readouterr().err.count("toy: compiling the batch engine") == 1
    assert inner_k.signatures                       # the callee went through its dispatcher
    assert jit.compiled(pol) is pol.compiled and pol.compiled.address
    assert jit.compiled(pol.compiled) is pol.compiled   # a cfunc made elsewhere passes as it is
    assert capsys.readouterr().err == ""            # said once per build


def test_a_pointer_policy_reads_the_words_the_engine_passes_by_address(tmp_path, monkeypatch):
    """DECIDE_PTR_SIG (Evolversi's policies): the engine passes the decision frame and the
    seat's data as two pointers (`jit.address`), six words in registers where two arrays
    were 14 stored words; the compiled policy must read exactly what its Python form reads
    from the arrays, and an engine may write the frame again between two calls."""
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "toy_rules.py"
    src.write_text("# the toy game's sources\n")
    build = jit.GameBuild("toy", [src], "toy: compiling", nrt=False, policy_sig=jit.DECIDE_PTR_SIG)

    def decide(q, rk, kind, seat, n, h):
        return q[kind] * 1000 + rk[rk[0] + seat] * 10 + n + np.int64(h & np.uint64(1))

    pol = build.policy(decide)

    def engine(q, rk, pol):
        a = pol(jit.address(q), jit.address(rk), 2, 1, 3, np.uint64(5))
        q[2] = 9                                   # the frame rewritten before the next decision
        return a, pol(jit.address(q), jit.address(rk), 2, 0, 4, np.uint64(4))

    q = np.array([0, 0, 7, 0], np.int64)
    rk = np.array([1, 40, 50], np.int64)
    want = decide(q, rk, 2, 1, 3, np.uint64(5))
    got = build.kernel(engine)(q, rk, jit.compiled(pol))
    assert want == 7504 and got == (want, 9404)
    with pytest.raises(Exception):                 # no address for an array of another layout
        build.kernel(engine)(np.zeros(8, np.int64)[::2], rk, jit.compiled(pol))


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 17, 2**64 - 1])
def test_the_compiled_streams_are_rngs_bit_for_bit(seed):
    for game in (0, 5, 123_456):
        for address in ((1,), (4, 0, 2), (3, 2, 17, 5)):
            want = rng.key(seed, game, rng.CHANCE, *address)
            h = key3(np.uint64(seed), game, rng.CHANCE)
            for a in address:
                h = add(np.uint64(h), a)
            assert np.uint64(h) == want
            for n in (1, 3, 52, 1000):
                assert below(np.uint64(h), n) == rng.below(want, n)


def test_capybaras_build_compiles_without_reference_counting():
    """Capybara's kernels and policies pass the game's int64 arrays through many small calls:
    with numba's reference counting each call cost an atomic incref/decref pair per array,
    half of the greedy games' CPU. The build turns it off (numba's private
    `_nrt=False`, whose meaning a test below pins against the LLVM)."""
    from simcore.games.capybara.turn import play_games
    from strategies.capybara.batch_bots import random_policy
    from strategies.capybara.batch_greedy import greedy_policy
    assert capybara_jit.BUILD.nrt is False
    assert play_games.targetoptions["_nrt"] is False
    for p in (greedy_policy, random_policy):
        assert p.compiled._compiler.targetoptions["_nrt"] is False


def _package(root, files: dict):
    pkg = root / "toybots"
    pkg.mkdir()
    for name, text in files.items():
        (pkg / name).write_text(text)
    return pkg


def test_a_bots_build_key_holds_its_compiled_files_and_what_they_import_not_plain_python(tmp_path):
    """A plain-Python bot file (a registration, a bot reusing compiled policies: the file
    test_new_bot_file.py adds) must not move a game's build to a new folder, which would
    recompile the whole engine; a file with compiled code, or whose constants a compiled file
    imports, must."""
    pkg = _package(tmp_path, {
        "__init__.py": "from ..registry import discover\n",
        "weights.py": "W = 3\n",                                     # a constant compiled code freezes
        "helpers.py": "K = 1\n",                                     # imported only inside a function
        "fast.py": "from toy.jit import kernel\nfrom .weights import W\n"
                   "def later():\n    from .helpers import K\n    return K\n",
        "raw.py": "import numba\n",
        "plain.py": "from ..registry import register\nfrom .fast import later\n",
        "reg.py": "from toybots import plain\nfrom toybots.fast import later\n",
    })
    names = sorted(f.name for f in jit.bot_sources(pkg, "toybots", ("toy.jit",)))
    assert names == ["fast.py", "raw.py", "weights.py"]
    assert jit.bot_sources(tmp_path / "missing", "x") == []


def test_every_compiled_bot_function_lies_in_its_games_build_key():
    """The other side of the rule above: each compiled policy and kernel the shipped bots
    define is in a file its build is keyed by, so an edit to it recompiles."""
    import importlib
    import inspect
    from numba.core.registry import CPUDispatcher
    from simcore.games.evolution import jit as evolution_jit
    from simcore.games.evolversi import jit as evolversi_jit
    builds = {"capybara": [capybara_jit.BUILD], "evo": [evo_jit.BUILD], "evolution": [evolution_jit.BUILD],
              "evolversi": [evolversi_jit.BUILD, evolversi_jit.TURN_BUILD]}
    found = {}
    for game in ("capybara", "evo", "evolution", "evolversi"):
        folder = jit.TREE / "strategies" / game
        for f in sorted(folder.glob("*.py")):
            mod = importlib.import_module(f"strategies.{game}" + ("" if f.stem == "__init__" else f".{f.stem}"))
            for obj in vars(mod).values():
                py = getattr(obj, "py_func", None)
                if not isinstance(obj, (CPUDispatcher, jit.Policy)) or py is None:
                    continue
                path = Path(inspect.getfile(py)).resolve()
                if path.parent != folder:
                    continue
                found[game] = found.get(game, 0) + 1
                # keyed by its own files (GameBuild.sources_of), learned from the function
                build = obj.build if isinstance(obj, jit.Policy) else builds[game][0]
                extra = tuple(build.sources_of(py))
                assert path in extra, (game, py.__qualname__)
                if isinstance(obj, CPUDispatcher):         # cached where its files say
                    where = {jit.folder(b.game, b._key(b.sources + extra)) for b in builds[game]}
                    assert Path(obj._cache._cache_path).parent in where, (game, py.__qualname__)
    assert set(found) == {"capybara", "evo", "evolution", "evolversi"} and min(found.values()) >= 2


Pair = namedtuple("Pair", "x y")


def _sum_fields(a, i):
    return a.x[i] + a.y[i]


def test_nrt_false_compiles_array_field_reads_without_reference_counting(tmp_path, monkeypatch):
    """GameBuild(nrt=False) relies on numba's private `_nrt=False`: reading an array field of a
    tuple of arrays then costs no atomic reference count. If a numba upgrade drops or
    changes the option, this fails loudly (and kernels would be slow or crash)."""
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "rules.py"
    src.write_text("x = 1\n")
    build = jit.GameBuild("toy", [src], nrt=False)
    a = Pair(np.arange(4), np.arange(4))
    kernel = build.kernel(_sum_fields)
    assert kernel(a, 2) == 4
    assert kernel.targetoptions["_nrt"] is False
    # the build caches its code, and numba cannot inspect cached code ("Inspection disabled
    # for cached code"): compile the same function with the same options, uncached, to read
    # its LLVM IR.
    plain = njit(_sum_fields)
    lean = njit(**build.options)(_sum_fields)
    assert plain(a, 2) == lean(a, 2) == 4
    ir_plain = plain.inspect_llvm(plain.signatures[0])
    ir_lean = lean.inspect_llvm(lean.signatures[0])
    assert "_sum_fields" in ir_lean, "no IR for the function: the check below would mean nothing"
    assert "NRT_decref" in ir_plain or "NRT_incref" in ir_plain, \
        "numba no longer reference-counts here: check what _nrt=False means now"
    assert "NRT_incref" not in ir_lean and "NRT_decref" not in ir_lean


_LINKED = """
define linkonce_odr i64 @"_ZN4toy5rules4ruleB2v1E"(i64 %x) {
  ret i64 %x
}
define i64 @"_ZN4toy6engine5entryB2v2E"(i64 %x) {
  %r = call i64 @"_ZN4toy5rules4ruleB2v1E"(i64 %x)
  ret i64 %r
}
"""


def test_internalize_makes_linked_callees_internal_and_keeps_the_modules_own_functions():
    """jit.internalize: the linked-in (linkonce_odr) callees become internal, so LLVM may
    inline them and drop their unused arguments; the module's own functions keep their linkage."""
    import llvmlite.binding as ll
    mod = ll.parse_assembly(_LINKED)
    assert jit.internalize(mod) == 1
    linkage = {("rule" if "4rule" in f.name else "entry"): f.linkage for f in mod.functions}
    assert linkage == {"rule": ll.Linkage.internal, "entry": ll.Linkage.external}
    assert jit.internalize(mod) == 0                # nothing linkonce_odr is left


def _add_one(x):
    return x + 1


def _add_two(x):
    return x + 2


def test_the_internalize_hook_runs_for_a_build_that_asks_for_it_and_only_then(tmp_path, monkeypatch):
    """If a numba upgrade renames or stops calling CPUCodeLibrary._optimize_final_module,
    the hook would silently do nothing (and Evolution's engine be about half as fast): fail
    here. A build without internalize=True (Capybara, Evo, Evolversi) is left as numba makes it."""
    from numba.core.codegen import CPUCodeLibrary
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    assert getattr(CPUCodeLibrary, "_balancelab_internalize", False)
    seen = []
    monkeypatch.setattr(jit, "internalize", lambda module: seen.append(module) or 0)
    src = tmp_path / "rules.py"
    src.write_text("x = 1\n")
    plain = jit.GameBuild("toy", [src]).kernel(_add_one)
    assert plain(1) == 2 and not seen
    lean = jit.GameBuild("toy2", [src], internalize=True).kernel(_add_two)
    assert lean(1) == 3
    assert seen, "numba optimised a final module of an internalize=True build without jit.internalize"
