"""The reference engine's decision interface (contract sections 2, 8, 13).

The engine never names a bot: each seat's policy object (strategies/capybara/) answers
`policy.choose(decision, view) -> option index` for every decision of section 8, asked
also with one option, never with zero. `decision.options` is the contract's list:

    OPENING        slot i
    ACTION         ("play", uid) ... then ("discard", uid) ...
    DISCARD_PLACE  (seat x, slot i)
    NEXT_CARD      None (= stop), then card uids
    PLACE          (seat x, slot i)        PLACE_OTHERS, COMPLETE, LOCK   slot i
    GATHER         (seat x, slot i)        COPY_TOKENS                    (source, destination)
    CANCEL, DOUBLE, CROWN_COMPLETE         0 (no), 1 (yes)
    PEEK           permutations of range(k), itertools order

`decision.info` holds the facts of the choice: effect decisions and DOUBLE {"card",
"effect", "amount", "colour"}; NEXT_CARD {"colour"}; CANCEL {"card", "player", "depth"
(0: the card of the turn; k: the k-th Capybaranka of the chain), "base": the turn card's
declared choice {"card", "effect", "amount", "colour", "actor", "option" (None if it
declared nothing)}}; CROWN_COMPLETE {"slot"}; PEEK {"k"}.
`decision.h` is the BOT-stream key(seed, game, BOT, turn, seat, d) (computed on demand).

`view` is the reference Game, read only: `view.P`, `view.comps`, `view.deck`,
`view.hands`, `view.discard`, `view.effective(uid)`, `view.effect_options(actor, effect,
amount, colour)`, `view.discard_place_options(actor)`, `view.board()` (a `Board`).

`Board` is the light table of contract 13's "after o": tokens, strikes' fatigue, supplies
and the fatigue taken, with `apply` playing an option as section 5 does, without what a bot
cannot see (no banned_colour gifts, no refill, no answers, doubling or draws).
"""
from __future__ import annotations

from dataclasses import dataclass

from ... import rng

KINDS = ("OPENING", "ACTION", "DISCARD_PLACE", "NEXT_CARD", "PLACE", "PLACE_OTHERS", "COMPLETE", "GATHER",
         "LOCK", "COPY_TOKENS", "CANCEL", "DOUBLE", "CROWN_COMPLETE", "PEEK")
# The decision kind of each effect word that takes a choice (section 5).
EFFECT_KIND = {"place": "PLACE", "place_others": "PLACE_OTHERS", "complete": "COMPLETE", "gather": "GATHER",
               "lock": "LOCK", "copy_tokens": "COPY_TOKENS"}


@dataclass
class Decision:
    """One choice point put to a seat's policy."""

    kind: str
    options: list
    seat: int
    turn: int        # 0 = setup
    index: int       # d: the seat's decision counter in this turn
    info: dict
    seed: int
    game: int

    @property
    def h(self):
        return rng.key(self.seed, self.game, rng.BOT, self.turn, self.seat, self.index)


@dataclass
class Board:
    """What a bot sees of the table (m slots, P seats); `apply` plays an option on a copy."""

    P: int
    tokens: list          # (m, P) tokens per slot per seat (0 on an empty slot)
    fatigue: list         # (m,) the strike's fatigue with its under-cards; None = empty slot
    locked: list          # (m,) bool
    banned: list          # (m,) the active banned colour of the strike, "" if none (shared by copies)
    doubled: list         # (m,) bool: an active double_tokens symbol (shared by copies)
    supply: list          # (P,)
    taken_fatigue: list   # (P,)
    factor: int           # p.double_tokens_factor

    def copy(self) -> "Board":
        """A board to change: its token rows are shared with this one until written (`row`)."""
        return Board(self.P, list(self.tokens), list(self.fatigue), list(self.locked), self.banned,
                     self.doubled, list(self.supply), list(self.taken_fatigue), self.factor)

    def row(self, i: int) -> list:
        """Slot i's tokens, to write: a fresh list (a copy's rows are shared until then)."""
        self.tokens[i] = list(self.tokens[i])
        return self.tokens[i]

    def leader(self, i: int):
        t = self.tokens[i]
        top = max(t)
        return t.index(top) if top >= 1 and t.count(top) == 1 else None

    def place(self, x: int, i: int, k: int) -> None:
        k = min(k, self.supply[x])
        self.supply[x] -= k
        self.row(i)[x] += k

    def take(self, i: int) -> None:
        """The leader takes slot i's strike (no gifts, no refill: the slot counts as empty)."""
        who = self.leader(i)
        self.taken_fatigue[who] += self.fatigue[i]
        for x in range(self.P):
            self.supply[x] += self.tokens[i][x]
        self.tokens[i] = [0] * self.P
        self.fatigue[i] = None
        self.locked[i] = False

    def removable(self, i: int, colour: str) -> bool:
        return self.fatigue[i] is not None and not self.locked[i] and self.banned[i] != colour

    def apply(self, effect: str, amount: int, colour: str, actor: int, option) -> "Board":
        """A copy of the board after `option` of `effect` (section 5)."""
        b = self.copy()
        if effect == "place":
            x, i = option
            b.place(x, i, amount * (b.factor if b.doubled[i] else 1))
        elif effect == "place_others":
            for k in range(1, b.P):
                b.place((actor + k) % b.P, option, amount * (b.factor if b.doubled[option] else 1))
        elif effect == "complete":
            b.take(option)
        elif effect == "gather":
            x, i = option
            for j in range(len(b.tokens)):
                if j != i and b.removable(j, colour) and b.tokens[j][x]:
                    b.row(i)[x] += b.tokens[j][x]
                    b.row(j)[x] = 0
        elif effect == "copy_tokens":
            src, dst = option
            for k in range(b.P):
                x = (actor + k) % b.P
                n = b.tokens[src][x] if amount == 0 else min(amount, b.tokens[src][x])
                b.place(x, dst, n)
        return b
