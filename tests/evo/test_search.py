"""Evo's search protocol (docs/rollout.md): decision points at every seat's turn of the
auction and of the movement (run_state until="turn", the same game on both engines), the
engines' options as labels, the determinization keeping what the deciding seat saw and
re-dealing only the hidden part, and the branch playing the option it tests."""
from collections import Counter

import pytest

from simcore.errors import UserError
from simcore.games import get_game
from strategies.registry import Bot, make_bots

G = get_game("evo")
RS = G.data.load()
UNIQUE = {r["name"] for r in RS.tables["genes"] if r["kind"] == "unique"}
METEOR = {r["name"] for r in RS.tables["climate"] if r["kind"] == "meteorite"}


def _forcing(choices=(), then="greedy"):
    return Bot("evo", f"script:then={then}", (("choices", tuple(choices)), ("then", then)), "script")


def _states(players=4, seed=4, game=2, engine="batch"):
    bots = make_bots("evo", "greedy", players)
    state = G.new_state(RS, players, bots, seed, game)
    while not state["ended"]:
        yield state
        state, _ = G.run_state(engine, RS, state, bots, seed, game, "turn")


def _points(players=4, seed=4, game=2):
    for state in _states(players, seed, game):
        point = G.decision_point(RS, state)
        if point is not None:
            yield state, point


@pytest.mark.parametrize("players", [2, 4])
def test_turn_stops_play_the_same_game_on_both_engines(players):
    bots = make_bots("evo", "greedy", players)
    whole = G.play_one(RS, players, bots, 7, 3)
    ref = list(_states(players, 7, 3, "reference"))
    batch = list(_states(players, 7, 3, "batch"))
    assert ref == batch                                  # the same saved states, turn by turn
    assert any("bids" in s for s in batch) and any(s.get("cursor") and s["phase"] == "movement" for s in batch)
    end, raw = G.run_state("batch", RS, batch[-1], bots, 7, 3, "turn")
    assert end["ended"] and raw["score"] == whole["score"].tolist()


def test_every_seat_gets_its_bid_and_move_points():
    kinds = Counter((s, k) for _, (s, k) in _points())
    assert {s for s, k in kinds if k == "bid"} == {0, 1, 2, 3}
    assert {s for s, k in kinds if k == "move"} == {0, 1, 2, 3}


def test_a_cursor_outside_an_auction_or_a_movement_is_a_user_error():
    state = next(_states())
    for engine in ("batch", "reference"):
        with pytest.raises(UserError) as e:
            G.run_state(engine, RS, dict(state, cursor=1), make_bots("evo", "greedy", 4), 0, 0, "phase")
        assert e.value.key == "state.cursor"
    bids = next(s for s in _states() if "bids" in s)
    bad = dict(bids, bids=[[0, 1], [0, 2]] + [None] * 2)
    for engine in ("batch", "reference"):
        with pytest.raises(UserError) as e:
            G.run_state(engine, RS, bad, make_bots("evo", "greedy", 4), 0, 0, "phase")
        assert e.value.key == "state.bids"


