"""Evo, the reference engine: one game at a time, straight from the rulebook and the contract.

The oracle the batch engine (rules.py) is checked against game by game, and the source of
the readable game log. It follows docs/games/evo.md: every shuffle and die roll uses the
contract's chance address (section 2), every decision is asked in the contract's order
with the contract's option list (reference_decisions.py: the policy interface).

The state is plain Python: zones by uid (`owner[z]`, -1 empty), genes held and in the bag
as counts per name, events and climate tokens as lists of names (copies are
interchangeable: section 2). A round is six phases, each a method of a mixin:

    climate, mutation, initiative   reference_phases.py
    movement (and combat)           reference_movement.py
    birth, survival and scoring     reference_birth.py

Public functions (brief and contract 16): `play_one`, `new_state`, `run_state`; `until` is
"phase" (one phase), "round" (to the end of the round in progress), "end", or "turn" (one
phase, or up to the next seat's turn in the auction or the movement phase (`cursor`); a
state that stands before a mutation phase gets that phase's lab drawn into its `draws`:
the search protocol's decision points, docs/rollout.md).
"""
from __future__ import annotations

from collections import Counter

from ... import rng
from ...errors import UserError
from . import state_io
from .maps import map_of
from .reference_birth import BirthSurvival
from .reference_comps import (K_CLIMATE, K_CLIMATE_BOTTOM, K_DIE, K_EVENTS, K_ORDER, K_UNIQUE, Components,
                              traits)
from .reference_decisions import Decision
from .reference_movement import Movement
from .reference_phases import Phases

UNTIL = ("phase", "round", "end", "turn")
PHASES = ("climate", "mutation", "initiative", "movement", "birth", "survival")
END_REASONS = ("meteorite",)
TALLIES = ("attacks", "kills", "births", "climate_deaths", "events")


