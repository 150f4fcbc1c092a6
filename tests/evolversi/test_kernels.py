"""The batch engine's compiled kernels (simcore/games/evolversi/kernels.py): the shuffle is
the contract's (a stable sort by key, ties in pile order), and the build is keyed by every
source file of the package (simcore/jit.py), so an edit never runs stale code."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from simcore import jit, rng
from simcore.games.evolversi import jit as evolversi_jit
from simcore.games.evolversi.kernels import shuffle_into


def test_the_build_is_keyed_by_every_source_of_the_package_and_a_compiled_bot_by_its_own_files():
    from strategies.evolversi import compiled
    sources = jit.python_files(jit.TREE / "simcore" / "games" / "evolversi")
    assert {f.name for f in sources} >= {"kernels.py", "phases.py", "effects.py", "jit.py", "turn.py"}
    key = jit.digest(sources + list(jit.CORE_SOURCES))
    assert evolversi_jit.BUILD.folder.name == f"evolversi-{key}"
    assert evolversi_jit.TURN_BUILD.folder.name == f"evolversiturn-{key}"
    bot = next(v for v in vars(compiled).values() if isinstance(v, jit.Policy))
    assert Path(compiled.__file__).resolve() in evolversi_jit.TURN_BUILD.sources_of(bot.py_func)


def test_shuffle_into_is_the_stable_sort_of_the_pile_by_its_keys():
    r = np.random.default_rng(5)
    for n in (0, 1, 2, 7, 40):
        ident = r.integers(0, 2**63, size=60, dtype=np.uint64)
        ident[3] = ident[4] = ident[5]          # equal identities: equal keys, a tie
        pile = np.full(70, -1, np.int16)
        tied = [3, 4, 5][:n]                    # in every pile of 3 cards or more
        rest = r.permutation([u for u in range(60) if u not in (3, 4, 5)])[:n - len(tied)]
        pile[:n] = r.permutation(np.concatenate([tied, rest]).astype(np.int16))
        prefix = rng.key(7, 11, rng.CHANCE, 6, 2, 3)
        keys = rng.key(7, 11, rng.CHANCE, 6, 2, 3, ident[pile[:n].astype(np.int64)])
        want = pile[:n][np.argsort(~keys, kind="stable")]      # piles.shuffled's order: top last
        stack = np.full(70, -1, np.int16)
        before = pile.copy()
        shuffle_into(pile, n, stack, np.uint64(prefix), ident, np.empty(70, np.uint64))
        assert stack[:n].tolist() == want.tolist()
        assert (stack[n:] == -1).all() and (pile[:n] == -1).all() and (pile[n:] == before[n:]).all()
