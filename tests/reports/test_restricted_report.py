"""The "Restricted play" table: per entity, the favouring and the avoiding agent's
win rates and their paired differences to the plain agent in the same seats and games."""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from experiments import cli
from experiments.store import open_run
from experiments.sweep import run_sweep
from reports.measures.restricted import markdown, parse_seat, restricted_play

P = 4


def _synthetic(n_games: int, winner_of) -> tuple[pl.DataFrame, list[dict]]:
    """Points: all-greedy reference, then favor/avoid of A and B at every seat; winner_of(spec,
    seat, game) -> the seat that wins game `game` at that point."""
    lineups = [["greedy"] * P]
    for e in ("A", "B"):
        for mod in ("favor", "avoid"):
            for s in range(P):
                lineups.append(["greedy"] * P)
                lineups[-1][s] = f"greedy+{mod}:{e}"
    points, frames = [], []
    for i, bots in enumerate(lineups):
        points.append({"index": i, "labels": {"players": str(P), "bots": ",".join(bots)}, "bots": bots})
        win = np.array([winner_of(bots, g) for g in range(n_games)])
        frames.append(pl.DataFrame({"point": [i] * n_games, "game": np.arange(n_games),
                                    **{f"s{s}_share": (win == s).astype(float) for s in range(P)}}))
    return pl.concat(frames), points


def _base_winner(g: int) -> int:
    return int(np.random.default_rng([7, g]).integers(P))       # the plain table: fair, per game


def test_a_planted_dominant_entity_is_flagged_and_an_unchanged_one_is_not():
    def winner_of(bots, g):
        mod = [b for b in bots if "+" in b]
        if mod == ["greedy+favor:A"] and g % 2 == 0:     # favouring A wins every other game outright
            return bots.index(mod[0])
        return _base_winner(g)
    games, points = _synthetic(800, winner_of)
    df = restricted_play(games, points)
    row = {(r["entity"], r["modifier"]): r for r in df.iter_rows(named=True)}
    fa = row[("A", "favor")]
    assert fa["flag"] == "dominant" and fa["diff_lo"] > 0 and fa["rate_lo"] > 1 / P
    assert fa["games"] == 800 and fa["seat_games"] == 800 * P and fa["seats"] == P
    assert abs(fa["rate"] - (0.5 + 0.5 * 0.25)) < 0.03          # half the games won, plus a fair share of the rest
    for key in (("A", "avoid"), ("B", "favor"), ("B", "avoid")):
        assert row[key]["diff"] == 0 and row[key]["flag"] == "", key   # same games, same results: paired to 0


def test_avoiding_an_entity_that_wins_more_is_a_trap_and_one_that_loses_is_needed():
    def winner_of(bots, g):
        mod = [b for b in bots if "+" in b]
        if mod == ["greedy+avoid:A"] and g % 3 == 0:
            return bots.index(mod[0])
        if mod == ["greedy+avoid:B"] and _base_winner(g) == bots.index(mod[0]):
            return (bots.index(mod[0]) + 1) % P                  # it never wins
        return _base_winner(g)
    games, points = _synthetic(600, winner_of)
    row = {(r["entity"], r["modifier"]): r for r in restricted_play(games, points).iter_rows(named=True)}
    assert row[("A", "avoid")]["flag"] == "trap"
    assert row[("B", "avoid")]["flag"] == "needed" and row[("B", "avoid")]["rate"] == 0


