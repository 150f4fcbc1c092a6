"""The compiled-engine build every numba game shares (docs/design.md, "Compiled engines").

numba keys a cached function on its own file only, while a game's compiled code inlines
helpers from other files and its bots from strategies/: an edit there could keep running
the old code. So each game's compiled code is cached in a folder named by a hash of every
source file it compiles (read as files: nothing is imported from strategies/), simcore's
own files they all compile (CORE_SOURCES) and the numba version; any edit moves to a new
folder, and folders unused for KEEP_DAYS are removed when a game compiles.

numba.config.CACHE_DIR is only set while a function's cache is set up (numba picks its
cache folder then), so other games' caches are untouched.

`GameBuild` is the whole build of a game whose compiled sources are a fixed set of files
(Capybara, Evo: `kernel` / `policy` decorators, one line on stderr when it compiles);
Evolution builds one engine per bot set on the same pieces (evolution/build.py).
`GameBuild(..., nrt=False)` compiles without numba's reference counting (its private
`_nrt=False`, as Evolution's build): a kernel then cannot allocate, and passing the game's
arrays to a small callee costs no atomic incref/decref pair (Capybara: half of the greedy
games' CPU; Evo: about 70%). Both use it.
"""
from __future__ import annotations

import ast
import hashlib
import os
import shutil
import sys
import time
import warnings
from contextlib import contextmanager
from pathlib import Path

import numba
from numba import cfunc, njit, types
from numba.extending import intrinsic
from numba.core.errors import NumbaExperimentalFeatureWarning

_HERE = Path(__file__).resolve().parent
TREE = _HERE.parent                 # the folder holding simcore/ and strategies/
# simcore's files every compiled game compiles code or constants from: this build, the
# random streams and their compiled form
CORE_SOURCES = tuple(_HERE / f for f in ("jit.py", "rng.py", "rng_jit.py"))
KEEP_DAYS = 14                      # cache folders unused for longer are removed
# LLVM's optimisation level for the IR passes of every compiled game (numba's default: 3).
# Measured on one machine, cold caches, one game at a time: at -O1
# the cold compiles take 100.6 s (Evolversi; 116-121 s at -O3), 64.6 (Evolution; 75.7),
# 70.2 (Capybara; 78.5) and 62.1 (Evo; 64.3), and the batch engines play Evolution 5-9%
# faster, Evolversi 1-2% and Evo 4% faster, Capybara 2-5% slower (A/B, the same minutes):
# numba's own passes have already inlined and simplified most of what -O3 wins.
COMPILE_OPT = 1

# seat policies are first-class functions, an 'experimental' numba feature
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


# A cold compile's line on stderr gives an estimate of its wall time where it runs: the
# cold compiles at COMPILE_OPT measured on a reference machine (`balancelab warmup GAME`,
# an empty cache, one at a time, wall seconds) scaled by speed_probe against PROBE_SECONDS,
# the probe on the reference machine in the same minutes (0.0234-0.0246 s). A machine whose probe
# takes twice as long is taken to compile twice as long; checked on an empty cache (at -O3):
# Evo's line said 65 s for a 60.9 s compile, Evolution's 84 s for 73.2 s.
PROBE_SECONDS = 0.024
COLD_COMPILE_SECONDS = {"evolution": 64.6, "evolversi": 100.6, "capybara": 70.2, "evo": 62.1}


def speed_probe() -> float:
    """Seconds the machine takes for a fixed pure-Python loop (the best of 3; about 0.1 s in all)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        s = 0
        for i in range(200_000):
            s += i * i % 7
        best = min(best, time.perf_counter() - t0)
    return best


def compile_estimate(game: str) -> int:
    """About how many wall seconds a cold compile of `game`'s batch engine takes where it runs:
    its measured figure (COLD_COMPILE_SECONDS) scaled by the speed_probe there."""
    return max(1, round(COLD_COMPILE_SECONDS[game] * speed_probe() / PROBE_SECONDS))


def cache_root() -> Path:
    """Where compiled code is cached: $BALANCELAB_CACHE_DIR, else ~/.cache/balancelab; an
    empty folder there is a cold cache (how the cold compile time is measured)."""
    env = os.environ.get("BALANCELAB_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "balancelab"


def digest(files) -> str:
    """A hash of the numba version and each file's path and bytes (the path: two checkouts
    never share, and overwrite, one cache folder)."""
    h = hashlib.sha256(numba.__version__.encode())
    for f in sorted({Path(f).resolve() for f in files}):
        h.update(str(f).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def folder(game: str, key: str) -> Path:
    """The cache folder of `game`'s build keyed `key`."""
    return cache_root() / "numba" / f"{game}-{key}"


