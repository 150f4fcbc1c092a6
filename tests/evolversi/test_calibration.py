"""The default data is calibrated: four greedy bots finish in 8-15 rounds and no
animal wins more than 30% of four-player games. Measured with the tool itself."""
from reports.measures.metrics import point_summary
from simcore.games.evolversi.schema import GAME_DATA
from experiments.api import simulate


def test_default_four_player_greedy_games_last_8_to_15_rounds_and_no_animal_wins_over_30_percent():
    rs = GAME_DATA.load()
    res = simulate(rs, "greedy", players=4, games=20_000, seed=2026, batch_size=10_000)
    d = point_summary(res.games)
    assert 8 <= d["mean_rounds"] <= 15, d["mean_rounds"]
    worst = max(d["factions"], key=lambda r: r["win_rate"])
    assert worst["ci_high"] < 0.30, worst
    assert d["end_reasons"] == {"track": 20_000}
