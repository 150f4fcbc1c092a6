"""Ernesto Capybara, the reference engine: one game at a time, straight from the rulebook.

The oracle the batch engine (rules.py) is checked against game by game, and the source
of the readable game log. It follows the engine contract (docs/games/capybara.md): every
shuffle uses the contract's chance address, every decision is asked in the contract's
order with the contract's option list (reference_decisions.py: the policy interface).

The state is plain Python: uids (state_io.components numbers the cards), hands as sorted
uid lists, slots as dicts {"strike", "under", "tokens", "locks"}. A `Game` holds one game:

    setup: strike row -> remove (2-3 players) -> deck -> deal -> cut -> opening tokens
    turn:  action (play cards of one colour | discard) -> discard the play -> crown step -> draw
    draw:  a Revolution is played at once; the last one ends the game

Strikes, effects, answers and symbols are in reference_effects.py (a mixin of `Game`).

Public functions (brief and contract 16): `play_one`, `new_state`, `run_state`. A round
(`until="round"`) is a table round: play on until seat P-1 has taken its turn (turn is a
multiple of P), or the end.
"""
from __future__ import annotations

import math

from ... import rng
from ...errors import UserError
from . import state_io
from .reference_decisions import EFFECT_KIND, Decision
from .reference_effects import Effects

UNTIL = ("turn", "round", "end")
K_STRIKES, K_REMOVED_COLOUR, K_DECK, K_PART = 1, 2, 3, 4
_COMPS: dict = {}       # rs.hash -> state_io.components(rs) (frozen): numbered once per ruleset, not per game


def components(rs) -> state_io.Components:
    if rs.hash not in _COMPS:
        _COMPS[rs.hash] = state_io.components(rs)
    return _COMPS[rs.hash]


class GameOver(Exception):
    """Raised when the last Revolution is played or boxed: nothing happens after it."""


