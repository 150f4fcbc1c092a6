"""Evo bots for the reference engine (docs/games/evo.md section 13).

A bot answers one decision at a time: `choose(decision, view) -> option index`, with the
decision and view of simcore/games/evo/reference_decisions.py.

- `random`: below(h, number of options), the draw the batch engine makes too.
- `greedy`: scores per option (section 13); the best taken, ties broken by the decision's `h`.
- `script`: replays a list of {"kind", "option"} items (scenarios and tests).

`reference_policy(name, rs, seat, **options)` builds one of them.
"""
from __future__ import annotations

from simcore import rng
from simcore.errors import UserError

from ..script import ScriptBot
from ..uniform import RandomBot
from ..weights import load


def pick(scores, h, floor: bool = False) -> int:
    """Contract 13's choice from per-option scores (None: never taken): the options with
    the highest score, in option order, and among those the `below(h, m)`-th of the m
    tied (the decision's own bot-stream key: no option order favours a seat). `floor`
    (MOVE, BIRTH): option 0 (stop / no birth) unless an option scores above 0."""
    live = [x for x in scores if x is not None]
    if not live:
        return 0
    top = max(live)
    if floor and scores[0] is not None and top <= 0:
        return 0
    tied = [i for i, x in enumerate(scores) if x is not None and x == top]
    return tied[int(rng.below(h, len(tied)))]


