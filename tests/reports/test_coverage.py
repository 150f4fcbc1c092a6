"""Coverage: per bot, the share of its seat-games in which it acquired each entity."""
from __future__ import annotations

import polars as pl

from experiments import api, cli
from reports.measures.coverage import coverage, coverage_summary, coverage_text
from simcore.games import get_game


def _games(n: int) -> pl.DataFrame:
    # Two seats: seat 0 plays "keen", seat 1 plays "picky", n games at point 0.
    return pl.DataFrame({"point": [0] * n, "s0_bot": ["keen"] * n, "s1_bot": ["picky"] * n})


def _tallies(rows) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={"point": pl.Int32, "seat": pl.Int8, "entity": pl.Utf8, "games": pl.Int64},
                        orient="row")


def test_shares_count_each_bots_seat_games_and_flag_never_and_rare():
    tallies = _tallies([(0, 0, "Axe", 500), (0, 0, "Bow", 3), (0, 1, "Axe", 40), (0, 1, "Bow", 200)])
    cov = coverage(_games(1000), tallies, ["Axe", "Bow", "Cup", "Dart"])
    keen = {r["entity"]: r for r in cov.filter(pl.col("bot") == "keen").iter_rows(named=True)}
    assert keen["Axe"]["share"] == 0.5 and keen["Axe"]["level"] == ""
    assert keen["Bow"]["share"] == 0.003 and keen["Bow"]["level"] == "rare"
    assert keen["Cup"]["used"] == 0 and keen["Cup"]["level"] == "never"
    assert all(r["seat_games"] == 1000 for r in keen.values())
    summary = {s["bot"]: s for s in coverage_summary(cov)}
    # Cup and Dart: no seat acquired them, so they are not any bot's gap.
    assert summary["keen"]["unused"] == ["Cup", "Dart"] and summary["keen"]["never"] == []
    assert summary["keen"]["rare"] == [("Bow", 0.003)] and summary["keen"]["covered"] == 1
    assert summary["picky"]["covered"] == 2
    text = "\n".join(coverage_text(cov, "card"))
    assert "keen rarely (< 1%) uses: Bow (0.30%)" in text and "warning: no seat acquired 2 cards in any game: Cup, Dart" in text


def test_a_bot_on_several_seats_pools_its_seats():
    games = pl.DataFrame({"point": [0] * 10, "s0_bot": ["g"] * 10, "s1_bot": ["g"] * 10, "s2_bot": ["r"] * 10})
    tallies = _tallies([(0, 0, "Axe", 4), (0, 1, "Axe", 6), (0, 2, "Axe", 1)])
    cov = coverage(games, tallies, ["Axe"])
    g = cov.filter(pl.col("bot") == "g").to_dicts()[0]
    assert (g["seat_games"], g["used"], g["share"]) == (20, 10, 0.5)


def test_coverage_of_a_small_real_run_matches_its_tallies():
    rs = get_game("evolversi").data.load()
    res = api.simulate(rs, "greedy,random,greedy,random", players=4, games=300, seed=3)
    cov = api.coverage(res, get_game("evolversi").entities(rs))
    assert set(cov["entity"]) == set(get_game("evolversi").entities(rs))
    greedy_used = cov.filter(pl.col("bot") == "greedy")["used"].sum()
    assert greedy_used == res.tallies.filter(pl.col("seat").is_in([0, 2]))["games"].sum()
    assert (cov["used"] <= cov["seat_games"]).all() and (cov["seat_games"] == 600).all()


def test_run_prints_coverage_and_the_report_has_its_table(tmp_path, capsys):
    out = tmp_path / "run"
    assert cli.main(["run", "evolversi", "--games", "200", "--bots", "greedy,random,random,random",
                     "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "card coverage" in text and "greedy:" in text and "random:" in text
    assert api.coverage(out).filter(pl.col("level") == "never").height >= 1     # starting cards are never bought
    assert cli.main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="coverage-table"' in html and "bot greedy" in html
