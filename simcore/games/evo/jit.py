"""How the compiled batch engine and the compiled bots are built and cached (simcore/jit.py).

Every numba function of the engine (and of the compiled bots) is decorated with `kernel` /
`policy` from here; the engine's cache folder is keyed by every source file it compiles:
simcore/games/evo/*.py but the reference engine's reference*.py and the Python-only glue of
_PYTHON_ONLY; a bot's by those and its own files (the bot's file and the files of its
package that import this build or numba, with what those import: GameBuild.sources_of,
learned from the bot's function, read as files): a plain-Python bot file recompiles nothing.

The policy interface is `DECIDE_SIG` (see decisions.py: the options and context words): a
C-callable function per seat, handed to the engine as a tuple of first-class functions,
cached like the rest.

All of it compiles without reference counting (`nrt=False`, simcore/jit.py): the greedy
bot spent about 80% of its time in the atomic increments and decrements of `g` and `rk`
around each helper call. So nothing compiled here allocates: the scratch is in `g`
(state.py: O_TMP.., the policies' O_PTMP) or comes from the caller.
"""
from __future__ import annotations

from pathlib import Path

from ...jit import DECIDE_SIG, GameBuild, python_files

_PYTHON_ONLY = {"rules.py", "batch_io.py", "adapter.py", "registered.py", "state_io.py", "__init__.py", "search.py"}


def _never_compiled(name: str) -> bool:
    """The one-game engine and the Python-side glue."""
    return name.startswith("reference") or name in _PYTHON_ONLY


BUILD = GameBuild("evo", python_files(Path(__file__).resolve().parent, skip=_never_compiled),
                  "evo: compiling the batch engine and bots (once per source version, about {seconds} s)",
                  nrt=False, modules=(__name__,))
CACHE_DIR = BUILD.folder
kernel, policy = BUILD.kernel, BUILD.policy

__all__ = ["BUILD", "CACHE_DIR", "DECIDE_SIG", "kernel", "policy"]