def test_the_interval_treats_games_not_seat_games_as_the_independent_units():
    def winner_of(bots, g):
        mod = [b for b in bots if "+" in b]
        w = _base_winner(g)
        if mod == ["greedy+favor:A"] and g % 10 == 0 and w != bots.index(mod[0]):
            return bots.index(mod[0])                            # steals 1 game in 10 (when it was lost)
        return w
    games, points = _synthetic(1000, winner_of)
    fa = [r for r in restricted_play(games, points).iter_rows(named=True) if r["modifier"] == "favor"
          and r["entity"] == "A"][0]
    # by hand: per game, the four rotated seats' differences to plain greedy, averaged
    ref = games.filter(pl.col("point") == 0).sort("game")
    per_game = np.zeros(1000)
    for p in points[1:5]:
        s = p["bots"].index("greedy+favor:A")
        mine = games.filter(pl.col("point") == p["index"]).sort("game")
        per_game += (mine[f"s{s}_share"] - ref[f"s{s}_share"]).to_numpy() / 4
    half = 1.959964 * per_game.std(ddof=1) / np.sqrt(1000)
    assert fa["diff"] == pytest.approx(per_game.mean())
    assert (fa["diff_lo"], fa["diff_hi"]) == pytest.approx((per_game.mean() - half, per_game.mean() + half))
    assert fa["diff_lo"] > 0


def test_seat_specs_parse_to_base_modifier_and_entity():
    assert parse_seat("greedy+favor:fat-tissue") == ("greedy", "favor", "fat-tissue")
    assert parse_seat("greedy+avoid:Falso Pollice") == ("greedy", "avoid", "Falso Pollice")
    assert parse_seat("greedy") is None and parse_seat("greedy+other:x") is None


def test_the_markdown_table_names_the_field_bot_and_the_game_counts():
    games, points = _synthetic(50, lambda bots, g: _base_winner(g))
    text = markdown(restricted_play(games, points), "card")
    assert "Field: `greedy` in every other seat, 4 players" in text and "50 games per point" in text
    assert "| card | `greedy+favor` wins [95%]" in text and "\n| A |" in text and "\n| B |" in text


RESTRICTED = """
name = "restricted-small"
ruleset = "capybara"
players = 4
games = 40
seed = 5
batch_size = 40
[restricted]
entities = ["Capybaranka", "Capybarin"]
"""


@pytest.fixture(scope="module")
def restricted_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("restricted")
    (folder / "r.toml").write_text(RESTRICTED)
    return open_run(run_sweep(folder / "r.toml", folder / "run", jobs=1))


def test_a_restricted_sweep_report_has_the_restricted_play_table(restricted_run, tmp_path):
    out = tmp_path / "report.html"
    assert cli.main(["report", str(restricted_run.path), "--out", str(out)]) == 0
    html = out.read_text()
    assert 'id="restricted"' in html and "Field: greedy in every other seat" in html
    assert "restricted-table-1" in html and "Capybaranka" in html and "Capybarin" in html
    df = restricted_play(restricted_run.games(), restricted_run.points)
    assert set(df["entity"]) == {"Capybarin", "Capybaranka"} and set(df["games"]) == {40}
    assert set(df["seat_games"]) == {160}


def test_the_shipped_evolution_config_sweeps_all_17_traits_and_reports_them(tmp_path):
    """the must-show, on a small game count: the shipped config, 8 games per point."""
    import re
    from pathlib import Path
    shipped = Path(__file__).resolve().parents[2] / "experiments" / "configs" / "evolution_restricted.toml"
    text = re.sub(r"(?m)^games = \d+$", "games = 8", shipped.read_text())
    text = re.sub(r"(?m)^batch_size = \d+$", "batch_size = 8", text)
    (tmp_path / "evolution_restricted.toml").write_text(text)
    run = open_run(run_sweep(tmp_path / "evolution_restricted.toml", tmp_path / "run", jobs=1))
    assert len(run.points) == 1 + 17 * 2 * 4
    df = restricted_play(run.games(), run.points)
    assert df["entity"].n_unique() == 17 and set(df["modifier"]) == {"favor", "avoid"}
    assert set(df["seat_games"]) == {8 * 4}
    out = tmp_path / "report.html"
    assert cli.main(["report", str(run.path), "--out", str(out)]) == 0
    html = out.read_text()
    assert 'id="restricted"' in html and "fertile" in html and "warning-call" in html