class Game(Effects):
    """One game of Ernesto Capybara in plain Python state."""

    def __init__(self, rs, players: int, policies, seed: int, game: int, log=None):
        self.rs, self.p = rs, rs.params
        self.comps = components(rs)
        if not rs["players_min"] <= players <= rs["players_max"]:
            raise UserError(f"{players} players; this ruleset plays {rs['players_min']}..{rs['players_max']}",
                            key="players")
        policies = list(policies)
        if len(policies) != players:
            raise UserError(f"{players} players need {players} bots, got {len(policies)}", key="bots")
        self.P, self.m = players, players + self.p["strikes_extra"]
        self.policies, self.seed, self.game, self.log = policies, seed, game, log
        small = players <= self.p["small_game_max_players"]
        self.H = self.p["hand_size_small"] if small else self.p["hand_size"]
        self.counters: dict[int, int] = {}   # seat -> next d in the current turn
        self.answers, self.played_now, self.locked_now = [], [], []   # turn-local

    # ------------------------------------------------------------------ small helpers
    def say(self, line: str) -> None:
        if self.log is not None:
            self.log.append(line)

    def seat_name(self, s: int) -> str:
        return f"seat {s}"

    def strike_desc(self, i: int) -> str:
        sl = self.slots[i]
        names = [self.comps.strike_name[u] for u in [sl["strike"]] + sl["under"]]
        return " + ".join(names) + f" ({self.strike_fatigue(i)} fatigue)"

    def empty_slot(self) -> dict:
        return {"strike": None, "under": [], "tokens": [0] * self.P, "locks": []}

    def tally(self, seat: int, u: int) -> None:
        self.played[seat][self.comps.names.index(self.comps.card_name[u])] += 1

    def ask(self, seat: int, kind: str, options: list, info: dict) -> int:
        """Put a decision to the seat's policy; return the chosen option index."""
        d = self.counters.get(seat, 0)
        self.counters[seat] = d + 1
        dec = Decision(kind, options, seat, self.turn, d, info, self.seed, self.game)
        pick = self.policies[seat].choose(dec, self)
        if isinstance(pick, bool) or not isinstance(pick, int) or not 0 <= pick < len(options):
            raise UserError(f"the bot of seat {seat} answered {pick!r} to a {kind} decision with "
                            f"{len(options)} options", key="bots")
        return pick

    def shuffle(self, uids, ids, *address) -> list:
        """Contract 2: `uids` ordered by their shuffle addresses ids[uid] (ids None: the uid)."""
        uids = list(uids)
        if ids is None:
            return rng.shuffle_order(self.seed, self.game, rng.CHANCE, uids, *address)
        back = {ids[u]: u for u in uids}
        return [back[k] for k in rng.shuffle_order(self.seed, self.game, rng.CHANCE, [ids[u] for u in uids],
                                                   *address)]

    # ------------------------------------------------------------------ setup (3)
    def setup(self) -> None:
        p, comps, P = self.p, self.comps, self.P
        self.turn, self.current = 0, 0
        self.revolutions_played = self.revolutions_boxed = 0
        self.ended, self.end_reason, self.winners = False, None, []
        self.discard, self.hands = [], [[] for _ in range(P)]
        self.supply = [p["tokens_per_player"]] * P
        self.taken = [[] for _ in range(P)]
        self.played = [[0] * len(comps.names) for _ in range(P)]
        self.strike_deck = self.shuffle(range(len(comps.strike_name)), comps.strike_sid, K_STRIKES)
        self.slots = [self.empty_slot() for _ in range(self.m)]
        self.say(f"Setup: {P} players, {self.m} strike slots, hands of {self.H}")
        for i in range(self.m):
            self.refill(i)
        in_play = list(range(comps.n_capybara))
        self.removed = []
        if P <= p["small_game_max_players"]:
            colours = p["colours"]
            order = self.shuffle(range(len(colours)), None, K_REMOVED_COLOUR)
            gone = {colours[c] for c in order[:p["small_game_removed_colours"]]}
            cancels = [u for u in in_play if comps.card_effect[u] == "cancel"]
            gone_cancels = set(cancels[len(cancels) - p["small_game_removed_cancels"]:]) \
                if p["small_game_removed_cancels"] else set()
            self.removed = [u for u in in_play if comps.card_colour[u] in gone or u in gone_cancels]
            in_play = [u for u in in_play if u not in set(self.removed)]
            self.say(f"Removed: the {', '.join(sorted(gone))} cards and {len(gone_cancels)} Capybaranka(s)")
        deck = self.shuffle(in_play, comps.card_sid, K_DECK)
        for s in range(P):
            self.hands[s] = sorted(deck[s * self.H:(s + 1) * self.H])
            self.say(f"Deal: seat {s} gets {', '.join(comps.card_key[u] for u in self.hands[s])}")
        rest = deck[P * self.H:]
        R = p["revolutions"]
        q, r = divmod(len(rest), R)
        self.deck, start = [], 0
        for i in range(R):
            size = q + 1 if i < r else q
            part = rest[start:start + size] + [comps.n_capybara + i]
            start += size
            self.deck += self.shuffle(part, comps.card_sid, K_PART, i)
        self.say(f"The deck: {len(self.deck)} cards with {R} Revolutions")
        for s in reversed(range(P)):
            options = [i for i in range(self.m)
                       if self.slots[i]["strike"] is not None and not any(self.slots[i]["tokens"])]
            if not options:
                options = [i for i in range(self.m) if self.slots[i]["strike"] is not None]
            if options:
                i = options[self.ask(s, "OPENING", options, {})]
                self.say(f"Opening: seat {s} on slot {i}, {self.strike_desc(i)}")
                self.place(s, i, p["opening_tokens"])

    # ------------------------------------------------------------------ a turn (4)
    def play_turn(self) -> None:
        self.turn += 1
        a = self.current
        self.counters = {}
        self.answers, self.played_now, self.locked_now = [], [], []
        if self.log is not None:        # the hand's text costs more than the turn's rules
            self.say(f"Turn {self.turn}: seat {a} (hand {self.hand_text(a)})")
        try:
            self.action(a)
            self.discard_play(a)
            self.crown_step(a)
            self.draw(a)
        except GameOver:
            return
        self.current = (a + 1) % self.P

    def hand_text(self, s: int) -> str:
        return ", ".join(self.comps.card_key[u] for u in self.hands[s]) or "empty"

    def action(self, a: int) -> None:
        comps, hand = self.comps, self.hands[a]
        options = [("play", u) for u in hand if self.playable(a, u)] + [("discard", u) for u in hand]
        if not options:
            self.say("  empty hand: no action")
            return
        verb, u = options[self.ask(a, "ACTION", options, {})]
        if verb == "discard":
            hand.remove(u)
            self.discard.append(u)
            self.say(f"  seat {a} discards {comps.card_key[u]}")
            opts = self.discard_place_options(a)
            if opts:
                x, i = opts[self.ask(a, "DISCARD_PLACE", opts, {})]
                self.place(x, i, self.p["discard_place_tokens"])
            return
        colour = comps.card_colour[u]
        double = "crown_double" in self.p["symbols"] and self.leads(a, "crown_double")
        double_works = double and self.leads(a, "crown_double", live=True)
        self.play_card(a, u, colour, double, double_works)
        while True:
            same = [v for v in hand if comps.card_colour[v] == colour and self.playable(a, v)]
            if not same:
                break
            options = [None] + same
            pick = options[self.ask(a, "NEXT_CARD", options, {"colour": colour})]
            if pick is None:
                self.say(f"  seat {a} stops")
                break
            self.play_card(a, pick, colour, False, False)

    def playable(self, a: int, u: int) -> bool:
        """4 step 1: whether `play u` is an option of a now: a coloured card; an effective
        `complete` needs a strike with a leader; with no_effect_plays = forbidden every card
        needs an option for its effective effect."""
        colour = self.comps.card_colour[u]
        if not colour:
            return False
        effect, amount = self.effective(u)
        if effect != "complete" and self.p["no_effect_plays"] == "allowed":
            return True
        return effect in EFFECT_KIND and bool(self.effect_options(a, effect, amount, colour))

    def discard_place_options(self, a: int) -> list:
        seats = [(a + k) % self.P for k in range(self.P)]
        slots = [i for i in range(self.m) if self.slots[i]["strike"] is not None and not self.slots[i]["locks"]]
        return [(x, i) for x in seats if self.supply[x] >= 1 for i in slots]

    def play_card(self, a: int, u: int, colour: str, double: bool, double_works: bool) -> None:
        """4.1: play one card: tally, effective effect, declare, answers, apply, doubling.
        A knocked-out effect (the card's, or the crown x2's: `double_works` False) is declared,
        answered and repeated as if it worked, and never applied."""
        self.hands[a].remove(u)
        self.tally(a, u)
        self.played_now.append(u)
        effect, amount = self.effective(u)
        works = self.works(u)
        copied = f" (copying {effect})" if self.comps.card_effect[u] == "copy_card" else ""
        self.say(f"  seat {a} plays {self.comps.card_key[u]}{copied}")
        kind = EFFECT_KIND.get(effect)
        info = {"card": u, "effect": effect, "amount": amount, "colour": colour}
        option = None
        if kind:
            opts = self.effect_options(a, effect, amount, colour)
            if opts:
                option = opts[self.ask(a, kind, opts, info)]
                self.say(f"  declares {kind.lower()} {option}")
        base = dict(info, actor=a, option=option)
        if self.answer(u, a, 0, base):
            return
        if option is not None and works:
            self.apply_effect(a, u, effect, amount, colour, option)
        elif option is not None:
            self.say(f"  {self.comps.card_key[u]} is knocked out: nothing happens")
        if double and effect != "lock" and kind:
            for _ in range(self.p["crown_double_repeats"]):
                opts = self.effect_options(a, effect, amount, colour)
                if not opts or not self.ask(a, "DOUBLE", [0, 1], info):
                    break
                option = opts[self.ask(a, kind, opts, info)]
                self.say(f"  crown x2: again {kind.lower()} {option}")
                if works and double_works:
                    self.apply_effect(a, u, effect, amount, colour, option)

    def discard_play(self, a: int) -> None:
        """4 step 2: the turn's Capybarankas first, then a's cards in order, not the locks."""
        keep = [u for u in self.played_now if u not in self.locked_now]
        self.discard += self.answers + keep
        if self.answers or keep:
            self.say(f"  discarded: {', '.join(self.comps.card_key[u] for u in self.answers + keep)}")

    # ------------------------------------------------------------------ drawing (4.2)
    def draw(self, a: int) -> None:
        target, hand = self.H, self.hands[a]
        while len(hand) < target and self.deck:
            u = self.deck.pop(0)
            if not self.comps.is_revolution(u):
                self.add_to_hand(a, u)
                continue
            self.revolution(a)
            if self.revolutions_played + self.revolutions_boxed == self.p["revolutions"]:
                self.finish("revolution")
            if self.p["revolution_extra"] == "bonus":
                target += self.p["revolution_extra_cards"]
            for _ in range(self.p["revolution_extra_cards"]):
                self.extra_card(a)

    def add_to_hand(self, a: int, u: int) -> None:
        self.hands[a].append(u)
        self.hands[a].sort()
        self.say(f"  seat {a} draws {self.comps.card_key[u]}")

    def extra_card(self, a: int) -> None:
        """4.2 step 3: one extra card; Revolutions taken now are boxed (or the last resolved)."""
        R = self.p["revolutions"]
        while self.deck:
            u = self.deck.pop(0)
            if not self.comps.is_revolution(u):
                self.add_to_hand(a, u)
                return
            last = self.revolutions_played + self.revolutions_boxed == R - 1
            if last and self.p["boxed_last_revolution"] == "resolve":
                self.revolution(a)
                self.finish("revolution")
            self.revolutions_boxed += 1
            self.say("  the extra card is a Revolution: boxed")
            if last:
                self.finish("boxed")

    def revolution(self, a: int) -> None:
        """Section 9: locks end, distribution, refill, the card is boxed."""
        self.say(f"REVOLUTION (played by seat {a})")
        for sl in self.slots:
            if sl["locks"]:
                self.discard += sl["locks"]
                sl["locks"] = []
        emptied = []
        for i in range(self.m):
            if self.slots[i]["strike"] is None:
                continue
            if self.leader(i) is None:
                if self.log is not None:
                    self.say(f"  slot {i}: {self.strike_desc(i)} stays (tokens {self.slots[i]['tokens']})")
                continue
            self.take_strike(i)
            emptied.append(i)
        for i in emptied:
            self.refill(i)
        self.revolutions_played += 1
        self.say(f"  Revolutions played: {self.revolutions_played}")

    # ------------------------------------------------------------------ the end (10)
    def finish(self, reason: str) -> None:
        self.ended, self.end_reason = True, reason
        self.winners = self.best_seats()
        fat, left, count = self.fatigue(), self.tokens_left(), [len(t) for t in self.taken]
        self.say(f"The game ends ({reason}) after turn {self.turn}")
        for s in range(self.P):
            self.say(f"  seat {s}: {fat[s]} fatigue, {left[s]} tokens left, {count[s]} strikes"
                     + ("  WINNER" if s in self.winners else ""))
        raise GameOver

    def best_seats(self) -> list:
        """Section 10: fewest fatigue, then fewest tokens left, then fewest strike cards; ties share."""
        fat, left, count = self.fatigue(), self.tokens_left(), [len(t) for t in self.taken]
        keys = [(fat[s], left[s], count[s]) for s in range(self.P)]
        return [s for s in range(self.P) if keys[s] == min(keys)]

    def fatigue(self) -> list:
        return [sum(self.comps.strike_fatigue[u] for u in t) for t in self.taken]

    def tokens_left(self) -> list:
        return [sum(sl["tokens"][s] for sl in self.slots) for s in range(self.P)]

    def play(self, until: str) -> None:
        """Play turns until `until` ("turn", "round", "end") or the end of the game."""
        if until not in UNTIL:
            raise UserError(f"must be one of {', '.join(UNTIL)}, got {until!r}", key="until")
        while not self.ended:
            self.play_turn()
            self.record_standing()
            if until == "turn" or (until == "round" and self.turn % self.P == 0):
                return

    def record_standing(self) -> None:
        """The trajectory: -fatigue per seat after each table round, and at the end."""
        if self.turn % self.P == 0 or self.ended:
            while len(self.trajectory) < math.ceil(self.turn / self.P):
                self.trajectory.append([-f for f in self.fatigue()])
            self.trajectory[-1] = [-f for f in self.fatigue()]

    def outcome(self) -> dict:
        """Contract section 11 (one game)."""
        fat = self.fatigue()
        return {
            "fatigue": fat, "score": fat,
            "winner": [s in self.winners for s in range(self.P)],
            "rounds": math.ceil(self.turn / self.P),
            "end_reason": state_io.END_REASONS.index(self.end_reason),
            "played": [list(r) for r in self.played],
            "faction": list(range(self.P)),
            "tokens_left": self.tokens_left(), "strikes": [len(t) for t in self.taken],
            "turns": self.turn, "revolutions": self.revolutions_played, "boxed": self.revolutions_boxed,
            "trajectory": [list(r) for r in self.trajectory],
        }

    # ------------------------------------------------------------------ state in and out (15)
    FIELDS = ("turn", "current", "revolutions_played", "revolutions_boxed", "hands", "deck", "discard",
              "slots", "removed", "strike_deck", "supply", "taken", "played", "ended", "end_reason", "winners")

    def load(self, f: dict) -> None:
        for name in self.FIELDS:
            setattr(self, name, f[name])
        if self.ended:      # the winners follow from the table, whatever the file says
            self.winners = self.best_seats()
        self.trajectory = []

    def to_state(self) -> dict:
        return state_io.dump(self.comps, dict({n: getattr(self, n) for n in self.FIELDS}, players=self.P))


