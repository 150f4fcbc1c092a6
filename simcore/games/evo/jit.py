"""How the compiled batch engine and the compiled bots are built and cached.

Every numba function of the engine (and of strategies/evo's compiled bots) is
decorated with `kernel` / `policy` from here. Their on-disk cache lives in a folder named
by a hash of every source file they compile (simcore/games/evo/*.py and
strategies/evo/*.py but the reference engine's reference*.py and the
Python-only glue of _PYTHON_ONLY, read as files: nothing is imported from strategies/) plus the
numba version, so any edit recompiles instead of reusing a stale function.
numba.config.CACHE_DIR is only set while a function is decorated (numba picks its cache
folder then), so other games' caches are untouched.

The policy interface is `DECIDE_SIG` (see decisions.py: the options and context words): a C-callable function per seat,
handed to the engine as a tuple of first-class functions, cached like the rest.
"""
from __future__ import annotations

import hashlib
import os
import sys
import warnings
from pathlib import Path

import numba
from numba import cfunc, njit, types
from numba.core import config
from numba.core.errors import NumbaExperimentalFeatureWarning

_HERE = Path(__file__).resolve().parent
_BOTS = _HERE.parents[2] / "strategies" / "evo"

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


_PYTHON_ONLY = {"rules.py", "batch_io.py", "adapter.py", "registered.py", "state_io.py", "__init__.py"}


def _source_hash() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for folder in (_HERE, _BOTS):
        for f in sorted(folder.glob("*.py")) if folder.is_dir() else ():
            if f.name.startswith("reference") or f.name in _PYTHON_ONLY:
                continue          # never compiled: the one-game engine, the Python-side glue
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


# $BALANCELAB_CACHE_DIR (docs/design.md) if set, else beside the sources; an empty folder
# there is a cold cache (how the cold compile time is measured)
_ROOT = Path(os.environ["BALANCELAB_CACHE_DIR"]) / "evo" if os.environ.get("BALANCELAB_CACHE_DIR") else \
    _HERE / "__pycache__"
CACHE_DIR = _ROOT / f"numba-{_source_hash()}"
_announced = False


def _announce() -> None:
    """One line on stderr when this source hash has no cache yet (a real compile)."""
    global _announced
    if not _announced and not CACHE_DIR.is_dir():
        print("evo: compiling the batch engine and bots (once per source version, under a minute of CPU)",
              file=sys.stderr, flush=True)
    _announced = True


def _in_cache_dir(decorate):
    def wrap(f):
        _announce()
        old = config.CACHE_DIR
        config.CACHE_DIR = str(CACHE_DIR)
        try:
            return decorate(f)
        finally:
            config.CACHE_DIR = old
    return wrap


def kernel(f=None, **kw):
    """njit(cache=True, nogil) in the hashed cache folder; `kernel(inline=True)` for one-liners."""
    inline = kw.pop("inline", False)
    opts = dict(cache=True, nogil=True)
    if inline:
        opts["inline"] = "always"
    deco = _in_cache_dir(njit(**opts))
    return deco(f) if f is not None else deco


# decide(g, rk, kind, seat, n_options, h) -> option index: the policy of one seat.
DECIDE_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64, types.int64, types.int64,
                         types.uint64)


def policy(f):
    """A seat policy compiled as a C-callable function of DECIDE_SIG (cached, hashed folder)."""
    return _in_cache_dir(cfunc(DECIDE_SIG, cache=True))(f)