class Game(Phases, Movement, BirthSurvival):
    """One game of Evo in plain Python state."""

    def __init__(self, rs, players: int, policies, seed: int, game: int, log=None):
        self.rs, self.p = rs, rs.params
        if not isinstance(players, int) or not self.p["players_min"] <= players <= self.p["players_max"]:
            raise UserError(f"{players} players; this ruleset plays {self.p['players_min']}.."
                            f"{self.p['players_max']}", key="players")
        policies = list(policies)
        if len(policies) != players:
            raise UserError(f"{players} players need {players} bots, got {len(policies)}", key="bots")
        self.P, self.policies, self.seed, self.game, self.log = players, policies, seed, game, log
        self.comps = Components.build(rs)
        self.map = map_of(rs, players)
        self.Z = len(self.map.names)
        self._terrain = self.map.terrain.tolist()     # plain ints: zone_class is asked very often
        self.F = len(self.comps.face_uids)
        terrains = self.p["terrains"]
        self.wheel = {(r["sector"], terrains.index(r["terrain"])): r["class"] for r in rs.tables["wheel"]}
        self.S = 1 + max(r["sector"] for r in rs.tables["wheel"])
        self._traits: dict[int, object] = {}
        self.lab_genes: dict[int, str] = {}    # column -> gene name, during the mutation phase
        self.frenzy = [0] * players
        self.cursor, self.bids, self.turns = 0, None, False    # mid-auction / mid-movement (section 15)
        self.won = [[0] * len(self.comps.gene_names) for _ in range(players)]
        self.tally = dict.fromkeys(TALLIES, 0)

    # ------------------------------------------------------------------ small helpers
    def say(self, line: str) -> None:
        if self.log is not None:
            self.log.append(line)

    def zname(self, z: int) -> str:
        return self.map.names[z]

    def ask(self, seat: int, kind: str, options: list, info: dict | None = None) -> int:
        """Put a decision to the seat's policy (section 2: d counts the seat's decisions this round)."""
        d = self.decisions[seat]
        self.decisions[seat] = d + 1
        dec = Decision(kind, options, seat, self.round, d, info or {}, self.seed, self.game)
        pick = self.policies[seat].choose(dec, self)
        if isinstance(pick, bool) or not isinstance(pick, int) or not 0 <= pick < len(options):
            raise UserError(f"the bot of seat {seat} answered {pick!r} to a {kind} decision with "
                            f"{len(options)} options", key="bots")
        return pick

    def roll(self) -> dict:
        """The next die face (section 2): a forced face of the state first, then the stream."""
        n = self.rolls
        self.rolls += 1
        if self.dice:
            name = self.dice.pop(0)
        else:
            u = rng.randint(self.seed, self.game, rng.CHANCE, self.F, K_DIE, self.round, n)
            name = self.comps.face_uids[u][0]
        return self.comps.face_rows[name]

    def shuffle(self, uids, *address) -> list:
        return rng.shuffle_order(self.seed, self.game, rng.CHANCE, sorted(uids), *address)

    def traits(self, s: int):
        if s not in self._traits:
            self._traits[s] = traits(self.rs, self.comps, self.genes[s])
        return self._traits[s]

    def count(self, s: int) -> int:
        return self.owner.count(s)

    def reserve(self, s: int) -> int:
        return self.p["dinosaurs_per_player"] - self.count(s)

    def zones_of(self, s: int) -> list:
        return [z for z, o in enumerate(self.owner) if o == s]

    def zones_within(self, y: int, r: int) -> list:
        """The zones at most r steps from y, ascending."""
        return self.map.within(r)[y]

    def swims(self, a: int) -> list:
        """Flippers' targets from coastal zone a: the other coastal zones not adjacent to a, ascending."""
        return self.map.swims[a]

    def protected(self, x: int) -> bool:
        """Section 1: at or below its floor a clan cannot be attacked nor lose more to the climate."""
        return self.count(x) <= self.traits(x).floor

    def zone_class(self, z: int, sector: int | None = None) -> str:
        return self.wheel[(self.sector if sector is None else sector, self._terrain[z])]

    def turn_wheel(self, shift: int) -> int:
        return (self.sector + shift) % self.S

    def price(self, s: int, v: int) -> int:
        return max(self.p["min_cost"], v - self.traits(s).vials)

    def gain_gene(self, s: int, name: str) -> None:
        self.genes[s][name] += 1
        self.won[s][self.comps.gene_names.index(name)] += 1
        self._traits.pop(s, None)

    # ------------------------------------------------------------------ setup (section 3)
    def setup(self) -> None:
        p, comps, P = self.p, self.comps, self.P
        self.round, self.phase = 1, "climate"
        self.mp = [p["start_mp"]] * P
        self.order = self.shuffle(range(P), K_ORDER)
        deck = self.shuffle(range(len(comps.event_uids)), K_EVENTS)
        self.event_deck = [comps.event_uids[u][0] for u in deck]
        self.event_discard = []
        self.bag = Counter()
        unique = [u for u, (n, _) in enumerate(comps.gene_uids) if comps.gene_rows[n]["kind"] == "unique"]
        chosen = set(self.shuffle(unique, K_UNIQUE)[:p["unique_in_bag"]])
        for u, (name, _) in enumerate(comps.gene_uids):
            if comps.gene_rows[name]["kind"] == "normal" or u in chosen:
                self.bag[name] += 1
        shifts = [u for u, (n, _) in enumerate(comps.token_uids) if comps.token_rows[n]["kind"] == "shift"]
        meteor = [u for u, (n, _) in enumerate(comps.token_uids) if comps.token_rows[n]["kind"] == "meteorite"]
        shifted = self.shuffle(shifts, K_CLIMATE)
        out, rest = shifted[:p["climate_discarded"]], shifted[p["climate_discarded"]:]
        companions, top = rest[:p["meteorite_pile"] - 1], rest[p["meteorite_pile"] - 1:]
        bottom = self.shuffle(meteor + companions, K_CLIMATE_BOTTOM)
        self.climate_out = [comps.token_uids[u][0] for u in out]
        self.climate_pile = [comps.token_uids[u][0] for u in top + bottom]
        self.climate_revealed = []
        self.owner = [-1] * self.Z
        for z in range(self.Z):
            if 0 <= self.map.start[z] < P:
                self.owner[z] = int(self.map.start[z])
        self.genes = [Counter() for _ in range(P)]
        self.hands = [[] for _ in range(P)]
        self.sector = p["wheel_start"]
        self.draws, self.dice, self.lab = [], [], None
        self.decisions, self.rolls = [0] * P, 0
        self.trajectory = []
        self.ended, self.end_reason, self.winners, self.rounds = False, None, [], 0
        self.say(f"Setup: {P} players, {self.Z} zones, order {self.order}, sector {self.sector}, "
                 f"{len(self.climate_pile)} climate tokens ({', '.join(self.climate_out)} set aside)")
        self.say(f"  bag: {sum(self.bag.values())} genes; uniques: "
                 + ", ".join(sorted(n for n in self.bag if comps.gene_rows[n]["kind"] == "unique")))

    # ------------------------------------------------------------------ playing on
    def play(self, until: str) -> None:
        """Play phases until `until` ("phase", "round", "end", "turn") or the end of the game."""
        if until not in UNTIL:
            raise UserError(f"must be one of {', '.join(UNTIL)}, got {until!r}", key="until")
        self.turns = until == "turn"
        while not self.ended:
            phase = self.phase
            self.run_phase()
            if until in ("phase", "turn") or (until == "round" and phase == "survival"):
                return

    def run_phase(self) -> None:
        phase = self.phase
        getattr(self, f"{phase}_phase")()
        if self.ended or self.cursor:       # ended, or stopped before a seat's turn (until "turn")
            return
        if phase == "survival":     # the round is over: the next one counts decisions and rolls from 0
            self.trajectory.append(list(self.mp))
            self.round += 1
            self.rounds = self.round - 1      # rounds played in full
            self.phase = "climate"
            self.decisions, self.rolls = [0] * self.P, 0
        else:
            self.phase = PHASES[PHASES.index(phase) + 1]

    def finish(self) -> None:
        """Section 8: the meteorite; the most MP, then the most dinosaurs; still tied, a shared win."""
        self.ended, self.end_reason = True, "meteorite"
        self.rounds = self.round - 1
        self.winners = self.best_seats()
        self.say(f"The meteorite: the game ends after {self.rounds} rounds")
        for s in range(self.P):
            self.say(f"  seat {s}: {self.mp[s]} MP, {self.count(s)} dinosaurs"
                     + ("  WINNER" if s in self.winners else ""))

    def best_seats(self) -> list:
        keys = [(self.mp[s], self.count(s)) for s in range(self.P)]
        return [s for s in range(self.P) if keys[s] == max(keys)]

    def max_rounds(self) -> int:
        """The most rounds a game can last with this data: the pile less the meteorite."""
        shifts = sum(r["copies"] for r in self.rs.tables["climate"] if r["kind"] == "shift")
        return shifts - self.p["climate_discarded"]

    def outcome(self, trajectories: bool = False) -> dict:
        """Section 8 (one game, no batch axis)."""
        out = {"score": list(self.mp), "winner": [s in self.winners for s in range(self.P)],
               "rounds": self.rounds, "end_reason": END_REASONS.index(self.end_reason),
               "won": [list(r) for r in self.won], "dinosaurs": [self.count(s) for s in range(self.P)],
               "sector": self.sector, "faction": list(range(self.P)), **self.tally}
        if trajectories:
            width = max(self.max_rounds(), len(self.trajectory))
            out["standing"] = [list(r) for r in self.trajectory] + [[0] * self.P] * (width - len(self.trajectory))
        return out

    # ------------------------------------------------------------------ state in and out (15)
    def load(self, f: dict) -> None:
        for k, v in f.items():
            setattr(self, k, v)
        self._traits = {}
        self.rounds = self.round - 1 if not self.ended else f["rounds"]
        if self.ended:      # the winners follow from the board, whatever the file says
            self.winners = self.best_seats()

    def to_state(self) -> dict:
        return state_io.dump(self)


