"""The proof: the winner and the original replayed on fresh games, and the winner's sensitivity.

Fresh games: game indices 0..n-1 of a seed derived from the config seed (never the search's
seed), so no game of the proof was seen by the search. "met" only when every target's 95%
interval is inside the target. Sensitivity: each variable one step up and one step down from
the proposal, on the same fresh games as the proposal, so the change in each metric is
paired; its interval is a paired bootstrap over games (resampling whole games, the same
resample for both sides), with a generator seeded from the config seed. The entity-impact
target (the largest |holders' win rate - non-holders'| over the entities) is paired the same
way: the proof's rows carry each seat's per-game holding flags for every entity.

Until decided (`[proof] until_decided = true`): the proposal and the original play the same
fresh game indices in looks of reports.measures.sequential.CHUNK games, up to `proof.games`.
After each look every target with an anytime-valid interval (reports.measures.targets.SEQUENTIAL)
gets its 95% confidence sequence on the proposal's games; a target is decided once that
interval is wholly inside the target (met) or wholly outside (not met), and keeps the decision
and the interval of that look (the sequences hold at every look at once, so a decision stands).
The proof stops when every target is decided, or at the cap, where an open target is
"undecided at the cap" (not met). A target without such an interval (entity_impact, game flow)
keeps the fixed count: the proof then plays to the cap and judges it there by its 95% interval.
The sensitivity and the paired comparison with the original use the games played (the
stopped count), with their fixed-count intervals.
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from reports.measures.sequential import CHUNK, MIN_GAMES
from reports.measures.targets import SEQUENTIAL, mark, measure_anytime
from simcore.games import get_game

from .evaluate import Evaluator
from .space import Space
from .targets import PTS, measure, met

STREAM = "proof"
BOOTSTRAP = 400
PAIRED = ("faction_gap", "seat_gap", "first_seat", "rounds", "entity_impact")
SEQUENCE = "95% confidence sequence"           # the interval a target decided by looks carries
FIXED = "95% interval (fixed count, at the cap)"   # a target with no anytime interval
MET, NOT_MET, UNDECIDED = "met", "not met", "undecided at the cap"


def proof_seed(seed: int) -> int:
    """A seed for fresh games, derived from (never equal to) the search seed."""
    s = int(np.random.SeedSequence([seed, 0x7072_6F6F]).generate_state(1, np.uint64)[0] >> np.uint64(1))
    return s if s != seed else s ^ 1


def _per_game(games: pl.DataFrame, entities: tuple[int, ...] = ()) -> dict:
    """Arrays a bootstrap needs: per game and seat, faction code and win share; rounds; and,
    for the entity ids given, has (games, seats, entities): the seat acquired it in that game."""
    seats = [s for s in range(8) if f"s{s}_share" in games.columns]
    fac = np.stack([games[f"s{s}_faction"].cast(pl.Utf8).to_numpy() for s in seats], axis=1)
    names, codes = np.unique(fac, return_inverse=True)
    out = {"fac": codes.reshape(fac.shape), "k": len(names),
           "share": np.stack([games[f"s{s}_share"].to_numpy().astype(float) for s in seats], axis=1),
           "players": games["players"].to_numpy().astype(float), "rounds": games["rounds"].to_numpy().astype(float)}
    if entities:
        has = np.stack([np.stack([games[f"s{s}_has_{e}"].to_numpy() for e in entities], axis=1)
                        for s in seats], axis=1)                     # (games, seats, entities)
        # Per game, summed over its seats once, so a bootstrap resample's weighted sums are
        # one matrix-vector product each: holders (games, entities), holders' win shares.
        out["has_n"] = has.sum(axis=1).astype(float)
        out["has_win"] = (has * out["share"][:, :, None]).sum(axis=1)
    return out


def _entity_impact(d: dict, w: np.ndarray) -> float:
    """Largest |win rate of holders - win rate of non-holders| over the entities (points),
    the entity-impact target's estimate, on games weighted by w (seat-games pooled)."""
    n_with = w @ d["has_n"]                                          # (entities,)
    win_with = w @ d["has_win"]
    n_all, win_all = w.sum() * d["share"].shape[1], (w[:, None] * d["share"]).sum()   # every seat-game
    n_without, win_without = n_all - n_with, win_all - win_with
    ok = (n_with > 0) & (n_without > 0)
    if not ok.any():
        return 0.0
    effect = win_with[ok] / n_with[ok] - win_without[ok] / n_without[ok]
    return float(np.abs(effect).max()) * PTS