class GreedyBot:
    """One-step greedy player (contract section 13): per-option scores (`scores`), the
    best taken, ties broken by the decision's bot-stream key `h`. `weights`: a
    strategies.weights.Weights (None: weights/default.toml)."""

    name = "greedy"
    FLOOR = ("MOVE", "BIRTH")      # option 0 unless something scores above 0

    def __init__(self, rs, seat: int, weights=None):
        self.p, self.seat = rs.params, seat
        w = (weights if weights is not None else load("evo")).as_dict()
        self.W_SAFE, self.NEAR_CAP, self.W_NOW = w["w_safe"], w["near_cap"], w["w_now"]
        self.KILL, self.EVENT_WORTH = w["kill"], w["event_worth"]
        self.WORTH = {k[len("worth_"):]: v for k, v in w.items() if k.startswith("worth_")}   # by effect
        self._near: dict = {}     # (players, sector) -> near(sector, z) per zone (one map per count)
        self._values: dict = {}   # (players, sector, look, thermo >= 1, fur >= 1) -> value per zone

    # -- the zone evaluation of section 13 ---------------------------------------------
    def safe(self, view, t, sector: int, z: int) -> int:
        c = view.zone_class(z, sector)
        if c == "ideal":
            return 2
        return 1 if (c == "hot" and t.thermo >= 1) or (c == "cold" and t.fur >= 1) else 0

    def near(self, view, sector: int) -> list:
        k = (view.P, sector)
        if k not in self._near:
            ideal = [y for y in range(view.Z) if view.zone_class(y, sector) == "ideal"]
            steps = view.map.steps      # plain lists: numpy's scalar indexing costs more than the min
            self._near[k] = [min([self.NEAR_CAP] + [steps[z][y] for y in ideal]) for z in range(view.Z)]
        return self._near[k]

    def values(self, view, s: int) -> list:
        """value(z) for seat s, every zone: W_NOW (W_SAFE safe - near) + look."""
        t, sector = view.traits(s), view.sector
        look = None
        if t.sixth_sense and view.climate_pile:
            token = view.comps.token_rows[view.climate_pile[0]]
            if token["kind"] == "shift":
                look = view.turn_wheel(token["shift"])
        # the values depend on the seat only through what safe() reads of its traits: one list
        # per (sector, look, traits read), kept (read only) for every later decision alike
        k = (view.P, sector, look, t.thermo >= 1, t.fur >= 1)
        if k not in self._values:
            near = self.near(view, sector)
            self._values[k] = [self.W_NOW * (self.W_SAFE * self.safe(view, t, sector, z) - near[z])
                               + (self.safe(view, t, look, z) if look is not None else 0)
                               for z in range(view.Z)]
        return self._values[k]

    @staticmethod
    def n_win(view, A: int, D: int) -> int:
        return sum(r["copies"] for r in view.rs.tables["die"] if view.attack_wins(r, A, D))

    @staticmethod
    def n_baby(view) -> int:
        return sum(r["copies"] for r in view.rs.tables["die"] if r["babies"] == "win")

    # -- decisions ------------------------------------------------------------------------
    def choose(self, decision, view) -> int:
        got = self.scores(decision, view)
        if got is None:
            return self._rule(decision, view, decision.seat)
        scores, floor = got
        return pick(scores, decision.h, floor)

    def scores(self, d, view):
        """(score per option, None = never taken; floor) for the scored kinds, None for
        ADRENALINE and EVENT (fixed rules)."""
        if d.kind in ("ADRENALINE", "EVENT"):
            return None
        return getattr(self, "_" + d.kind.lower())(d, view, d.seat), d.kind in self.FLOOR

    def _rule(self, d, view, s) -> int:
        return 0 if d.kind == "ADRENALINE" else self._event(d, view, s)

    def _bid(self, d, view, s) -> list:
        def worth(c):
            if c == 0:
                return self.EVENT_WORTH
            row = view.comps.gene_rows[view.lab_genes[c]]
            return min(self.p["max_bid"], self.WORTH[row["effect"]] * max(1, row["amount"]))
        worths = {c: worth(c) for c in {c for c, _ in d.options}}      # once per column, not per bid
        return [worths[c] - view.price(s, v) for c, v in d.options]

    def _move(self, d, view, s) -> list:
        val, F = self.values(view, s), view.F
        scores = []
        for o in d.options:
            if o[0] == "stop":
                scores.append(0)
            elif o[0] == "attack":
                a, b = o[1], o[2]
                n = self.n_win(view, view.traits(s).attack_horns + view.frenzy[s],
                               view.traits(view.owner[b]).defence_horns)
                scores.append(n * (self.KILL + val[b] - val[a]) if 2 * n >= F else None)
            else:
                scores.append(F * (val[o[2]] - val[o[1]]))
        return scores

    def _escape(self, d, view, s) -> list:
        val = self.values(view, s)
        return [val[z] for z in d.options]

    def _birth(self, d, view, s) -> list:
        val, F = self.values(view, s), view.F
        baby = self.n_baby(view)

        def target(t):
            return F * val[t] if view.owner[t] == -1 else baby * (self.KILL + val[t])
        scores = []
        for o in d.options:
            if o is None:
                scores.append(0)
            elif isinstance(o, tuple):
                scores.append(target(o[1]) - F * val[o[0]])
            else:
                scores.append(target(o))
        return scores

    def _die(self, d, view, s) -> list:
        val = self.values(view, s)
        return [-val[z] for z in d.options]          # the lowest value dies

    def _shift_sums(self, view, s, shifts) -> list:
        t, mine = view.traits(s), view.zones_of(s)
        return [sum(self.safe(view, t, view.turn_wheel(k), z) for z in mine) for k in shifts]

    def _shift(self, d, view, s) -> list:
        return self._shift_sums(view, s, d.options)

    def _event(self, d, view, s) -> int:
        effect = d.info["effect"]
        if effect == "prescience":
            shifts = list(self.p["prescience_shifts"])
            sums = self._shift_sums(view, s, shifts + [d.info["token_shift"]])
            return int(max(sums[:-1]) > sums[-1])
        if effect == "frenzied_attack":
            return int(any(view.owner[b] not in (-1, s) and not view.protected(view.owner[b])
                           for a in view.zones_of(s) for b in view.map.neighbours(a)))
        if effect == "rat_swarm":
            def mine(x):
                return min(view.traits(x).eggs, view.reserve(x))
            return int(sum(mine(x) for x in range(view.P) if x != s) > (view.P - 1) * mine(s))
        if effect == "egg_thief":
            return 1
        if effect == "geysers":
            cold = sum(1 for z in view.zones_of(s) if view.zone_class(z) == "cold")
            return int(cold > view.traits(s).fur and not view.protected(s))
        raise ValueError(f"unknown event effect {effect!r}")


def reference_policy(name: str, rs, seat: int, **options):
    """The reference form of bot `name` for one seat ("random", "greedy", "script")."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot(rs, seat)
    if name == "script":
        return ScriptBot(seat, options.get("choices", ()))
    raise UserError(f"unknown evo bot {name!r}; expected random, greedy or script", key="bots")
