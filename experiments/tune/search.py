"""The search: fewest changes first, every candidate on the same games, racing by successive halving.

Stage k evaluates candidates that change k values: stage 0 is the current data; stage k
extends the `beam` best candidates of stage k-1 by one more variable, each value inside
its bounds, nearest first. Within a stage, successive halving races the candidates:
all play `first_games` games, the best 1/eta go on to eta times the games, and so on up
to `max_games` (every candidate plays game indices 0..n-1 of the config seed: common
random numbers, so they are compared on the same games). The search stops at the first
stage whose best candidate meets the targets by its estimates (no smaller edit remains),
when `max_changes` is reached, or when the budget is spent.

The ranking is lexicographic: a candidate that meets the targets beats one that does not;
among those that meet them, fewer changed values, then fewer steps of change; among those
that do not, the smaller shortfall (how far the estimates are outside the targets).
Candidates are generated and ordered deterministically and every decision reads only the
results, so the proposal does not depend on the workers, the backend or a resume. (The
optimiser is written out here rather than taken from optuna: with "fewest changes" as the
first criterion an exhaustive ring-by-ring enumeration with racing is exactly what is
wanted, and it is deterministic by construction.)
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from .evaluate import Evaluator, candidate_id
from .space import Space
from .targets import met, shortfall

STREAM = "search"


@dataclass
class Record:
    """One candidate evaluated at one rung."""

    candidate: tuple
    stage: int
    rung: int
    games: int
    values: dict                      # target -> (estimate, low, high)
    shortfall: float
    met: bool                         # every 95% interval inside its target
    changes: int
    distance: int
    order: int                        # position in its stage's deterministic order

    def key(self) -> tuple:
        """Lexicographic rank (smaller is better)."""
        if self.shortfall == 0:
            return (0 if self.met else 1, self.changes, self.distance, self.order)
        return (2, self.shortfall, self.changes, self.distance, self.order)


@dataclass
class Outcome:
    best: Record
    original: Record
    records: list[Record] = field(default_factory=list)
    trace: list[dict] = field(default_factory=list)        # games played -> best so far
    stopped: str = ""                                       # why the search ended


def rungs(first: int, top: int, eta: int) -> list[int]:
    out, n = [], first
    while n < top:
        out.append(n)
        n *= eta
    return out + [top]


def neighbours(space: Space, bases: list[tuple]) -> list[tuple]:
    """Each base with one more variable changed: nearest values first, variables in config order."""
    out, seen = [], set()
    for base in bases:
        steps = space.steps(base)
        moves = []
        for i, vals in enumerate(space.values):
            if steps[i] != 0:
                continue
            for x in vals:
                if x != space.current[i]:
                    k = space.steps(base[:i] + (x,) + base[i + 1:])[i]
                    moves.append((abs(k), i, k, base[:i] + (x,) + base[i + 1:]))
        for _, _, _, cand in sorted(moves, key=lambda m: m[:3]):
            if cand not in seen:
                seen.add(cand)
                out.append(cand)
    return out


def proof_games(space: Space) -> int:
    """Games the proof will play: proposal, original and one step either side of each variable."""
    return space.cfg.proof_games * (2 + 2 * len(space.cfg.variables))


def _late(ev: Evaluator, deadline: float, games: int) -> bool:
    """Would playing `games` more (at this run's pace so far) end past the deadline?"""
    now = time.perf_counter()
    pace = ev.fresh / (now - ev.started) if ev.fresh else 0.0
    return now > deadline or (pace > 0 and now + games / pace > deadline)


class Budget(Exception):
    """The games (or minutes) budget does not allow the next rung."""


def run_search(space: Space, ev: Evaluator, on_best=None) -> Outcome:
    cfg = space.cfg
    s = cfg.search
    targets = cfg.targets
    seed = cfg.base.seed
    have: dict = {}
    records: list[Record] = []
    trace: list[dict] = []
    best: list[Record] = []
    deadline = None if cfg.budget_minutes is None else ev.started + 60 * cfg.budget_minutes
    ladder = rungs(s.first_games, s.max_games, s.eta)

    def rung(stage: int, cands: list[tuple], order: dict, r: int, n: int) -> list[Record]:
        if ev.played + ev.cost(cands, n, have) > cfg.budget_games:
            raise Budget("budget.games")
        if deadline is not None and _late(ev, deadline, ev.cost(cands, n, have) + proof_games(space)):
            raise Budget("budget.minutes")
        vals = ev.measure(STREAM, seed, cands, n, have)
        out = []
        for c in cands:
            v = vals[c]
            rec = Record(c, stage, r, n, v, shortfall(v, targets), all(met(v, targets).values()),
                         space.changed(c), space.distance(c), order[c])
            out.append(rec)
        records.extend(out)
        top = [x for x in records if x.games == s.max_games] or records
        champion = min(top, key=Record.key)
        if not best or champion is not best[-1]:
            best.append(champion)
            if on_best is not None:
                on_best(champion)
        trace.append({"games": ev.played, "stage": stage, "rung": r, "rung_games": n,
                      "candidates": len(cands), "best": candidate_id(champion.candidate),
                      "best_shortfall": champion.shortfall, "best_met": champion.met,
                      "best_changes": champion.changes})
        return sorted(out, key=Record.key)

    def race(stage: int, cands: list[tuple]) -> list[Record]:
        order = {c: i for i, c in enumerate(cands)}
        pool = cands
        for r, n in enumerate(ladder):
            ranked = rung(stage, pool, order, r, n)
            if n == ladder[-1]:
                return ranked
            keep = max(1, math.ceil(len(ranked) / s.eta))
            pool = [x.candidate for x in ranked[:keep]]
        return []

    stopped = "max_changes"
    original = None
    try:
        original = race(0, [space.current])[0]
        finals = [original]
        for stage in range(1, s.max_changes + 1):
            if finals[0].shortfall == 0:
                stopped = "met" if stage > 1 or finals[0].met else "met"
                break
            bases = [x.candidate for x in finals[:s.beam]]
            cands = [c for c in neighbours(space, bases) if ev.feasible(c)]
            if not cands:
                stopped = "no candidates left"
                break
            finals = race(stage, cands)
        else:
            if finals[0].shortfall == 0:
                stopped = "met"
    except Budget as b:
        stopped = f"{b.args[0]} spent"
    if original is None:
        original = next((x for x in records if x.changes == 0), None)
    top = [x for x in records if x.games == s.max_games] or records
    return Outcome(min(top, key=Record.key), original, records, trace, stopped)
