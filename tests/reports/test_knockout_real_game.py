"""A knockout sweep on a real game: the same games with one entity's effect switched off.

The report must call the knockout causal because its pairing holds (the games in which
nobody acquired the entity come out identical, or, for an entity in nearly every game, by
design and labelled unchecked), show in how many games it mattered, and a knockout of an
entity the bots rarely use must leave at least 90% of the games identical. A game runs here
once its adapter declares a knockout for the kind it tallies (GAME.knockout_targets).
"""
from __future__ import annotations

import pytest

from reports.page.html import build_context
from simcore.games import get_game

# game -> (bots, an entity the bots acquire often, one they rarely use or None)
GAMES = {
    "capybara": ("greedy", "Capybaranka", None),
    "evolution": ("greedy", "fertile", "ambush"),       # greedy never plays Ambush
}


def config(game: str) -> str:
    bots, used, rare = GAMES[game]
    entities = ", ".join(f'"{e}"' for e in (used, rare) if e)
    return f"""
ruleset = "{game}"
players = 4
bots = "{bots}"
games = 400
seed = 8
batch_size = 400

[ablation]
entities = [{entities}]
"""


@pytest.fixture(scope="module", params=sorted(GAMES))
def knocked(request, built_once):
    game = get_game(request.param)
    if game.entity_kind not in (getattr(game, "knockout_targets", None) or {}):
        pytest.skip(f"{request.param} has no knockout for its {game.entity_kind}s in this build yet")
    from experiments.store import open_run
    from experiments.sweep import run_sweep

    def make(folder):
        (folder / "c.toml").write_text(config(request.param))
        run_sweep(folder / "c.toml", folder / "run", jobs=1)
    run = open_run(built_once(f"ko-{request.param}", make) / "run")
    return request.param, run, build_context(run.manifest, run.games(), run.tallies())


def test_a_knockout_keeps_every_game_it_plays_no_part_in_and_is_called_causal(knocked):
    game, run, ctx = knocked
    _, used, _ = GAMES[game]
    r = next(r for r in ctx["ablation"] if r["entity"] == used)
    assert r["kind"] == "knockout" and r["holds"] and r["label"].startswith("causal")
    if r["unused_games"] >= 30:                    # enough games without it to check the pairing
        assert r["identical_unused"] >= 0.99
    assert 0 < r["changed"] <= 1                   # it mattered in some games
    assert all("not a causal estimate" not in f["text"] for f in ctx["findings"] if used in f["text"])
    assert {p["ablation_kind"] for p in run.points if p.get("ablated")} == {"knockout"}


def test_a_knockout_of_a_rarely_used_entity_leaves_nine_games_in_ten_identical(knocked):
    game, _, ctx = knocked
    _, _, rare = GAMES[game]
    if rare is None:
        pytest.skip(f"every {game} entity is used in most games by these bots")
    r = next(r for r in ctx["ablation"] if r["entity"] == rare)
    assert r["identical"] >= 0.9 and r["holds"]
