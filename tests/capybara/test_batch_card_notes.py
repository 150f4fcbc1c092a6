"""Card notes, symbols and the 20-token limit on the batch engine, each on a constructed
state played for one turn with scripted choices (contract 5, 6, 7.4)."""
from __future__ import annotations

import pytest

from simcore.errors import UserError

from .batch_kit import ruleset
from .test_batch_scenarios import matches

Z = [0, 0, 0, 0]


def state(hands, slots=None, **kw):
    slots = slots or [{"strike": f"Strike {i + 1}", "tokens": list(Z)} for i in range(5)]
    return {"turn": 0, "current": 0, "deck": [], "strike_deck": kw.pop("strike_deck", []), "slots": slots,
            "seats": [{"hand": h} for h in hands], **kw}


def turn(st, choices, variant="default"):
    from simcore.games.capybara.rules import run_state
    from strategies.registry import Bot
    rs = ruleset(variant)
    bots = [Bot("capybara", "script", options=(("choices", choices.get(s, [])),)) for s in range(4)]
    return run_state(rs, st, [b.batch_policy(rs) for b in bots], 1, 0, "turn")[0]


def c(kind, option):
    return {"kind": kind, "option": option}


def test_a_seat_with_no_supply_is_not_offered_as_a_place_target():
    slots = [{"strike": "Strike 1", "tokens": [0, 20, 0, 0]}] + \
            [{"strike": f"Strike {i}", "tokens": list(Z)} for i in (2, 3, 4, 5)]
    st = state([["red Capybara"], [], [], []], slots)
    # options: seats 0, 2, 3 (seat 1 has supply 0) x slots 0..4 -> option 5 = (seat 2, slot 0)
    out = turn(st, {0: [c("action", 0), c("place", 5)]})
    matches(out, {"slots": [{"tokens": [0, 20, 1, 0]}], "seats": [{}, {"supply": 0}, {"supply": 19}, {}]})
    with pytest.raises(UserError, match="out of the range"):
        turn(st, {0: [c("action", 0), c("place", 15)]})


def test_capybanshchik_only_completes_a_strike_with_a_leader():
    slots = [{"strike": "Strike 1", "tokens": [1, 1, 0, 0]}, {"strike": "Strike 4", "tokens": [0, 2, 0, 0]}] + \
            [{"strike": f"Strike {i}", "tokens": list(Z)} for i in (2, 3, 5)]
    st = state([["red Capybanshchik"], [], [], []], slots, strike_deck=["Strike 3"])
    out = turn(st, {0: [c("action", 0), c("complete", 0)]})       # the only option: slot 1
    matches(out, {"slots": [{"strike": "Strike 1", "tokens": [1, 1, 0, 0]}, {"strike": "Strike 3", "tokens": Z}],
                  "seats": [{}, {"taken": ["Strike 4"], "supply": 19}, {}, {}], "strike_deck": []})  # 1 token stays on slot 0


def test_capybarin_locks_its_strike_and_stays_on_it():
    st = state([["red Capybara", "red Capybarin"], [], [], []])
    # play Capybarin (play options by uid: red Capybara, red Capybarin), lock slot 2; then the
    # Capybara: targets are slots 0, 1, 3, 4 -> (seat 1, slot 3) = 1 * 4 + 2
    out = turn(st, {0: [c("action", 1), c("lock", 2), c("next_card", 1), c("place", 6)]})
    matches(out, {"slots": [{}, {}, {"locks": ["red Capybarin"], "tokens": Z}, {"tokens": [0, 1, 0, 0]}],
                  "discard": ["red Capybara"]})


def test_capybaranka_cancels_a_card_and_is_discarded_first():
    st = state([["red Capybara"], ["Capybaranka"], [], []])
    out = turn(st, {0: [c("action", 0), c("place", 5)], 1: [c("cancel", 1)]})
    matches(out, {"slots": [{"tokens": Z}, {"tokens": Z}], "discard": ["Capybaranka", "red Capybara"],
                  "seats": [{"played": {"Capybara": 1}, "supply": 20}, {"hand": [], "played": {"Capybaranka": 1}},
                            {}, {}]})


def test_a_cancel_can_be_cancelled_by_the_actor():
    st = state([["Capybaranka", "red Capybara"], ["Capybaranka"], [], []])
    # seat 0 plays the Capybara (option 0) placing (seat 1, slot 0); seat 1 cancels, seat 0
    # cancels the cancel: the Capybara stands
    out = turn(st, {0: [c("action", 0), c("place", 5), c("cancel", 1)], 1: [c("cancel", 1)]})
    matches(out, {"slots": [{"tokens": [0, 1, 0, 0]}], "discard": ["Capybaranka", "Capybaranka", "red Capybara"]})


def test_banned_colour_gives_every_seat_a_strike_when_taken():
    slots = [{"strike": "Strike 2 banned_colour red", "tokens": [0, 2, 0, 0]}] + \
            [{"strike": f"Strike {i}", "tokens": list(Z)} for i in (1, 2, 3, 4)]
    st = state([["blue Capybanshchik"], [], [], []], slots,
               strike_deck=["Strike 1", "Strike 2", "Strike 3", "Strike 4", "Strike 5"])
    out = turn(st, {0: [c("action", 0), c("complete", 0)]}, "additional-rules")
    matches(out, {"seats": [{"taken": ["Strike 4"]}, {"taken": ["Strike 2 banned_colour red", "Strike 1"]},
                            {"taken": ["Strike 2"]}, {"taken": ["Strike 3"]}],
                  "slots": [{"strike": "Strike 5"}], "strike_deck": []})


def test_a_banned_colour_strike_is_no_target_for_that_colour():
    slots = [{"strike": "Strike 2 banned_colour red", "tokens": list(Z)}] + \
            [{"strike": f"Strike {i}", "tokens": list(Z)} for i in (1, 2, 3, 4)]
    st = state([["red Capybara"], [], [], []], slots)
    # red: targets are slots 1..4 only -> option 0 = (seat 0, slot 1)
    out = turn(st, {0: [c("action", 0), c("place", 0)]}, "additional-rules")
    matches(out, {"slots": [{"tokens": Z}, {"tokens": [1, 0, 0, 0]}]})


def test_double_tokens_doubles_a_capybara():
    slots = [{"strike": "Strike 2 double_tokens", "tokens": list(Z)}] + \
            [{"strike": f"Strike {i}", "tokens": list(Z)} for i in (1, 2, 3, 4)]
    st = state([["red Capybara"], [], [], []], slots)
    out = turn(st, {0: [c("action", 0), c("place", 5)]}, "additional-rules")
    matches(out, {"slots": [{"tokens": [0, 2, 0, 0]}]})
    plain = turn(st, {0: [c("action", 0), c("place", 5)]})             # symbols off: plain strike
    matches(plain, {"slots": [{"tokens": [0, 1, 0, 0]}]})


def test_plus_one_puts_a_strike_under_the_new_one():
    slots = [{"strike": "Strike 1", "tokens": [0, 2, 0, 0]}] + \
            [{"strike": f"Strike {i}", "tokens": list(Z)} for i in (2, 3, 4, 5)]
    st = state([["red Capybanshchik"], [], [], []], slots, strike_deck=["Strike 3 plus_one", "Strike 4"])
    out = turn(st, {0: [c("action", 0), c("complete", 0)]}, "additional-rules")
    matches(out, {"slots": [{"strike": "Strike 3 plus_one", "under": ["Strike 4"]}], "strike_deck": []})