def _new(rs, players, policies, seed, game, log) -> Game:
    g = Game(rs, players, policies, seed, game, log)
    g.setup()
    return g


def play_one(rs, players: int, policies, seed: int, game: int, log=None, trajectories: bool = False) -> dict:
    """Play game `game` of run `seed` from setup to the meteorite; return its outcome (section 8).

    `policies`: one reference policy per seat (reference_decisions.py). `log`: a list that
    receives one readable line per event. `trajectories`: add "standing" (R, P).
    """
    g = _new(rs, players, policies, seed, game, log)
    g.play("end")
    return g.outcome(trajectories)


def new_state(rs, players: int, policies, seed: int, game: int) -> dict:
    """The JSON state (section 15) of game `game` of run `seed` just after setup."""
    return _new(rs, players, policies, seed, game, None).to_state()


def run_state(rs, state: dict, policies, seed: int, game: int, until: str, log=None):
    """Load a JSON state, play on to `until` ("phase", "round", "end" or "turn"); return
    (the new JSON state, the outcome if the game has ended, else None)."""
    if until not in UNTIL:
        raise UserError(f"must be one of {', '.join(UNTIL)}, got {until!r}", key="until")
    players = state_io.players_of(state)
    g = Game(rs, players, policies, seed, game, log)
    g.load(state_io.load(g, state))
    if not g.ended:
        g.play(until)
    if until == "turn" and not g.ended and g.phase == "mutation" and not g.cursor:
        g.draw_lab()
    return g.to_state(), (g.outcome() if g.ended else None)