def python_files(*folders, skip=lambda name: False) -> list:
    """The .py files in `folders` (a missing folder has none), but those `skip(name)` names."""
    return [f for d in folders if d.is_dir() for f in sorted(d.glob("*.py")) if not skip(f.name)]


# the imports that let a file add compiled code: numba itself, and the builds' modules
COMPILING_MODULES = ("numba", "simcore.jit", "simcore.rng_jit")


def _imports(path: Path, module: str) -> set:
    """Every module `path` (module `module`) imports outside its functions' bodies, each
    `from X import a` also as `X.a` (a may be a submodule); relative imports resolved. A
    function's own import runs in Python when it is called, after the compiled code it could
    feed is built, so it does not count. Read with ast: nothing is imported."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    todo = list(ast.parse(path.read_bytes(), filename=str(path)).body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        todo.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                up = parts[:len(parts) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return found


def bot_sources(folder: Path, package: str, build_modules=()) -> list:
    """The files of a game's bot package (`folder`, importable as `package`) whose code or
    constants its compiled bots can hold: each file that imports numba, simcore's builds
    (COMPILING_MODULES) or one of the game's `build_modules` (the only ways a file adds
    compiled code), and every file of the package those import, transitively (a constant a
    compiled bot reads is frozen into it). A plain-Python bot file (a registration, a
    script, a numpy bot, a new bot that reuses compiled policies) is none of these: adding
    or editing one recompiles nothing. tests/core/test_jit.py pins both sides."""
    if not folder.is_dir():
        return []
    files = {f"{package}.{f.stem}" if f.name != "__init__.py" else package: f
             for f in sorted(folder.glob("*.py"))}
    imports = {m: _imports(f, m) for m, f in files.items()}
    compiling = tuple(COMPILING_MODULES) + tuple(build_modules)

    def compiles(m):
        return any(i == c or i.startswith(c + ".") for i in imports[m] for c in compiling)

    keep = [m for m in files if compiles(m)]
    seen = set(keep)
    while keep:
        for i in imports[keep.pop()]:
            if i in files and i not in seen:
                seen.add(i)
                keep.append(i)
    return [f for m, f in files.items() if m in seen]


@contextmanager
def _numba_config(**values):
    """numba.config's `values` while the block runs, the old ones after: numba picks its cache
    folder (CACHE_DIR) when a function's cache is set up, and reads OPT each time it builds
    LLVM's passes, so a build's own settings leave other numba code in the process alone."""
    old = {k: getattr(numba.config, k) for k in values}
    for k, v in values.items():
        setattr(numba.config, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(numba.config, k, v)


def _cache_dir(where: Path):
    return _numba_config(CACHE_DIR=str(where))


def _opt_level(level: int):
    """numba's OPT at `level` (its callees compile inside it, at the same level)."""
    return _numba_config(OPT=type(numba.config.OPT)(level))


def cached(dispatcher, where: Path):
    """Turn on numba's on-disk cache of `dispatcher`, in folder `where`; it compiles at
    COMPILE_OPT. (numba compiles every new signature through the dispatcher's `compile`,
    from Python and from compiled callers: tests/core/test_jit.py.)"""
    with _cache_dir(where):
        dispatcher.enable_caching()
    plain = dispatcher.compile

    def compile(sig):
        with _opt_level(COMPILE_OPT):
            return plain(sig)
    dispatcher.compile = compile
    return dispatcher


@contextmanager
def compile_lock(where: Path):
    """Hold an exclusive lock on build folder `where` across processes (a lock file in it):
    two test workers or two runs reaching the same cold build at once would otherwise both
    compile it; the second waits, then loads the first one's cache. Where the OS has no
    flock (not POSIX) there is no lock: both compile, as before."""
    try:
        import fcntl
    except ImportError:                  # pragma: no cover - not POSIX
        yield
        return
    where.mkdir(parents=True, exist_ok=True)
    with open(where / "compile.lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def prune(game: str, days: float = KEEP_DAYS) -> None:
    """Remove `game`'s cache folders not used for `days` days."""
    cutoff = time.time() - days * 86400
    for d in (cache_root() / "numba").glob(f"{game}-*"):
        if d.is_dir():
            try:
                newest = max((p.stat().st_mtime for p in d.iterdir()), default=d.stat().st_mtime)
            except OSError:
                continue
            if newest < cutoff:
                shutil.rmtree(d, ignore_errors=True)


# decide(g, rk, kind, seat, n_options, h) -> option index: the policy of one seat, for the
# engines that ask their bots through one C-callable function (Capybara, Evo).
DECIDE_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64, types.int64, types.int64,
                         types.uint64)

# The same policy with its two int64 arrays passed as bare pointers (Evolversi): a cfunc's
# array argument is a 7-word struct the caller stores and the wrapper reloads; a pointer is
# one register (6 arguments: all in registers). `address(a)` is what the engine passes.
I64_PTR = types.CPointer(types.int64)
DECIDE_PTR_SIG = types.int64(I64_PTR, I64_PTR, types.int64, types.int64, types.int64, types.uint64)


