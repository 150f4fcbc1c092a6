"""Every game: the batch engine and the reference engine play the same games, game by game."""
import numpy as np
import pytest

from simcore.games import GAMES, get_game
from strategies.registry import make_bots

from .kit import (assert_engines_agree, batch_rows, default_bots, four_or_nearest, game_variant_counts, mixed_bots,
                  outcome_row, player_counts, restricted_lineups, weights_lineup)

# games per player count: the default data; a variant changes a few rules, so fewer. The
# soak tier plays the same seeds on to SOAK_GAMES_PER_COUNT (the first games are these).
GAMES_PER_COUNT = {"default": 500, "variant": 150}
SOAK_GAMES_PER_COUNT = {"default": 2000, "variant": 500}


def _mixed_agree(game, variant, players, per_count):
    n = per_count["default" if variant == "default" else "variant"]
    assert_engines_agree(game, variant, players, mixed_bots(game, players), seed=100 + players,
                         games=range(n))


@pytest.mark.parametrize("game,variant,players", game_variant_counts())
def test_engines_agree_on_seeded_games_for_every_player_count(game, variant, players):
    """Every registered bot at the table (mixed_bots), 500 games per player count (150 for a variant)."""
    _mixed_agree(game, variant, players, GAMES_PER_COUNT)


@pytest.mark.soak
@pytest.mark.parametrize("game,variant,players", game_variant_counts())
def test_engines_agree_on_2000_seeded_games_for_every_player_count(game, variant, players):
    """Opt-in soak: the same line-ups and seeds, 2,000 games per player count (500 for a variant)."""
    _mixed_agree(game, variant, players, SOAK_GAMES_PER_COUNT)


@pytest.mark.parametrize("game", GAMES)
def test_engines_agree_with_the_default_bot_in_every_seat(game):
    players = four_or_nearest(game)
    assert_engines_agree(game, "default", players, default_bots(game, players), seed=7, games=range(500))


@pytest.mark.parametrize("game", GAMES)
def test_engines_agree_with_bots_that_favour_or_avoid_each_entity(game):
    """Restricted play: seat 0 favours entity i, seat 1 avoids entity i + 1, for
    every entity; both engines make the same choices (about 600 games per game)."""
    players = four_or_nearest(game)
    lineups = restricted_lineups(game, players)
    assert lineups, f"{game}'s default bot takes no +favor/+avoid (docs/restricted-play.md)"
    per = max(12, 600 // len(lineups))
    for k, bots in enumerate(lineups):
        assert_engines_agree(game, "default", players, bots, seed=40 + k, games=range(per))


@pytest.mark.parametrize("game", GAMES)
def test_engines_agree_with_a_weights_file_that_moves_every_weight(game):
    """`greedy:weights=FILE` (tests/data/weights/<game>.toml) is read by both faces:
    the engines make the same choices with non-default weights, alone and with +favor."""
    players = four_or_nearest(game)
    bots = weights_lineup(game, players)
    if bots is None:
        pytest.skip(f"{game}'s default bot takes no weights file (or tests/data/weights has none)")
    assert_engines_agree(game, "default", players, bots, seed=61, games=range(500))
    g = get_game(game)
    rs = g.data.load("default")
    moved = g.play_batch(rs, players, bots, 61, np.arange(500))["score"]
    plain = g.play_batch(rs, players, default_bots(game, players), 61, np.arange(500))["score"]
    assert (np.asarray(moved) != np.asarray(plain)).any(), "the test weights file changed no game"


AGREE_BLOCK = 2500


def _agree_block(game, players, seed, start):
    # random bots in every seat: the widest spread of positions for the least reference time
    # (the default run covers every bot at the table on 2,000 games per player count)
    bots = make_bots(game, "random", players)
    assert_engines_agree(game, "default", players, bots, seed, range(start, start + AGREE_BLOCK))


def _agree_over_player_counts(game, total):
    """`total` seeded games spread over the player counts, checked in 2 processes."""
    from joblib import Parallel, delayed
    counts = player_counts(game)
    per_count = -(-total // len(counts))
    blocks = [(p, s) for p in counts for s in range(0, per_count, AGREE_BLOCK)]
    Parallel(n_jobs=2)(delayed(_agree_block)(game, p, 1000 + p, s) for p, s in blocks)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_engines_agree_on_20000_games(game):
    """CI's slow stage: 20,000 random-bot games per game over every player count."""
    _agree_over_player_counts(game, 20_000)


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_engines_agree_on_100000_games(game):
    """Opt-in soak (`pytest -m soak`): 100,000 games per game (the slow stage's games among
    them: the same seeds, from game 0)."""
    _agree_over_player_counts(game, 100_000)


NO_EFFECT_GAMES = [g for g in GAMES if "no_effect_plays" in get_game(g).data.load().params]


@pytest.mark.parametrize("game", NO_EFFECT_GAMES)
def test_engines_agree_when_no_effect_plays_are_forbidden(game):
    """`no_effect_plays = forbidden` removes options in both engines alike (random bots take
    whatever is offered, so a card offered by one engine only shows as a different game)."""
    players = four_or_nearest(game)
    assert_engines_agree(game, "default", players, mixed_bots(game, players), seed=11, games=range(300),
                         overrides={"no_effect_plays": "forbidden"})


@pytest.mark.parametrize("game", NO_EFFECT_GAMES)
def test_forbidding_no_effect_plays_changes_games_of_random_bots(game):
    """The parameter reaches both engines: some seeded games of random bots differ."""
    g = get_game(game)
    players = four_or_nearest(game)
    bots = make_bots(game, "random", players)
    for engine in ("batch", "reference"):
        outs = []
        for value in ("allowed", "forbidden"):
            rs = g.data.load("default", overrides={"no_effect_plays": value})
            if engine == "batch":
                outs.append(batch_rows(g.play_batch(rs, players, bots, 5, np.arange(60))))
            else:
                outs.append([outcome_row(g.play_one(rs, players, bots, 5, k)) for k in range(60)])
        assert outs[0] != outs[1], f"{game} {engine}: no_effect_plays changed none of 60 games"