def _stats(d: dict, w: np.ndarray) -> dict:
    """Target metrics (points / rounds) of games weighted by w (a bootstrap resample's counts)."""
    out = {}
    share = d["share"] * w[:, None]
    games_f = np.zeros(d["k"])
    wins_f = np.zeros(d["k"])
    for s in range(share.shape[1]):
        games_f += np.bincount(d["fac"][:, s], weights=w, minlength=d["k"])
        wins_f += np.bincount(d["fac"][:, s], weights=share[:, s], minlength=d["k"])
    rate = wins_f[games_f > 0] / games_f[games_f > 0]
    out["faction_gap"] = (rate.max() - rate.min()) * PTS
    seat_rate = share.sum(axis=0) / w.sum()
    out["seat_gap"] = (seat_rate.max() - seat_rate.min()) * PTS
    out["first_seat"] = (seat_rate[0] - float((w / d["players"]).sum() / w.sum())) * PTS
    out["rounds"] = float((d["rounds"] * w).sum() / w.sum())
    if "has_n" in d:
        out["entity_impact"] = _entity_impact(d, w)
    return out


def paired_changes(base: pl.DataFrame, other: pl.DataFrame, targets: dict, seed: int,
                   entities: tuple[int, ...] = ()) -> dict:
    """{target: (change, low, high)} of other minus base on the same games (paired bootstrap).

    entities: the entity ids whose holding flags the rows carry (needed for entity_impact)."""
    if "entity_impact" not in targets:
        entities = ()
    a, b = _per_game(base.sort("game"), entities), _per_game(other.sort("game"), entities)
    n = len(a["rounds"])
    rng = np.random.default_rng([seed, 0x5E45])
    one = np.ones(n)
    sa, sb = _stats(a, one), _stats(b, one)
    names = [t for t in targets if t in PAIRED and t in sa]
    draws = {t: [] for t in names}
    for _ in range(BOOTSTRAP):
        w = rng.multinomial(n, np.full(n, 1.0 / n)).astype(float)
        xa, xb = _stats(a, w), _stats(b, w)
        for t in names:
            draws[t].append(xb[t] - xa[t])
    out = {}
    for t in targets:
        if t in names:
            lo, hi = np.quantile(draws[t], [0.025, 0.975])
            out[t] = (sb[t] - sa[t], float(lo), float(hi))
        else:
            out[t] = (math.nan, math.nan, math.nan)     # filled in by the caller (no paired interval)
    return out


def _tracked(space: Space, ev: Evaluator, winner: tuple) -> tuple[int, ...]:
    """Every entity id of the game, when a target needs per-game holding flags; else none."""
    if "entity_impact" not in space.cfg.targets:
        return ()
    rs = ev.spec(winner, space.cfg.base.seed).ruleset
    return tuple(range(len(get_game(rs.game).entities(rs))))


def _decided(looked: dict, targets: dict, n: int) -> dict:
    """The targets the latest look decides: {target: decision record} for marks met / missed."""
    out = {}
    for t, m in mark(looked, targets).items():
        if m in ("met", "missed"):
            out[t] = {"decision": MET if m == "met" else NOT_MET, "games": n, "interval": list(looked[t]),
                      "kind": SEQUENCE}
    return out