@intrinsic
def address(typingctx, arr):
    """The data pointer of a C-contiguous int64 array, as a CPointer(int64) (compiled code only)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and arr.layout == "C"):
        return None

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data
    return I64_PTR(arr), codegen


class GameBuild:
    """The compiled code of one game: every function decorated with `kernel` / `policy` is
    cached in one folder keyed by `sources` (plus CORE_SOURCES). The first decoration in a
    process whose folder is not there yet prints `note` on stderr: a real compile follows
    (a `{seconds}` in it: compile_estimate of the game, its estimated wall time).
    `nrt=False`: every kernel and policy without numba's reference counting (its private
    `_nrt`, as Evolution's build: docs/design.md "Compiled engines" 5); such code allocates
    nothing: its scratch comes packed with the state or from the caller. `policy_sig`: the C
    signature of its policies (DECIDE_SIG, or DECIDE_PTR_SIG: the frame and data by address).
    `line_of`: another build of the same game (one engine compiled into two folders, as
    Evolversi's) whose note this one says instead: one line for the game, said by whichever
    compiles first, so the time it gives is for the whole engine in either order."""

    def __init__(self, game: str, sources, note: str = "", nrt: bool = True, policy_sig=DECIDE_SIG,
                 line_of: GameBuild | None = None):
        self.game, self.note, self.nrt, self.policy_sig = game, note, nrt, policy_sig
        self.line_of = line_of
        self.options = {} if nrt else {"_nrt": False}
        self.folder = folder(game, digest(list(sources) + list(CORE_SOURCES)))
        # cold or warm as the build is made: numba creates the folder when a kernel's cache
        # is set up at its decoration, and the note is said later, at the first compile
        self._cold = not self.folder.is_dir()
        self._announced = False     # this build's first compile (or cache load) has come
        self._said = False          # this build's note is on stderr

    def _announce(self) -> None:
        if not self._announced and self._cold:
            (self.line_of or self)._say()
            prune(self.game)
        self._announced = True

    def _say(self) -> None:
        if not self._said:
            note = self.note.format(seconds=compile_estimate(self.game)) if "{seconds}" in self.note else self.note
            print(note, file=sys.stderr, flush=True)
        self._said = True

    def kernel(self, f=None, *, inline: bool = False):
        """njit(nogil) cached in the build's folder; `kernel(inline=True)` for one-liners."""
        opts = dict(nogil=True, **self.options)
        if inline:
            opts["inline"] = "always"

        def wrap(fn):
            return self._announcing(cached(njit(**opts)(fn), self.folder))
        return wrap(f) if f is not None else wrap

    def _announcing(self, dispatcher):
        """`dispatcher` with the build's note said at its first compile or cache load, not
        at its decoration: importing a game's bots (to list them, or to reject an unknown
        one in one line) compiles nothing and says nothing. numba compiles (or loads) every
        new signature through the dispatcher's `compile` method, called from Python and
        from compiled callers alike (tests/core/test_jit.py fails if an upgrade stops it)."""
        plain = dispatcher.compile

        def compile(sig):
            self._announce()
            return plain(sig)
        dispatcher.compile = compile
        return dispatcher

    def policy(self, f):
        """A seat policy of DECIDE_SIG, compiled as a C-callable function (cached in the
        build's folder) at its first use, not at its decoration: see `Policy`."""
        return Policy(self, f)

    def compile_policy(self, f):
        """`f` as a cfunc of DECIDE_SIG (cfunc compiles at once, so the folder is set around it)."""
        self._announce()
        with _cache_dir(self.folder), _opt_level(COMPILE_OPT):
            return cfunc(self.policy_sig, cache=True, **self.options)(f)


class Policy:
    """A seat policy whose C-callable function (`compiled`) is built on first use: a cfunc
    compiles when it is created, and a game's bot modules are all imported to register
    their names, so compiling at decoration would make `balancelab run capybara --bots
    nobody` compile the whole engine before saying the bot is unknown."""

    def __init__(self, build: GameBuild, f):
        self.build, self.py_func, self._cfunc = build, f, None
        self.__name__, self.__doc__ = f.__name__, f.__doc__

    @property
    def compiled(self):
        """The cfunc (compiled, or loaded from the build's cache, once per process)."""
        if self._cfunc is None:
            self._cfunc = self.build.compile_policy(self.py_func)
        return self._cfunc


def compiled(decide):
    """The C-callable function an engine hands to its compiled code: a `Policy`'s, or `decide`
    itself (a cfunc made elsewhere, e.g. a test's own policy)."""
    return decide.compiled if isinstance(decide, Policy) else decide
