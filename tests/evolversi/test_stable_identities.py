"""Stable identities: a shuffle hashes what a card is (its owner animal, name and
copy index), never its row in cards.csv, so removing or reordering rows leaves every other
card's shuffle key, and so its place relative to the other cards, unchanged."""
import csv
from pathlib import Path

import numpy as np
import pytest

from evolversi_kit import play_batch, play_one, new_game
from simcore.games.evolversi.components import components
from simcore.games.evolversi.schema import GAME_DATA

RS = GAME_DATA.load()
EVOLUTION_ROWS = [r["name"] for r in RS.tables["cards"] if r["deck"] == "evolution" and r["module"] == "base"]


def _write_cards(folder: Path, keep) -> Path:
    """A data folder whose cards.csv holds the built-in rows `keep(rows)` returns."""
    with open(GAME_DATA.data_dir / "cards.csv", newline="", encoding="utf-8") as fh:
        header, *rows = list(csv.reader(fh))
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([header, *keep(rows)])
    return folder


def _idents(rs, players):
    """(owner, name, copy) -> identity of every card in play."""
    comps = components(rs, players)
    out, seen = {}, {}
    for uid, row in enumerate(comps.card_row):
        r = rs.tables["cards"][row]
        owner = r["animal"] if r["deck"] == "starting" else ""
        copy = seen.get((owner, r["name"]), 0)
        seen[(owner, r["name"])] = copy + 1
        out[(owner, r["name"], copy)] = comps.card_ident[uid]
    return out


@pytest.mark.parametrize("removed", EVOLUTION_ROWS)
def test_removing_one_card_design_changes_no_other_cards_identity(tmp_path, removed):
    rs = GAME_DATA.load(data_dir=_write_cards(tmp_path, lambda rows: [r for r in rows if r[0] != removed]))
    base, less = _idents(RS, 4), _idents(rs, 4)
    assert set(less) == {k for k in base if k[1] != removed}
    assert all(less[k] == base[k] for k in less)


@pytest.mark.parametrize("removed", ["Rapina", "Sonar", "Furia Primordiale"])
def test_removing_a_card_keeps_the_other_cards_in_the_same_relative_order_in_the_deck(tmp_path, removed):
    rs = GAME_DATA.load(data_dir=_write_cards(tmp_path, lambda rows: [r for r in rows if r[0] != removed]))
    for game in range(20):
        decks = []
        for ruleset in (RS, rs):
            g = new_game(ruleset, 4, "random", 7, game)
            # the set-up market (slot 0 first) was dealt off the top of the shuffled deck
            dealt = [u for u in g.market if u is not None] + g.evolution_deck
            decks.append([g.cname(u) for u in dealt])
        base, less = decks
        assert less == [n for n in base if n != removed]


def test_both_engines_agree_on_a_ruleset_with_a_card_removed(tmp_path):
    rs = GAME_DATA.load(data_dir=_write_cards(tmp_path, lambda rows: [r for r in rows if r[0] != "Scambio"]))
    bots = ["greedy", "random", "random", "greedy"]
    batch = play_batch(rs, 4, bots, 11, np.arange(25))
    for k in range(25):
        ref = play_one(rs, 4, bots, 11, k)
        assert batch["position"][k].tolist() == ref["position"] and batch["rounds"][k] == ref["rounds"], k
        assert batch["bought"][k].tolist() == ref["bought"], k
