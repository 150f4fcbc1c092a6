"""Capybara's script bots with a fallback (`script:then=greedy|trained|random`, the rollout bot's
forcing bot): both engine faces play the script, then the base bot, alike."""
import numpy as np
import pytest

from simcore.games import get_game
from simcore.errors import UserError
from strategies.registry import make_bots
from tests.games.kit import outcome_row

G = get_game("capybara")
RS = G.data.load()


@pytest.mark.parametrize("base", ["greedy", "trained", "random"])
def test_empty_script_then_base_plays_as_the_base(base):
    plain = G.play_batch(RS, 4, make_bots("capybara", base, 4), 3, np.arange(30))
    forced = G.play_batch(RS, 4, make_bots("capybara", [f"script:then={base}"] + [base] * 3, 4), 3, np.arange(30))
    assert all(outcome_row(plain, k) == outcome_row(forced, k) for k in range(30))


@pytest.mark.parametrize("base", ["greedy", "trained", "random"])
def test_script_then_base_engines_agree_and_the_script_changes_the_game(base):
    from strategies.registry import Bot
    choices = ({"kind": "opening", "option": 1},)
    bots = [Bot("capybara", f"script:then={base}", (("choices", choices), ("then", base)), "script")] \
        + list(make_bots("capybara", base, 3))
    batch = G.play_batch(RS, 4, bots, 3, np.arange(12))
    for k in range(12):
        assert outcome_row(G.play_one(RS, 4, bots, 3, k)) == outcome_row(batch, k)
    plain = G.play_batch(RS, 4, make_bots("capybara", base, 4), 3, np.arange(12))
    assert any(outcome_row(plain, k) != outcome_row(batch, k) for k in range(12))


def test_script_falls_back_only_to_known_bots():
    with pytest.raises(UserError, match="falls back to one of greedy, trained, random"):
        make_bots("capybara", "script:then=rollout", 4)[0].batch_policy(RS)


def test_script_then_trained_plays_the_trained_weights_not_greedys():
    """The fallback carries its bot's own weights (trained.toml), on both faces: a seat that
    falls back to trained plays other games than one that falls back to greedy."""
    games = np.arange(60)
    as_greedy = G.play_batch(RS, 4, make_bots("capybara", ["script:then=greedy"] + ["greedy"] * 3, 4), 5, games)
    as_trained = G.play_batch(RS, 4, make_bots("capybara", ["script:then=trained"] + ["greedy"] * 3, 4), 5, games)
    trained = G.play_batch(RS, 4, make_bots("capybara", ["trained"] + ["greedy"] * 3, 4), 5, games)
    assert all(outcome_row(trained, k) == outcome_row(as_trained, k) for k in games)
    assert any(outcome_row(as_greedy, k) != outcome_row(as_trained, k) for k in games)
