"""The compiled-engine build every numba game shares (docs/design.md, "Compiled engines").

numba keys a cached function on its own file only, while a game's compiled code inlines
helpers from other files and its bots from strategies/: an edit there could keep running
the old code. So each game's compiled code is cached in a folder named by a hash of every
source file it compiles (read as files: nothing is imported from strategies/), simcore's
own files they all compile (CORE_SOURCES) and the numba version; any edit moves to a new
folder, and folders unused for KEEP_DAYS are removed when a game compiles.

numba.config.CACHE_DIR is only set while a function's cache is set up (numba picks its
cache folder then), so other games' caches are untouched.

`GameBuild` is the whole build of a game: `kernel` / `policy` decorators, one line on
stderr when it compiles. A game whose engine inlines its bots (Evolution) loads its engine
module once per set of bots (`GameBuild.instance`), each set in a folder of its own, and
compiles it once across processes (`GameBuild.warm`).
`GameBuild(..., nrt=False)` compiles without numba's reference counting (its private
`_nrt=False`): a kernel then cannot allocate, and passing the game's arrays to a small
callee costs no atomic incref/decref pair (Capybara: half of the greedy games' CPU; Evo:
about 70%). `GameBuild(..., internalize=True)`: see `internalize`.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import os
import shutil
import sys
import threading
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


_INTERNALIZING = threading.local()     # .on: a build with internalize=True is compiling


def internalize(module) -> int:
    """Make the callees linked into LLVM module `module` internal (returns how many).

    numba links each compiled callee into its caller's module as `linkonce_odr` and then
    optimises the whole. A linkonce_odr function may be replaced at link time, so LLVM keeps
    its signature: a callee taking a packed state and rules as numba flattens them (hundreds
    of scalar arguments) keeps them all, and LLVM inlines none of the larger callees.
    Internal, the copy belongs to this module alone: LLVM drops the arguments a callee never
    reads and inlines a callee called once (Evolution's greedy games 1.9x faster, the same
    games: docs/games/evolution.md, "Engines"). The module's own functions (the entry point
    and its wrappers) keep their linkage."""
    import llvmlite.binding as ll
    n = 0
    for f in module.functions:
        if not f.is_declaration and f.linkage == ll.Linkage.linkonce_odr:
            f.linkage = ll.Linkage.internal
            n += 1
    return n


def _install_internalize() -> None:
    """Hook `internalize` into numba's final-module optimisation (numba's private
    CPUCodeLibrary._optimize_final_module), for the modules compiled while a build with
    internalize=True compiles (tests/core/test_jit.py checks that the hook is still called)."""
    from numba.core.codegen import CPUCodeLibrary
    if getattr(CPUCodeLibrary, "_balancelab_internalize", False):
        return
    original = CPUCodeLibrary._optimize_final_module

    def _optimize_final_module(self):
        if getattr(_INTERNALIZING, "on", False):
            internalize(self._final_module)
        return original(self)

    CPUCodeLibrary._optimize_final_module = _optimize_final_module
    CPUCodeLibrary._balancelab_internalize = True


_install_internalize()


@contextmanager
def _internalizing(on: bool):
    """Callees internal in every module compiled while the block runs, if `on`."""
    old = getattr(_INTERNALIZING, "on", False)
    _INTERNALIZING.on = old or on
    try:
        yield
    finally:
        _INTERNALIZING.on = old


def cached(dispatcher, where: Path, internalize: bool = False):
    """Turn on numba's on-disk cache of `dispatcher`, in folder `where`; it compiles at
    COMPILE_OPT (and with `internalize`'s linkage if asked). (numba compiles every new
    signature through the dispatcher's `compile`, from Python and from compiled callers:
    tests/core/test_jit.py.)"""
    with _cache_dir(where):
        dispatcher.enable_caching()
    plain = dispatcher.compile

    def compile(sig):
        with _opt_level(COMPILE_OPT), _internalizing(internalize):
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
    cached in a folder keyed by the sources it compiles from: `sources` (plus CORE_SOURCES),
    and with `modules`, for a function in a file outside them (a bot) also its own file and
    what that file compiles from (`sources_of`: learned from the function, not from a
    folder's name). The
    first compile (or cache load) in a process of a folder that was not there yet prints
    `note` on stderr: a real compile follows (a `{seconds}` in it: compile_estimate of the
    game, its estimated wall time).
    `nrt=False`: every kernel and policy without numba's reference counting (its private
    `_nrt`: docs/design.md "Compiled engines" 5); such code allocates nothing: its scratch
    comes packed with the state or from the caller. `policy_sig`: the C signature of its
    policies (DECIDE_SIG, or DECIDE_PTR_SIG: the frame and data by address).
    `line_of`: another build of the same game (one engine compiled into two folders, as
    Evolversi's) whose note this one says instead: one line for the game, said by whichever
    compiles first, so the time it gives is for the whole engine in either order.
    `internalize`: the callees linked into this build's compiled modules are made internal
    (`internalize`). `modules`: the modules through which a file adds compiled code to this
    build (its `kernel` decorator's module); given, a function outside `sources` is cached in
    a folder keyed by its own files too (`sources_of`).
    `tag`: more text the folder's key is made of (`instance`: the names of the functions a
    module is specialised on)."""

    def __init__(self, game: str, sources, note: str = "", nrt: bool = True, policy_sig=DECIDE_SIG,
                 line_of: GameBuild | None = None, internalize: bool = False, modules=(), tag: str = ""):
        self.game, self.note, self.nrt, self.policy_sig = game, note, nrt, policy_sig
        self.line_of, self.internalize, self.modules = line_of, internalize, tuple(modules)
        self.options = {} if nrt else {"_nrt": False}
        self.sources = tuple(sorted({Path(f).resolve() for f in list(sources) + list(CORE_SOURCES)}))
        self.key = self._key(self.sources, tag)
        self.folder = folder(game, self.key)
        # each folder: cold or warm as first seen (numba creates the folder when a kernel's
        # cache is set up at its decoration, and the note is said later, at the first compile)
        self._cold = {self.folder: not self.folder.is_dir()}
        self._announced = set()     # the folders whose first compile (or cache load) has come
        self._said = False          # this build's note is on stderr
        self._dispatchers = []

    @staticmethod
    def _key(sources, tag: str = "") -> str:
        key = digest(sources)
        return hashlib.sha256(f"{key}|{tag}".encode()).hexdigest()[:16] if tag else key

    def sources_of(self, fn) -> list:
        """The files compiled function `fn` (its Python function) may compile from beyond the
        build's sources: none for a function of those (or for a build without `modules`, whose
        sources list every file it compiles), else its own file and the files of its package
        that can hold compiled code or its constants (bot_sources, with this build's
        `modules`)."""
        path = Path(inspect.getfile(fn)).resolve()
        if path in self.sources or not self.modules:
            return []
        module = fn.__module__
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        return sorted({path, *bot_sources(path.parent, package, self.modules)})

    def _folder_for(self, fn) -> Path:
        """The cache folder of compiled function `fn` (see sources_of)."""
        extra = self.sources_of(fn)
        if not extra:
            return self.folder
        where = folder(self.game, self._key(self.sources + tuple(extra)))
        self._cold.setdefault(where, not where.is_dir())
        return where

    def _announce(self, where: Path) -> None:
        if where not in self._announced and self._cold.get(where):
            (self.line_of or self)._say()
            prune(self.game)
        self._announced.add(where)

    def _say(self) -> None:
        if not self._said and self.note:
            note = self.note.format(seconds=compile_estimate(self.game)) if "{seconds}" in self.note else self.note
            print(note, file=sys.stderr, flush=True)
        self._said = True

    def kernel(self, f=None, *, inline: bool = False):
        """njit(nogil) cached in the function's folder; `kernel(inline=True)` for one-liners."""
        opts = dict(nogil=True, **self.options)
        if inline:
            opts["inline"] = "always"

        def wrap(fn):
            where = self._folder_for(fn)
            dispatcher = cached(njit(**opts)(fn), where, self.internalize)
            self._dispatchers.append(dispatcher)
            return self._announcing(dispatcher, where)
        return wrap(f) if f is not None else wrap

    def inline(self, f):
        """A one-line helper, inlined by numba into its callers."""
        return self.kernel(f, inline=True)

    def _announcing(self, dispatcher, where: Path):
        """`dispatcher` with the build's note said at its first compile or cache load, not
        at its decoration: importing a game's bots (to list them, or to reject an unknown
        one in one line) compiles nothing and says nothing. numba compiles (or loads) every
        new signature through the dispatcher's `compile` method, called from Python and
        from compiled callers alike (tests/core/test_jit.py fails if an upgrade stops it)."""
        plain = dispatcher.compile

        def compile(sig):
            self._announce(where)
            return plain(sig)
        dispatcher.compile = compile
        return dispatcher

    def policy(self, f):
        """A seat policy of DECIDE_SIG, compiled as a C-callable function (cached in the
        function's folder) at its first use, not at its decoration: see `Policy`."""
        return Policy(self, f)

    def compile_policy(self, f):
        """`f` as a cfunc of DECIDE_SIG (cfunc compiles at once, so the folder is set around it)."""
        where = self._folder_for(f)
        self._announce(where)
        with _cache_dir(where), _opt_level(COMPILE_OPT), _internalizing(self.internalize):
            return cfunc(self.policy_sig, cache=True, **self.options)(f)

    # ------------------------------------------------ a module specialised on compiled functions

    def instance(self, name: str, path: Path, functions, values: dict, note: str = ""):
        """Module file `path` loaded as a module of its own (`name`_KEY), with `values` as
        globals and `BUILD`, a build of its own whose folder is keyed by this build's
        sources, the sources of `functions` (the compiled functions `values` hands it) and
        their names. numba then compiles the module with those functions as constants: a
        game's engine with its bots inlined, one module (and cache folder) per set of bots,
        and no engine edit for a new bot. One module per key and process."""
        files, names = list(self.sources), []
        for fn in functions:
            py = getattr(fn, "py_func", fn)
            files += self.sources_of(py)
            names.append(f"{py.__module__}.{py.__qualname__}")
        build = GameBuild(self.game, files, note, self.nrt, self.policy_sig,
                          internalize=self.internalize, modules=self.modules, tag="|".join(names))
        full = f"{name}_{build.key}"
        mod = sys.modules.get(full)
        if mod is not None:
            return mod
        spec = importlib.util.spec_from_file_location(full, path)
        mod = importlib.util.module_from_spec(spec)
        mod.__dict__.update(values, BUILD=build)
        sys.modules[full] = mod                  # numba resolves globals through the module
        spec.loader.exec_module(mod)
        return mod

    # ------------------------------------------------ compiling once, across processes

    def warm(self, run) -> bool:
        """Call run() (which plays on this build's code): that compiles the build or loads
        it from the cache. A build not compiled yet is compiled under compile_lock: another
        process asking for it at the same time waits, then loads it (one compilation, not
        two, and one note). A process that really compiled (numba's count of cache misses
        of this build's functions) adds a line to `compile.log` in the build's folder.
        Returns whether it compiled."""
        stamp = self.folder / "built"
        if stamp.exists():
            self._cold[self.folder] = False
            return self._timed(run, stamp)
        with compile_lock(self.folder):
            self._cold[self.folder] = not stamp.exists()
            return self._timed(run, stamp)

    def _misses(self) -> int:
        return sum(sum(d.stats.cache_misses.values()) for d in self._dispatchers)

    def _timed(self, run, stamp: Path) -> bool:
        before = self._misses()
        t0 = time.perf_counter()
        run()
        seconds = time.perf_counter() - t0
        compiled = self._misses() > before
        self.folder.mkdir(parents=True, exist_ok=True)
        if compiled:
            with open(self.folder / "compile.log", "a") as f:
                f.write(f"{os.getpid()} {seconds:.1f}\n")
        stamp.write_text(f"{seconds:.1f}\n")      # also marks the folder as used
        return compiled


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
