"""The reference engine's setup, decision addressing, log, `until`, numbering and its
UserErrors for bad states and scripts (contract sections 1-3, 8, 11, 15)."""
import copy

import pytest

from .capybara_reference_kit import load, policies, ruleset, run_doc
from simcore import rng
from simcore.errors import UserError
from simcore.games.capybara import reference, state_io
from strategies.capybara.reference_bots import RandomBot

RS = ruleset()


class Recorder(RandomBot):
    """The random bot, recording every decision it is asked (with its option count)."""

    def __init__(self, seen):
        self.seen = seen

    def choose(self, decision, view):
        self.seen.append(decision)
        return super().choose(decision, view)


def test_uids_follow_the_key_order_not_the_row_order():
    c = state_io.components(RS)
    assert list(c.card_key[:c.n_capybara]) == sorted(c.card_key[:c.n_capybara])
    assert c.card_key[0] == "Capybaranka" and c.n_capybara == 60
    assert c.card_key[c.n_capybara:] == ("Revolution",) * RS["revolutions"]
    assert list(c.strike_name) == sorted(c.strike_name) and len(c.strike_name) == RS["strike_cards"]
    assert c.names[0] == "Capybara" and c.names[-1] == "Capybaranka"


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_setup_deals_cuts_and_places_the_opening_tokens(players):
    state = reference.new_state(RS, players, policies(RS, players), 7, 3)
    small = players <= RS["small_game_max_players"]
    hand = RS["hand_size_small"] if small else RS["hand_size"]
    assert [len(s["hand"]) for s in state["seats"]] == [hand] * players
    assert len(state["slots"]) == players + RS["strikes_extra"]
    assert all(s["strike"] is not None for s in state["slots"])
    assert sum(sum(s["tokens"]) for s in state["slots"]) == players * RS["opening_tokens"]
    # opening tokens go on empty strikes while there are some
    assert sum(1 for s in state["slots"] if any(s["tokens"])) == players
    removed = state["removed"]
    if small:
        colours = {k.split()[0] for k in removed if " " in k}
        assert len(colours) == RS["small_game_removed_colours"]
        assert len(removed) == RS["cards_per_colour"] + RS["small_game_removed_cancels"]
    else:
        assert removed == []
    deck, R = state["deck"], RS["revolutions"]
    in_play = 60 - len(removed) - players * hand
    q, r = divmod(in_play, R)
    start = 0
    for i in range(R):          # each part holds exactly one Revolution
        size = (q + 1 if i < r else q) + 1
        assert deck[start:start + size].count("Revolution") == 1
        start += size
    assert start == len(deck) and state["turn"] == 0 and state["current"] == 0


def test_same_seed_same_game_and_another_game_index_another_deal():
    a = reference.new_state(RS, 4, policies(RS, 4), 11, 0)
    assert reference.new_state(RS, 4, policies(RS, 4), 11, 0) == a
    assert reference.new_state(RS, 4, policies(RS, 4), 11, 1)["deck"] != a["deck"]


def test_decisions_use_the_turn_seat_and_counter_address():
    seen = []
    reference.play_one(RS, 3, [Recorder(seen) for _ in range(3)], 5, 2)
    counters = {}
    for d in seen:
        assert len(d.options) >= 1
        assert d.index == counters.get((d.turn, d.seat), 0)
        counters[(d.turn, d.seat)] = d.index + 1
        assert int(d.h) == int(rng.key(5, 2, rng.BOT, d.turn, d.seat, d.index))
    assert [d.seat for d in seen if d.turn == 0] == [2, 1, 0]        # OPENING, counterclockwise
    assert {d.kind for d in seen if d.turn == 0} == {"OPENING"}


def test_the_log_tells_the_deal_plays_revolutions_and_scores():
    log = []
    out = reference.play_one(RS, 4, policies(RS, 4, "greedy"), 3, 0, log=log)
    text = "\n".join(log)
    for word in ("Deal: seat 0", "Opening:", "Turn 1: seat 0", "plays", "REVOLUTION", "takes", "The game ends"):
        assert word in text
    assert text.count("REVOLUTION") == out["revolutions"]
    assert sum("WINNER" in line for line in log) == sum(out["winner"])


def test_until_round_stops_after_the_last_seat():
    state = reference.new_state(RS, 3, policies(RS, 3), 1, 0)
    state, out = reference.run_state(RS, state, policies(RS, 3), 1, 0, "round")
    assert state["turn"] == 3 and state["current"] == 0 and out is None
    state, out = reference.run_state(RS, state, policies(RS, 3), 1, 0, "turn")
    assert state["turn"] == 4 and state["current"] == 1


BAD_STATES = {
    "unknown card": (lambda s: s["seats"][0]["hand"].append("purple Capybara"), "state.seats[0].hand"),
    "too many copies": (lambda s: s["seats"][1]["hand"].extend(["red Copybara"] * 2), "state.seats[1].hand"),
    "slot count": (lambda s: s["slots"].pop(), "state.slots"),
    "token count per seat": (lambda s: s["slots"][0].update(tokens=[0, 0, 0]), "state.slots[0].tokens"),
    "supply": (lambda s: s["seats"][0].update(supply=3), "state.seats[0].supply"),
    "Revolutions": (lambda s: s["deck"].remove("Revolution"), "state.deck"),
    "unknown strike": (lambda s: s["strike_deck"].append("Strike 9"), "state.strike_deck"),
    "players": (lambda s: s["seats"].extend([{}] * 3), "state.seats"),
    "current": (lambda s: s.update(current=4), "state.current"),
}


@pytest.mark.parametrize("name", sorted(BAD_STATES))
def test_a_bad_state_is_a_user_error_naming_the_key(name):
    doc = load("capybara_and_capybarabanshchik_turn.json")
    edit, key = BAD_STATES[name]
    edit(doc["state"])
    with pytest.raises(UserError) as e:
        run_doc(doc)
    assert e.value.key == key


def test_a_script_of_the_wrong_kind_or_too_short_is_a_user_error():
    doc = load("capybara_and_capybarabanshchik_turn.json")
    bad = copy.deepcopy(doc)
    bad["choices"]["0"][1]["kind"] = "complete"
    with pytest.raises(UserError, match="COMPLETE choice, but the game asks a PLACE"):
        run_doc(bad)
    short = copy.deepcopy(doc)
    short["choices"]["0"] = short["choices"]["0"][:2]
    with pytest.raises(UserError, match="ran out of choices at a NEXT_CARD"):
        run_doc(short)
    with pytest.raises(UserError):
        reference.run_state(RS, doc["state"], policies(RS, 4), 0, 0, "phase")


def test_an_ended_state_needs_its_end_reason_and_stays_ended():
    doc = load("last_revolution_ends_the_game_fewer_tokens_left_wins.json")
    rs = ruleset()
    result, _, _ = run_doc(doc)
    ended = result["state"]
    again, out = reference.run_state(rs, ended, policies(rs, 4), 0, 0, "end")
    assert again == ended and out["winner"] == [True, False, False, False]
    bad = dict(ended, end_reason=None)
    with pytest.raises(UserError) as e:
        reference.run_state(rs, bad, policies(rs, 4), 0, 0, "end")
    assert e.value.key == "state.end_reason"
