"""Evolution's script bots with a fallback (`script:then=greedy|trained|random`, the rollout bot's
forcing bot): both engine faces play the script, then the base bot, alike."""
import numpy as np
import pytest

from simcore.errors import UserError
from simcore.games import get_game
from strategies.registry import Bot, make_bots
from tests.games.kit import outcome_row

G = get_game("evolution")
RS = G.data.load()


@pytest.mark.parametrize("base", ["greedy", "trained", "random"])
def test_empty_script_then_base_plays_as_the_base(base):
    plain = G.play_batch(RS, 4, make_bots("evolution", base, 4), 3, np.arange(20))
    forced = G.play_batch(RS, 4, make_bots("evolution", [f"script:then={base}"] + [base] * 3, 4), 3,
                          np.arange(20))
    assert all(outcome_row(plain, k) == outcome_row(forced, k) for k in range(20))


@pytest.mark.parametrize("base", ["greedy", "trained", "random"])
def test_script_then_base_engines_agree_and_the_script_changes_the_game(base):
    # option 0 is always legal (forgoing where allowed); a food card index is clipped
    choices = ({"kind": "food_card", "option": 2}, {"kind": "feed", "option": 0},
               {"kind": "feed", "option": 0})
    bots = [Bot("evolution", f"script:then={base}", (("choices", choices), ("then", base)), "script")] \
        + list(make_bots("evolution", base, 3))
    batch = G.play_batch(RS, 4, bots, 3, np.arange(12))
    for k in range(12):             # each game plays the script (a script's place is per game)
        assert outcome_row(G.play_one(RS, 4, bots, 3, k)) == outcome_row(batch, k)
        assert outcome_row(G.play_batch(RS, 4, bots, 3, [k]), 0) == outcome_row(batch, k)
    plain = G.play_batch(RS, 4, make_bots("evolution", base, 4), 3, np.arange(12))
    assert any(outcome_row(plain, k) != outcome_row(batch, k) for k in range(12))


def test_script_falls_back_only_to_known_bots():
    with pytest.raises(UserError, match="falls back to one of greedy, trained, random"):
        make_bots("evolution", "script:then=silly", 4)[0].batch_policy(RS)


def test_script_then_trained_plays_the_trained_weights_not_greedys():
    """The fallback carries its bot's own weights (trained.toml), on both faces: a seat that
    falls back to trained plays other games than one that falls back to greedy."""
    games = np.arange(40)
    as_greedy = G.play_batch(RS, 4, make_bots("evolution", ["script:then=greedy"] + ["greedy"] * 3, 4), 5, games)
    as_trained = G.play_batch(RS, 4, make_bots("evolution", ["script:then=trained"] + ["greedy"] * 3, 4), 5, games)
    trained = G.play_batch(RS, 4, make_bots("evolution", ["trained"] + ["greedy"] * 3, 4), 5, games)
    assert all(outcome_row(trained, k) == outcome_row(as_trained, k) for k in games)
    assert any(outcome_row(as_greedy, k) != outcome_row(as_trained, k) for k in games)
