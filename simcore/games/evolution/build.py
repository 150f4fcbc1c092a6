"""How Evolution's compiled batch engine is built, cached and handed its bots.

Three rules (docs/design.md, "Compiled engines"):

- Every compiled function is decorated with `kernel` (or `inline`, for one-line helpers):
  numba's on-disk cache of that function goes to a folder named by a hash of every source
  file it can compile in (the engine's modules, the files beside the function, the numba
  version). numba alone keys a cached function on its own file only, so an edit of a helper
  it inlines from another file would keep the old code; here any edit moves to a new folder.
- The engine never names a bot. A bot's batch face is a `Policy`: three compiled functions
  with fixed signatures (below). `engine_for(policies)` loads the engine module
  (engine.py) once per set of distinct policies, as its own module with those functions as
  globals, and caches its compiled code in a folder keyed by the engine's and the bots'
  sources: adding a bot is a new file under strategies/evolution/, no engine edit.
- Compilation happens once, in the parent process (`warm`), with one line on stderr when
  it really compiles (not on a cache hit); workers load the cache.

Policy functions, for game `b` of the packed batch `a` (packed.Arr), rules `rk`
(packed.RK), the seat's row of `mem` (int64 (P, M), the policies' own memory):

    food_card(a, rk, b, seat, mem) -> card id (-1: none)
    plan_cards(a, rk, b, seat, acts, mem) -> rows written to acts (int64 (8, 4))
    feed_choice(a, rk, b, seat, opts, n_opts, turn, mem) -> row index of opts (int64 (K, 5))
"""
from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import sys
import time
from collections import namedtuple
from pathlib import Path

import numpy as np
from numba import njit

from ...jit import CORE_SOURCES, KEEP_DAYS, cache_root, cached as _cached, compile_estimate, digest as _digest
from ...jit import bot_sources as _bot_sources, compile_lock, folder as _game_folder, prune as _prune

HERE = Path(__file__).resolve().parent
# The engine's own sources (every file kernels.py and engine.py compile code or constants
# from), and simcore's shared ones (the build, rng.py whose stream numbers they read).
ENGINE_SOURCES = tuple(HERE / f for f in ("addresses.py", "build.py", "engine.py", "kernels.py",
                                          "packed.py", "state.py", "traits.py")) + CORE_SOURCES
MAX_POLICIES = 4        # distinct bots in one engine build (engine.py dispatches on 0..3)

# `memory`: the policy's initial int64 memory row (or None); the engine hands each seat its
# row and writes it back after a call (scripted players keep their script position there).
# `script_at`: where a script's part of the row starts (-1: no script a search can force):
# [feeds used, feeds, food cards used, food cards, food indices..., feed indices...] (the
# feed indices last: a search appends its forced option there, branch.py).
Policy = namedtuple("Policy", "name food_card plan_cards feed_choice memory script_at", defaults=(None, -1))
FEED_POS, N_FEED, FOOD_POS, N_FOOD, LISTS = 0, 1, 2, 3, 4


def _sources_of(fn) -> list:
    """The files a compiled function may compile in: the engine's, and for a function
    outside the engine (a bot) its own file and the files beside it that can hold compiled
    code or its constants (simcore.jit.bot_sources: those importing this build or numba, and
    what they import); a plain-Python bot file beside it is not one."""
    path = Path(inspect.getfile(fn)).resolve()
    if path.parent == HERE:
        return list(ENGINE_SOURCES)
    package = fn.__module__.rpartition(".")[0]
    return list(ENGINE_SOURCES) + sorted({path, *_bot_sources(path.parent, package, (__name__,))})


def _folder(key: str) -> Path:
    return _game_folder("evolution", key)


# ---------------------------------------------------------------- linked callees internal

# The mangled-name prefixes of Evolution's compiled code (the rules, the engine builds and
# the bots): a numba library holding one of them is Evolution's.
_OURS = ("_ZN7simcore5games9evolution", "_ZN10strategies9evolution")


