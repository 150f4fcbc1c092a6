"""Batch engine invariants: determinism across batch sizes, conservation, bounds, endings."""
import numpy as np
import pytest

from evolversi_kit import batch_policies, play_batch
from simcore.games.evolversi import effects, phases, rules, setup
from simcore.games.evolversi.run import Run
from simcore.games.evolversi.schema import GAME_DATA
from simcore.games.evolversi.state import empty_state, tables_for

SEED = 20240611


def _ruleset(variant="default", **overrides):
    return GAME_DATA.load(variant, overrides=overrides)


def _same(a: dict, b: dict):
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


@pytest.mark.parametrize("bots", [["greedy"] * 4, ["random", "greedy", "random", "greedy"]])
def test_same_games_whatever_the_batch(bots, monkeypatch):
    rs = _ruleset("advanced-genetics")
    games = np.arange(1000, dtype=np.int64)
    whole = play_batch(rs, 4, bots, SEED, games)
    monkeypatch.setattr(rules, "BATCH_SIZE", 7)
    sevens = play_batch(rs, 4, bots, SEED, games[:42])
    monkeypatch.setattr(rules, "BATCH_SIZE", 333)
    chunks = play_batch(rs, 4, bots, SEED, games)
    _same(whole, chunks)
    _same({k: v[:42] for k, v in whole.items()}, sevens)
    pick = np.random.default_rng(0).permutation(1000)[:200]
    subset = play_batch(rs, 4, bots, SEED, games[pick])
    _same({k: v[pick] for k, v in whole.items()}, subset)


def _check_invariants(run):
    st, rs, tb = run.st, run.rs, run.tb
    P = tb.players
    live = st.alive
    # tokens are conserved
    assert (st.supply + st.tokens.sum(axis=1) == rs["token_supply"]).all()
    assert (st.supply >= 0).all() and (st.tokens >= 0).all()
    # Fury and pawns in range
    assert ((st.fury >= 0) & (st.fury <= rs["fury_max"])).all()
    assert ((st.pos >= 0) & (st.pos <= rs["track_length"])).all()
    # every card in play is in exactly one place (only for live games: ended games stop mid-turn)
    comps = tb.comps
    for b in np.flatnonzero(live):
        places = [st.market[b], st.evo_deck[b, :st.n_evo[b]], st.common[b, :st.n_common[b]]]
        for s in range(P):
            places += [st.deck[b, s, :st.n_deck[b, s]], st.discard[b, s, :st.n_discard[b, s]],
                       st.hand[b, s], st.above[b, s], st.below[b, s]]
        seen = np.concatenate(places)
        seen = np.sort(seen[seen >= 0])
        expected = np.sort(np.array(list(comps.evolution)
                                    + [u for s in range(P) for u in comps.starting[st.animal[b, s]]]))
        np.testing.assert_array_equal(seen, expected)
        events = np.concatenate([st.event_deck[b, :st.n_event[b]], st.event_discard[b, :st.n_event_discard[b]]])
        np.testing.assert_array_equal(np.sort(events), np.arange(len(comps.event_row)))
        assert (st.deck[b][:, :, None] >= 0).sum() == st.n_deck[b].sum()


@pytest.mark.parametrize("variant,players,bots", [
    ("default", 4, ["greedy"] * 4), ("advanced-genetics", 4, ["random"] * 4),
    ("advanced-genetics", 3, ["greedy", "random", "greedy"]), ("default", 2, ["random", "random"]),
    ("advanced-genetics", 5, ["greedy"] * 5),
])
def test_conservation_and_bounds_every_phase(variant, players, bots):
    rs = _ruleset(variant)
    tb = tables_for(rs, players)
    st = empty_state(rs, tb, np.arange(60, dtype=np.int64))
    run = Run(rs, tb, st, batch_policies(rs, bots, players), SEED)
    setup.setup(run, [None] * players)
    _check_invariants(run)
    for _ in range(rs["max_rounds"]):
        run.st.counter[:] = 0
        phases.play_cards(run, run.live())
        _check_invariants(run)
        phases.turn_order(run, run.live())
        for k in range(players):
            phases.take_turn(run, run.live(), k)
            _check_invariants(run)
        effects.new_market(run, run.live())
        _check_invariants(run)
        run.rnd += 1
        if not run.st.alive.any():
            break
    assert not run.st.alive.any()


@pytest.mark.parametrize("variant", ["default", "advanced-genetics"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_game_ends_on_the_track_or_stalls(variant, players):
    rs = _ruleset(variant)
    for bots in (["greedy"] * players, ["random"] * players):
        out = play_batch(rs, players, bots, SEED, np.arange(200))
        track = out["end_reason"] == 0
        assert ((out["end_reason"] == 0) | (out["end_reason"] == 1)).all()
        assert (out["winner"][track].sum(axis=1) >= 1).all()
        assert (out["position"][track].max(axis=1) == rs["track_length"]).all()
        np.testing.assert_array_equal(out["winner"], out["position"] == rs["track_length"])
        assert not out["winner"][~track].any()
        assert ((out["rounds"] >= 1) & (out["rounds"] <= rs["max_rounds"])).all()
        assert ((out["fury"] >= 0) & (out["fury"] <= rs["fury_max"])).all()
        assert (out["tokens"].sum(axis=1) <= rs["token_supply"]).all()
        assert (out["fourth_round"] <= out["rounds"]).all()
        # animals are distinct per game
        a = np.sort(out["animal"], axis=1)
        assert (np.diff(a, axis=1) > 0).all()


def test_stalled_games_end_at_the_round_cap():
    rs = _ruleset(max_rounds=3)
    out = play_batch(rs, 4, ["random"] * 4, SEED, np.arange(200))
    assert (out["rounds"] == 3).all() and (out["end_reason"] == 1).all()
    assert not out["winner"].any()


def test_fixed_animals_are_kept():
    rs = _ruleset()
    out = play_batch(rs, 3, ["greedy"] * 3, SEED, np.arange(50), animals=["Orca", None, "Panda"])
    names = [a["name"] for a in rs.tables["animals"]]
    assert (out["animal"][:, 0] == names.index("Orca")).all()
    assert (out["animal"][:, 2] == names.index("Panda")).all()
    assert not np.isin(out["animal"][:, 1], [names.index("Orca"), names.index("Panda")]).any()


@pytest.mark.parametrize("kwargs,msg", [
    (dict(players=1, bots=["greedy"]), "plays with"),
    (dict(players=4, bots=["greedy"] * 3), "one bot per seat"),
    (dict(players=2, bots=["greedy", "clever"]), "unknown bot 'clever'"),
    (dict(players=2, bots=["greedy"] * 2, animals=["Orca", "Orca"]), "two seats"),
    (dict(players=2, bots=["greedy"] * 2, animals=["Dodo", None]), "unknown animal"),
    (dict(players=2, bots=["greedy"] * 2, animals=["Sea Cucumber", None]), "not in play"),
])
def test_bad_requests_are_user_errors(kwargs, msg):
    from simcore.errors import UserError
    with pytest.raises(UserError, match=msg):
        play_batch(_ruleset(), seed=1, games=np.arange(3), **kwargs)
