"""Capybara's greedy+favor:CARD / greedy+avoid:CARD on constructed decisions,
reference form (the compiled form makes the same choices: tests/games/test_engines_agree.py)."""
from __future__ import annotations

from types import SimpleNamespace as NS

from simcore.games import get_game
from strategies.capybara import restricted as R

RS = get_game("capybara").data.load()
NAMES = ["Capybara", "Capybarin", "Capybaranka"]
# uid -> name: 0, 1 Capybara; 2 Capybarin; 3, 4 Capybaranka
COMPS = NS(names=NAMES, card_name=["Capybara", "Capybara", "Capybarin", "Capybaranka", "Capybaranka"],
           card_effect=["place", "place", "lock", "cancel", "cancel"])


def _bot(mode, name, monkeypatch, scores=None, now=0):
    bot = R.RestrictedGreedyBot(RS, mode, NAMES.index(name))
    if scores is not None:
        monkeypatch.setattr(bot, "best_card", lambda view, board, s, u: scores[u])
        monkeypatch.setattr(bot, "action_scores", lambda d, view: [scores[u] if v == "play" else 50 for v, u in d.options])
        monkeypatch.setattr(R, "E", lambda board, s: now)
    return bot


VIEW = NS(comps=COMPS, board=lambda: None, hands=[[0, 2, 3, 4], [1]], P=2)


def test_action_plays_a_favoured_card_even_when_worse_and_never_an_avoided_one(monkeypatch):
    d = NS(kind="ACTION", seat=0, options=[("play", 0), ("play", 2), ("discard", 0), ("discard", 2)], info={})
    scores = {0: -10, 2: 5}                                   # lower is better: playing uid 0 is greedy's choice
    assert _bot("favor", "Capybarin", monkeypatch, scores).choose(d, VIEW) == 1
    assert _bot("avoid", "Capybara", monkeypatch, scores).choose(d, VIEW) == 1    # 5 < discards' 50
    assert _bot("favor", "Capybaranka", monkeypatch, scores).choose(d, VIEW) == 0  # no option plays one


def test_next_card_must_play_a_favoured_card_and_skips_an_avoided_one(monkeypatch):
    d = NS(kind="NEXT_CARD", seat=0, options=[None, 0, 2], info={})
    scores = {0: -3, 2: 4}                                     # uid 0 beats the board now (0), uid 2 does not
    assert _bot("favor", "Capybarin", monkeypatch, scores).choose(d, VIEW) == 2   # plays it though worse than stopping
    assert _bot("avoid", "Capybara", monkeypatch, scores).choose(d, VIEW) == 0    # stops rather than play uid 0
    assert _bot("avoid", "Capybarin", monkeypatch, scores).choose(d, VIEW) == 1   # plain choice


def test_cancel_answers_with_a_favoured_capybaranka_and_never_with_an_avoided_one(monkeypatch):
    d = NS(kind="CANCEL", seat=0, options=[0, 1], info={"depth": 0, "base": {"option": None}})
    assert _bot("favor", "Capybaranka", monkeypatch).choose(d, VIEW) == 1
    assert _bot("avoid", "Capybaranka", monkeypatch).choose(d, VIEW) == 0
