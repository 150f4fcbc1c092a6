"""Every game's script bot with a fallback (`script:then=BASE`, the rollout bot's forcing
bot): both engine faces play the script, then the base bot, alike. The fallbacks and a
first decision to script are the game's facts (tests/data/games/<game>.toml). The default
tier checks each game's default bot as the fallback; `slow` checks every other fallback."""
import numpy as np
import pytest

from simcore.errors import UserError
from simcore.games import get_game
from strategies.registry import Bot, make_bots

from .kit import facts, games_with, outcome_row

GAMES = games_with("script_then")


def game_bases() -> list:
    """(game, base) for every fallback; the default bot's in the default tier, the rest slow."""
    out = []
    for game in GAMES:
        for base in facts(game)["script_then"]["fallbacks"]:
            marks = () if base == get_game(game).default_bot else (pytest.mark.slow,)
            out.append(pytest.param(game, base, marks=marks, id=f"{game}-{base}"))
    return out


def _script(game: str, base: str, choices=()) -> Bot:
    return Bot(game, f"script:then={base}", (("choices", tuple(choices)), ("then", base)), "script")


@pytest.mark.parametrize("game, base", game_bases())
def test_empty_script_then_base_plays_as_the_base(game, base):
    g = get_game(game)
    rs = g.data.load()
    plain = g.play_batch(rs, 4, make_bots(game, base, 4), 3, np.arange(20))
    forced = g.play_batch(rs, 4, [_script(game, base)] + list(make_bots(game, base, 3)), 3, np.arange(20))
    assert all(outcome_row(plain, k) == outcome_row(forced, k) for k in range(20))


@pytest.mark.parametrize("game, base", game_bases())
def test_script_then_base_engines_agree_and_the_script_changes_the_game(game, base):
    """Every game of the batch replays its own copy of the choices, then plays as the base:
    the same as the reference engine, and as a batch of that game alone."""
    g = get_game(game)
    rs = g.data.load()
    fact = facts(game)["script_then"]
    bots = [_script(game, base, fact["choices"])] + list(make_bots(game, base, 3))
    batch = g.play_batch(rs, 4, bots, 3, np.arange(12))
    for k in range(12):
        assert outcome_row(g.play_one(rs, 4, bots, 3, k)) == outcome_row(batch, k), f"game {k}"
        assert outcome_row(g.play_batch(rs, 4, bots, 3, [k]), 0) == outcome_row(batch, k), f"game {k} alone"
    plain = g.play_batch(rs, 4, make_bots(game, base, 4), 3, np.arange(12))
    changed = sum(outcome_row(plain, k) != outcome_row(batch, k) for k in range(12))
    assert changed >= fact["changed_at_least"], changed


@pytest.mark.parametrize("game", GAMES)
def test_script_falls_back_only_to_known_bots(game):
    rs = get_game(game).data.load()
    known = ", ".join(facts(game)["script_then"]["fallbacks"])
    with pytest.raises(UserError, match=f"falls back to one of {known}, got then='silly'"):
        make_bots(game, "script:then=silly", 4)[0].batch_policy(rs)


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in GAMES if "trained" in facts(g)["script_then"]["fallbacks"]])
def test_script_then_trained_plays_the_trained_weights_not_greedys(game):
    """The fallback carries its bot's own weights (trained.toml), on both faces: a seat that
    falls back to trained plays other games than one that falls back to greedy."""
    g = get_game(game)
    rs = g.data.load()
    games = np.arange(40)

    def play(first):
        return g.play_batch(rs, 4, make_bots(game, [first] + ["greedy"] * 3, 4), 5, games)

    as_greedy, as_trained, trained = play("script:then=greedy"), play("script:then=trained"), play("trained")
    assert all(outcome_row(trained, k) == outcome_row(as_trained, k) for k in games)
    assert any(outcome_row(as_greedy, k) != outcome_row(as_trained, k) for k in games)