def _new(rs, players, policies, seed, game, log) -> Game:
    g = Game(rs, players, policies, seed, game, log)
    g.trajectory = []
    g.setup()
    return g


def play_one(rs, players: int, policies, seed: int, game: int, log=None) -> dict:
    """Play game `game` of run `seed` from setup to the end; return its outcome (section 11).

    `policies`: one reference policy per seat (reference_decisions.py). `log`: a list that
    receives one readable line per event.
    """
    g = _new(rs, players, policies, seed, game, log)
    g.play("end")
    return g.outcome()


def new_state(rs, players: int, policies, seed: int, game: int) -> dict:
    """The JSON state (section 15) of game `game` of run `seed` just after setup."""
    return _new(rs, players, policies, seed, game, None).to_state()


def run_state(rs, state: dict, policies, seed: int, game: int, until: str, log=None):
    """Load a JSON state, play on to `until` ("turn", "round" or "end"); return
    (the new JSON state, the outcome if the game has ended, else None)."""
    if until not in UNTIL:
        raise UserError(f"must be one of {', '.join(UNTIL)}, got {until!r}", key="until")
    f = state_io.resolve(rs, components(rs), state)
    g = Game(rs, f["players"], policies, seed, game, log)
    g.load(f)
    if not g.ended:
        g.play(until)
    return g.to_state(), (g.outcome() if g.ended else None)