def test_legal_options_are_the_engines_options():
    """Forcing option i of the labels makes the engine play exactly that label."""
    bots = make_bots("evo", "greedy", 4)
    checked = Counter()
    for state, (seat, kind) in _points():
        labels = G.legal_options(RS, state, seat, kind)
        assert len(labels) == len(set(labels))
        for i in {0, len(labels) // 2, len(labels) - 1}:
            now = list(bots)
            now[seat] = _forcing([{"kind": kind, "option": i}])
            log: list[str] = []
            after, _ = G.run_state("reference", RS, state, now, 4, 2, "turn", log=log)
            assert G.run_state("batch", RS, state, now, 4, 2, "turn")[0] == after
            lab = labels[i]
            if kind == "bid":
                col = 0 if lab[1] == "event" else 1 + state["draws"].index(lab[1])
                line = next(x for x in log if x.startswith(f"  seat {seat} bids"))
                assert line.split(",")[0] == f"  seat {seat} bids {lab[2]} on column {col}"
            elif lab[0] == "step":
                assert f"  seat {seat} moves {lab[1]} -> {lab[2]}" in log
            checked[kind] += 1
        if min(checked["bid"], checked["move"]) >= 6:
            break
    assert min(checked["bid"], checked["move"]) >= 6


def _unseen_events(state, seat):
    return Counter([c for x, s in enumerate(state["seats"]) if x != seat for c in s["events"]]
                   + state["event_deck"])


def test_determinize_keeps_the_seats_view_and_redeals_the_hidden_part():
    changed = Counter()
    for state, (seat, kind) in _points():
        for key in (5, 77):
            w = G.determinize(RS, state, seat, key)
            assert w["seats"][seat] == state["seats"][seat]
            for k in ("round", "phase", "sector", "order", "draws", "dice", "event_discard", "climate_revealed",
                      "decisions", "rolls", "trajectory", "cursor", "bids"):
                assert w.get(k) == state.get(k), k
            for x, (a, b) in enumerate(zip(w["seats"], state["seats"])):
                assert (a["mp"], a["genes"], a["dinosaurs"], len(a["events"])) == \
                    (b["mp"], b["genes"], b["dinosaurs"], len(b["events"]))
            assert _unseen_events(w, seat) == _unseen_events(state, seat)
            # climate: the same unseen tokens, pile and set-aside sizes; the meteorite where
            # setup put it, in the pile's bottom part (p.meteorite_pile)
            assert Counter(w["climate_pile"] + w["climate_out"]) == \
                Counter(state["climate_pile"] + state["climate_out"])
            assert len(w["climate_out"]) == len(state["climate_out"])
            assert len(w["climate_pile"]) == len(state["climate_pile"])
            total = len(state["climate_revealed"]) + len(state["climate_pile"])
            met = len(state["climate_revealed"]) + next(i for i, t in enumerate(w["climate_pile"]) if t in METEOR)
            assert met >= total - RS["meteorite_pile"]
            # the bag: the same normal genes, as many uniques, none of them held or in the lab
            normal = [n for n in state["bag"] if n not in UNIQUE]
            assert [n for n in w["bag"] if n not in UNIQUE] == normal
            assert sum(n in UNIQUE for n in w["bag"]) == sum(n in UNIQUE for n in state["bag"])
            held = {n for s in state["seats"] for n in s["genes"]}
            assert all(n not in held or n in state["draws"] for n in w["bag"] if n in UNIQUE)
            changed["events"] += ([s["events"] for s in w["seats"]] != [s["events"] for s in state["seats"]]
                                  or w["event_deck"] != state["event_deck"])
            changed["climate"] += w["climate_pile"] != state["climate_pile"]
            changed["bag"] += w["bag"] != state["bag"]
    assert min(changed.values()) > 0 and len(changed) == 3, changed


def test_sixth_sense_keeps_the_top_climate_token():
    state, (seat, _) = next(_points())
    seen = dict(state, seats=[dict(s) for s in state["seats"]])
    seen["seats"][seat]["genes"] = sorted(seen["seats"][seat]["genes"] + ["Sixth sense"])
    seen["bag"] = [n for n in state["bag"] if n != "Sixth sense"]
    tops = {G.determinize(RS, seen, seat, key)["climate_pile"][0] for key in range(12)}
    assert tops == {state["climate_pile"][0]}
    assert len({G.determinize(RS, state, seat, key)["climate_pile"][0] for key in range(12)}) > 1


def test_branch_rows_are_the_games_run_state_plays_from_each_state_with_its_option():
    """Row o * K + k is the game run_state plays from state k with option o forced and seed
    keys[k] (that different options give different games: tests/games/test_search.py)."""
    greedy = make_bots("evo", "greedy", 1)[0]
    for n, (state, (seat, kind)) in enumerate(_points()):
        if n == 8:
            break
        labels = G.legal_options(RS, state, seat, kind)
        options = list(range(len(labels)))
        bots = [_forcing() if s == seat else greedy for s in range(4)]
        states = [G.determinize(RS, state, seat, key) for key in (11, 12)]
        out = G.branch(RS, states, seat, kind, options, bots, 4, 2, [11, 12])
        for o in (0, len(options) - 1):
            now = list(bots)
            now[seat] = _forcing([{"kind": kind, "option": o}])
            for k in (0, 1):
                _, raw = G.run_state("batch", RS, states[k], now, [11, 12][k], 2, "end")
                assert out["score"][o * 2 + k].tolist() == raw["score"]


def test_rollout_rows_leave_the_unknown_tallies_null_and_greedy_rows_count_them():
    """A rollout game is played as a chain of saved states, whose tallies (attacks, kills,
    births, climate_deaths, events) count only what happened since the last load: its rows
    leave them null (not -1, which an average would mix in); a greedy game's rows count them."""
    import polars as pl

    from tests.games.kit import rows
    tallies = ["attacks", "kills", "births", "climate_deaths", "events"]
    search = rows("evo", "default", 4, make_bots("evo", ["rollout:k=1"] + ["greedy"] * 3, 4), 3, 0, 1)
    plain = rows("evo", "default", 4, make_bots("evo", "greedy", 4), 3, 0, 2)
    assert search.select(tallies).null_count().row(0) == (1,) * len(tallies)
    assert plain.select(tallies).null_count().row(0) == (0,) * len(tallies)
    assert (plain["births"] > 0).all()
    both = pl.concat([plain, search.select(plain.columns)])
    assert both["births"].mean() == plain["births"].mean()      # the average of the games that have it
    # what is known of a rollout game is still there
    assert search.select("sector", "rounds", "s0_dinosaurs").null_count().row(0) == (0, 0, 0)


@pytest.mark.parametrize("players", [2, 4, 5])
def test_load_hidden_writes_what_a_whole_load_writes(players):
    """branch loads the first determinization whole and writes only the hidden part of the
    others (batch_io.load_hidden): each must be, word for word, the whole load of its state."""
    import numpy as np

    from simcore.games.evo import batch_io
    from simcore.games.evo.state import O_OPTS, new_packed
    checked = 0
    for n, state in enumerate(_states(players, 4, 2)):
        point = G.decision_point(RS, state)
        if n % 3 or point is None:
            continue
        seat = point[0]
        worlds = [G.determinize(RS, state, seat, key) for key in (3, 5, 8)] + [state]
        pk = new_packed(RS, players, 4, 40)
        batch_io.load(RS, pk, worlds[0], 2)
        for w in worlds[1:]:
            assert batch_io.same_public(worlds[0], w)
            whole = new_packed(RS, players, 4, 40)
            batch_io.load(RS, whole, w, 2)
            row = pk.g[:int(pk.rk[O_OPTS])].copy()
            batch_io.load_hidden(RS, pk.rk, row, w)
            assert np.array_equal(row, whole.g[:len(row)])
            assert np.array_equal(pk.g[len(row):], whole.g[len(row):])
            checked += 1
    assert checked > 20
    other = dict(state, round=state["round"] + 1)
    assert not batch_io.same_public(state, other)
    seats = [dict(s) for s in state["seats"]]
    seats[0]["mp"] += 1
    assert not batch_io.same_public(state, dict(state, seats=seats))


def test_pruned_branch_plays_the_live_options_as_branch_and_keeps_the_choice():
    """branch_pruned leaves out options that cannot have the best mean win share: every row of
    a live option is branch's row, an option left out has a lower mean win share than some
    live one (so the search chooses what it chooses with every row played), and some
    options are left out."""
    import numpy as np

    from strategies.rollout import result_of
    greedy = make_bots("evo", "greedy", 1)[0]
    K, out_of = 8, 0
    for n, (state, (seat, kind)) in enumerate(_points()):
        if n % 2 or n > 40:
            continue
        options = list(range(len(G.legal_options(RS, state, seat, kind))))
        bots = [_forcing() if s == seat else greedy for s in range(4)]
        keys = list(range(100 + n, 100 + n + K))
        states = [G.determinize(RS, state, seat, key) for key in keys]
        full = G.branch(RS, states, seat, kind, options, bots, 4, 2, keys)
        part, live = G.branch_pruned(RS, states, seat, kind, options, bots, 4, 2, keys)
        assert live.any()
        rows = np.repeat(live, K)
        for f in ("score", "winner", "acquired", "rounds"):
            assert np.array_equal(np.asarray(full[f])[rows], np.asarray(part[f])[rows])
        win = result_of(full, seat, 1)[0].reshape(len(options), K).mean(axis=1)
        assert (win[~live] < win[live].max()).all()
        out_of += int((~live).sum())
    assert out_of > 0


@pytest.mark.parametrize("players", [2, 4, 5])
def test_decision_seat_is_the_seat_of_the_decision_point(players):
    """The rollout driver asks decision_point only where decision_seat names a searching seat:
    decision_seat is None wherever decision_point is, and its seat otherwise."""
    seen = Counter()
    for state in _states(players, 5, 1):
        point, seat = G.decision_point(RS, state), G.decision_seat(RS, state)
        if point is not None:
            assert seat == point[0]
        seen[(point is not None, seat is not None)] += 1
    assert (True, False) not in seen and seen[(True, True)] > 10 and seen[(False, False)] > 0