def _internalize(module) -> int:
    """Make the callees linked into `module` internal (returns how many).

    numba links each compiled callee into its caller's module as `linkonce_odr` and then
    optimises the whole at -O3. A linkonce_odr function may be replaced at link time, so
    LLVM keeps its signature: every call of a rule passes the packed state and rules as
    they are flattened, about 360 scalar arguments, and LLVM inlines none of the larger rules.
    Internal, the copy belongs to this module alone: LLVM drops the arguments a callee never
    reads and inlines a callee called once (measured: the greedy games 1.9x faster, same games;
    docs/games/evolution.md, "Engines"). The module's own functions (the entry point and its
    wrappers) keep their linkage, and so does everything outside Evolution's libraries."""
    import llvmlite.binding as ll
    funcs = list(module.functions)
    if not any(f.name.startswith(_OURS) for f in funcs if not f.is_declaration):
        return 0
    n = 0
    for f in funcs:
        if not f.is_declaration and f.linkage == ll.Linkage.linkonce_odr:
            f.linkage = ll.Linkage.internal
            n += 1
    return n


def _install_internalize() -> None:
    """Hook `_internalize` into numba's final-module optimisation (numba's private
    CPUCodeLibrary._optimize_final_module; tests/evolution/test_build.py checks that it is
    still there and still called)."""
    from numba.core.codegen import CPUCodeLibrary
    if getattr(CPUCodeLibrary, "_evolution_internalize", False):
        return
    original = CPUCodeLibrary._optimize_final_module

    def _optimize_final_module(self):
        _internalize(self._final_module)
        return original(self)

    CPUCodeLibrary._optimize_final_module = _optimize_final_module
    CPUCodeLibrary._evolution_internalize = True


_install_internalize()


def kernel_options(inline: bool = False) -> dict:
    """The numba options of every compiled rules and bot function (see `kernel`)."""
    opts = {"_nrt": False}
    if inline:
        opts["inline"] = "always"
    return opts


def kernel(fn=None, *, inline: bool = False):
    """njit without reference counting (`_nrt=False`, see below), cached by source hash.

    Why `_nrt=False`: with numba's reference counting, each read of an array field of the
    packed state costs an atomic increment/decrement pair (measured 280 ns against 1.3 ns
    for `capacity`). So compiled rules and bots allocate nothing: scratch space comes
    packed with the state or from the caller. tests/evolution/test_build.py fails loudly if
    a numba upgrade changes what this private option does."""
    def wrap(f):
        return _cached(njit(**kernel_options(inline))(f), _folder(_digest(_sources_of(f))))
    return wrap(fn) if fn is not None else wrap


def inline(fn):
    """A one-line helper, inlined by numba into its callers."""
    return kernel(fn, inline=True)


# ---------------------------------------------------------------- one engine per bot set

_ENGINES: dict = {}


def _policy_key(policies) -> str:
    files = list(ENGINE_SOURCES)
    names = []
    for pol in policies:
        for fn in (pol.food_card, pol.plan_cards, pol.feed_choice):
            py = getattr(fn, "py_func", fn)
            files += _sources_of(py)
            names.append(f"{py.__module__}.{py.__qualname__}")
    h = hashlib.sha256(_digest(files).encode())
    h.update("|".join(names).encode())
    return h.hexdigest()[:16]


def distinct(policies) -> tuple[tuple, np.ndarray]:
    """The distinct compiled faces among the seats' policies, and each seat's index into them."""
    def name(face):
        return tuple(f"{getattr(f, 'py_func', f).__module__}.{getattr(f, 'py_func', f).__qualname__}"
                     for f in face)
    seats = [(pol.food_card, pol.plan_cards, pol.feed_choice) for pol in policies]
    # in a fixed order, so that the same set of bots in any seats is the same build
    faces = sorted(set(seats), key=name)
    index = [faces.index(face) for face in seats]
    if len(faces) > MAX_POLICIES:
        from simcore.errors import UserError
        raise UserError(f"at most {MAX_POLICIES} different bots play in one game, got {len(faces)}",
                        key="bots")
    return tuple(faces), np.array(index, np.int64)


