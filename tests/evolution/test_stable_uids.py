"""Stable card identities: a card's uid is made of its design (trait, food value)
and its copy index, never of its row's position, so removing one design leaves every other
card's uid, and so its place relative to the others in every shuffle, unchanged."""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from simcore.games.evolution import reference as ref
from simcore.games.evolution import rules as R
from simcore.games.evolution.adapter import GAME
from simcore.games.evolution.schema import DATA_DIR, compile_rules
from simcore.games.evolution.state import to_game


def _write(rows, header, folder: Path) -> Path:
    with open(folder / "cards.csv", "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    return folder


def _table():
    with open(DATA_DIR / "cards.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def _designs(cards):
    return {int(u): (int(k), int(f)) for k, f, u in zip(cards.kind, cards.food, cards.uid)}


def _decks(rs, seed, games):
    """Each game's deck after setup, as card uids, from both engines."""
    rules, cards = compile_rules(rs)
    out = {}
    E = R.Engine(rules, cards)
    st = R.new_batch(E, 4, seed, np.asarray(games))
    for b, k in enumerate(games):
        g = ref.new_game(rules, cards, 4, seed, k)
        batch = to_game(st, b, g).deck
        assert batch == g.deck, k
        out[k] = [int(cards.uid[c]) for c in g.deck]
    return out


@pytest.mark.parametrize("drop", [("fertile", "4"), ("carnivore", "3"), ("ambush", "-3")])
def test_removing_one_design_changes_no_other_cards_uid_or_relative_shuffle_order(tmp_path, drop):
    header, rows = _table()
    kept = [r for r in rows if not (r[0] == "north_star" and (r[1], r[2]) == drop)]
    assert len(kept) == len(rows) - 1
    full = GAME.data.load()
    less = GAME.data.load(data_dir=_write(kept, header, tmp_path))
    a, b = _designs(compile_rules(full)[1]), _designs(compile_rules(less)[1])
    assert set(b) < set(a) and all(a[u] == b[u] for u in b)
    gone = set(a) - set(b)
    assert {a[u][1] for u in gone} == {int(drop[1])}
    for k, deck in _decks(less, 7, [0, 1, 2]).items():
        full_deck = _decks(full, 7, [k])[k]
        assert deck == [u for u in full_deck if u not in gone], k


def test_copies_of_one_design_have_their_own_uids():
    _, cards = compile_rules(GAME.data.load())
    assert len(set(cards.uid.tolist())) == cards.n