def until_decided(cfg, ev: Evaluator, seed: int, sides: list[tuple], winner: tuple, have: dict,
                  entities: tuple[int, ...] = ()) -> tuple[int, dict]:
    """Play `sides` in looks of CHUNK games (the same indices for all) until every target of the
    winner is decided or `cfg.proof_games` (the cap) is reached; (games played, {target: record}).

    A record: decision (met, not met, undecided at the cap), games at the decision, the interval
    (estimate, low, high) and its kind (a confidence sequence, or the fixed count's interval for
    a target without an anytime interval, judged at the cap)."""
    cap, targets = cfg.proof_games, cfg.targets
    anytime = {t: v for t, v in targets.items() if t in SEQUENTIAL}
    fixed = [t for t in targets if t not in SEQUENTIAL]
    records: dict = {}
    still, looked, n = anytime, {}, 0
    while n < cap and not (len(records) == len(anytime) and not fixed):
        n = min(n + CHUNK, cap)
        games = ev.run(STREAM, seed, sides, n, have, track=entities)[winner][0]
        if n < MIN_GAMES and n < cap:
            continue                    # the variance estimate must settle first
        still = {t: v for t, v in anytime.items() if t not in records}
        looked = measure_anytime(games, still)
        records.update(_decided(looked, still, n))
    for t in (t for t in still if t not in records):
        records[t] = {"decision": UNDECIDED, "games": n, "interval": list(looked[t]), "kind": SEQUENCE}
    if fixed:
        g, tallies = ev.read(STREAM, winner, n)
        values = measure(g, tallies, {t: targets[t] for t in fixed})
        ok = met(values, {t: targets[t] for t in fixed})
        for t in fixed:
            records[t] = {"decision": MET if ok[t] else NOT_MET, "games": n, "interval": list(values[t]), "kind": FIXED}
    return n, {t: records[t] for t in targets}


def prove(space: Space, ev: Evaluator, winner: tuple) -> dict:
    """Replay the winner and the original on fresh games; the winner's one-step sensitivity.

    With `proof_until_decided`, the replay stops once every target is decided (`until_decided`)
    and the sensitivity plays the same stopped count."""
    cfg = space.cfg
    seed = proof_seed(cfg.base.seed)
    n = cfg.proof_games
    have: dict = {}
    sides = [("proposal", winner)] + ([("original", space.current)] if winner != space.current else [])
    around = []
    for i, v in enumerate(cfg.variables):
        for k in (-1, 1):
            c = space.moved(winner, i, k)
            if c is not None:
                around.append((v.name, k, c))
    cands = list(dict.fromkeys([c for _, c in sides] + [c for _, _, c in around]))
    entities = _tracked(space, ev, winner)
    decided = None
    if cfg.proof_until_decided:
        n, decided = until_decided(cfg, ev, seed, [c for _, c in sides], winner, have, entities)
    frames = ev.run(STREAM, seed, cands, n, have, track=entities)
    values = {c: measure(g, t, cfg.targets) for c, (g, t) in frames.items()}
    shown = values if decided is None else _shown(cfg.targets, values, frames, [c for _, c in sides], winner, decided)
    result = {"seed": seed, "games": n}
    for label, c in sides:
        result[label] = {"candidate": list(c), "values": shown[c], "met": met(shown[c], cfg.targets)}
    if decided is not None:
        result["proposal"]["met"] = {t: r["decision"] == MET for t, r in decided.items()}
        result["until_decided"] = {"cap": cfg.proof_games, "games": n, "targets": decided}
    if "original" not in result:
        result["original"] = result["proposal"]
    result["verdict"] = "met" if all(result["proposal"]["met"].values()) else "not met"
    # The proposal against the current data on the same fresh games: {target: (change, low, high)}.
    result["against_original"] = ({t: list(v) for t, v in paired_changes(
        frames[space.current][0], frames[winner][0], cfg.targets, cfg.base.seed, entities).items()}
        if winner != space.current else {t: [0.0, 0.0, 0.0] for t in cfg.targets})
    sens = []
    base_games = frames[winner][0]
    for name, k, c in around:
        ch = paired_changes(base_games, frames[c][0], cfg.targets, cfg.base.seed, entities)
        for t in cfg.targets:
            if math.isnan(ch[t][0]):
                ch[t] = (values[c][t][0] - values[winner][t][0], math.nan, math.nan)
        sens.append({"variable": name, "direction": "+1 step" if k > 0 else "-1 step",
                     "value": c[[v.name for v in cfg.variables].index(name)], "change": ch,
                     "values": values[c]})
    result["sensitivity"] = sens
    return result


def _shown(targets: dict, values: dict, frames: dict, sides: list[tuple], winner: tuple, decided: dict) -> dict:
    """The values a proof until decided shows: the proposal's interval of each decision, the
    original's confidence sequences at the stopped count (fixed-count intervals where none is built)."""
    out = dict(values)
    out[winner] = {t: tuple(r["interval"]) for t, r in decided.items()}
    for c in sides:
        if c != winner:
            out[c] = {**values[c], **measure_anytime(frames[c][0], targets)}
    return out
