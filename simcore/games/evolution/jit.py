"""How Evolution's compiled batch engine and compiled bots are built and cached (simcore/jit.py).

Every numba function of the rules (kernels*.py, packed.py) and of the compiled bots is
decorated with `kernel` / `inline` from here. The engine's parts that ask the bots
(engine.py) are compiled once per set of distinct bots, with the bots' functions as
constants (`engine_for`, GameBuild.instance): adding a bot is a new file under
strategies/, no engine edit; the cache folder of a bot's code is keyed by its own files
(GameBuild.sources_of), of an engine by the engine's and its bots'.

No reference counting (`nrt=False`): each read of an array field of the packed state would
cost an atomic increment/decrement pair (measured 280 ns against 1.3 ns for `capacity`); so
compiled rules and bots allocate nothing: scratch space comes packed with the state or
from the caller. Callees internal (`internalize=True`, simcore.jit.internalize): LLVM drops
the hundreds of flattened state arguments a rule never reads and inlines the rules.
"""
from __future__ import annotations

from pathlib import Path

from ...jit import GameBuild
from .decisions import MAX_POLICIES, Policy, distinct

HERE = Path(__file__).resolve().parent
# every file the rules and engine.py compile code or constants from
SOURCES = tuple(HERE / f for f in ("addresses.py", "decisions.py", "engine.py", "jit.py", "kernels.py",
                                   "kernels_attacks.py", "kernels_board.py", "kernels_cards.py",
                                   "kernels_feeding.py", "kernels_food.py", "packed.py", "state.py",
                                   "traits.py"))
NOTE = "evolution: compiling the evolution engine, once, about {seconds} s"

BUILD = GameBuild("evolution", SOURCES, nrt=False, internalize=True, modules=(__name__,))
kernel, inline = BUILD.kernel, BUILD.inline

_ENGINES: dict = {}      # faces -> their engine module (a search asks for it at every turn)


def engine_for(policies):
    """The engine module (engine.py) compiled with these policies' functions: globals
    FOOD_k, PLAN_k, FEED_k (k < MAX_POLICIES; past the distinct ones, the last again),
    N_FACES, and BUILD (its own build: `mod.BUILD.warm`)."""
    faces, _ = distinct(policies)
    mod = _ENGINES.get(faces)
    if mod is None:
        values = {"N_FACES": len(faces)}
        for k in range(MAX_POLICIES):
            food, plan, feed = faces[min(k, len(faces) - 1)]
            values.update({f"FOOD_{k}": food, f"PLAN_{k}": plan, f"FEED_{k}": feed})
        mod = _ENGINES[faces] = BUILD.instance(f"{__package__}.engine", HERE / "engine.py",
                                               [f for face in faces for f in face], values, NOTE)
    return mod


__all__ = ["BUILD", "Policy", "engine_for", "inline", "kernel"]