_KEYS: dict = {}         # faces -> their build key (a search asks for it at every turn)


def engine_for(policies):
    """The engine module (engine.py) compiled with these policies' functions."""
    faces, _ = distinct(policies)
    # The key hashes the sources, read once per process: the functions in hand are the
    # code imported then, whatever a file holds now.
    key = _KEYS.get(faces)
    if key is None:
        key = _KEYS[faces] = _policy_key([Policy("", *f) for f in faces])
    mod = _ENGINES.get(key)
    if mod is not None:
        return mod
    folder = _folder(key)
    spec = importlib.util.spec_from_file_location(f"{__package__}.engine_{key}", HERE / "engine.py")
    mod = importlib.util.module_from_spec(spec)
    for k in range(MAX_POLICIES):
        food, plan, feed = faces[min(k, len(faces) - 1)]
        mod.__dict__.update({f"FOOD_{k}": food, f"PLAN_{k}": plan, f"FEED_{k}": feed})
    mod.__dict__["CACHE_FOLDER"] = folder
    mod.__dict__["N_FACES"] = len(faces)     # engine.bot_*: the dispatch folds past it
    sys.modules[spec.name] = mod             # numba resolves globals through the module
    spec.loader.exec_module(mod)
    mod.KEY, mod.FOLDER = key, folder
    _ENGINES[key] = mod
    return mod


def engine_kernel(folder: Path, inline: bool = False):
    """The decorator engine.py uses: like `kernel`, cached in its bot set's folder."""
    def wrap(f):
        return _cached(njit(**kernel_options(inline))(f), folder)
    return wrap


# ---------------------------------------------------------------- compiling once, loudly

def _stamp(folder: Path) -> Path:
    return folder / "built"


def compiled_already(mod) -> bool:
    return _stamp(mod.FOLDER).exists()


def last_compile_seconds() -> float:
    try:
        return float((cache_root() / "numba" / "evolution-compile-seconds").read_text())
    except (OSError, ValueError):
        return compile_estimate("evolution")    # no build here yet: the measured figure, at the speed of the machine it runs on


def warm(mod, run) -> bool:
    """Call run() (which plays a game on engine module `mod`): that compiles the build or
    loads it from the cache. If the build is not in the cache yet, say so on stderr first.
    A process that really compiled (numba's own count of cache misses of the entry point)
    adds a line to `compile.log` in the build's folder. Returns whether it compiled.

    A cold build is compiled under compile_lock: another process building it at the same
    time waits and then loads it (one compilation, not two)."""
    if compiled_already(mod):
        return _warm(mod, run)
    with compile_lock(mod.FOLDER):
        return _warm(mod, run)


def _warm(mod, run) -> bool:
    loud = not compiled_already(mod)
    if loud:
        print(f"compiling the evolution engine, once, about {last_compile_seconds():.0f} s",
              file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    run()
    seconds = time.perf_counter() - t0
    compiled = bool(mod.play_all.stats.cache_misses)
    mod.FOLDER.mkdir(parents=True, exist_ok=True)
    if compiled:
        with open(mod.FOLDER / "compile.log", "a") as f:
            f.write(f"{os.getpid()} {seconds:.1f}\n")
    if loud:
        (cache_root() / "numba" / "evolution-compile-seconds").write_text(f"{seconds:.1f}")
        prune()
    _stamp(mod.FOLDER).write_text(f"{seconds:.1f}\n")      # also marks the folder as used
    return compiled


def prune(days: float = KEEP_DAYS) -> None:
    """Remove engine cache folders not used for `days` days (each build touches its stamp)."""
    _prune("evolution", days)
