"""Evolution, one game at a time, in plain Python: the oracle for the batch engine.

Written straight from the rules (rulebook + RULES-NOTES.md + the cs4500 README); every
rule number comes from `Rules`. Draws come from simcore.rng with the addresses in
`addresses.py`, in the same order as the batch engine, so both play identical games.

State: `Game` holds `Player`s, each with an ordered list of `Species` (index 0 = leftmost;
"the species to its right" is index + 1). Cards are ids into `Cards` (see ruleset.py).
Food tokens outside the Food Bank are counted in `bank_out`, so
wh + food + fat + bags == bank_out always holds.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from simcore import rng

from . import addresses as A
from .schema import Cards, Rules
from .traits import (AMBUSH, BURROWING, CARNIVORE, CLIMBING, COOPERATION, FAT_TISSUE, FERTILE,
                     FORAGING, HARD_SHELL, HERDING, HORNS, INTELLIGENCE, LONG_NECK, NEGATABLE,
                     PACK_HUNTING, SCAVENGER, SYMBIOSIS, TRAITS, WARNING_CALL)

WATERING_HOLE = "watering_hole"
BANK = "bank"


@dataclass
class Species:
    """One species board."""

    food: int = 0
    body: int = 0
    pop: int = 1
    traits: list = field(default_factory=list)   # card ids, in play order
    fat: int = 0                                   # food stored on Fat Tissue


@dataclass
class Player:
    pid: int
    species: list = field(default_factory=list)   # Species, left to right
    bag: int = 0
    hand: list = field(default_factory=list)      # card ids
    played: list = field(default_factory=lambda: [0] * len(TRAITS))  # trait cards played, per trait id


@dataclass
class Game:
    rules: Rules
    cards: Cards
    players: list
    wh: int = 0                                    # plant food on the Watering Hole
    deck: list = field(default_factory=list)      # card ids, index 0 = top
    discard: list = field(default_factory=list)
    bank_out: int = 0
    first: int = 0                                 # seat of the first player
    round: int = 0
    final_round: int = 1 << 30                     # index of the last round to play
    end_reason: int = -1
    shuffles: int = 0
    seed: int = 0
    game_index: int = 0
    log: list | None = None

    def __post_init__(self):
        self.kinds = self.cards.kind.tolist()     # plain ints: fast lookups in the hot path
        # the rules see a knocked-out trait's cards as no trait (-1); bots read `kinds`
        live = self.cards.active.tolist()
        self.live_kinds = [k if live[k] else -1 for k in self.kinds]
        self.uids = self.cards.uid.tolist()
        self.card_of_uid = {u: c for c, u in enumerate(self.uids)}

    def shuffle(self, cards) -> list:
        """`cards` shuffled at (SHUFFLE, shuffles): sorted by the keys of their stable uids,
        ties by card id (the batch engine's order)."""
        uids = [self.uids[c] for c in sorted(cards)]
        order = rng.shuffle_order(self.seed, self.game_index, rng.CHANCE, uids, A.SHUFFLE,
                                  self.shuffles)
        self.shuffles += 1
        return [self.card_of_uid[u] for u in order]

    def kind(self, card: int) -> int:
        return self.kinds[card]

    def has(self, sp: Species, trait: int) -> bool:
        """The species carries a card of `trait` (what the bots see, knocked out or not)."""
        kinds = self.kinds
        for c in sp.traits:
            if kinds[c] == trait:
                return True
        return False

    def works(self, sp: Species, trait: int) -> bool:
        """The species has `trait` and its effect is on (not knocked out): the rules' test."""
        kinds = self.live_kinds
        for c in sp.traits:
            if kinds[c] == trait:
                return True
        return False

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def say_at(self, mark: int, text: str) -> None:
        """Put a log line at position `mark` (from `len(log)` taken earlier): an action's
        line goes before the lines its consequences (extinctions) wrote meanwhile."""
        if self.log is not None:
            self.log.insert(mark, text)


# ---------------------------------------------------------------- log formatting
# Only used under `if g.log is not None`: none of this runs when no log is requested.

END_TEXT = {
    A.END_DECK_EMPTY: "the deck ran out while dealing, so that round was the last",
    A.END_RESHUFFLE: "extinction draws emptied the deck: the discards were reshuffled "
                     "for one last round",
    A.END_MAX_ROUNDS: "the round limit (max_rounds) was reached",
    A.END_DECK_SHORT: "the deck could not deal a whole round",
}


def trait_name(trait: int) -> str:
    """"fat-tissue" -> "Fat Tissue"."""
    return TRAITS[trait].replace("-", " ").title()


def card_name(g: Game, card: int) -> str:
    """A card as printed: its trait and food value, e.g. "Carnivore (3)"."""
    return f"{trait_name(g.kind(card))} ({int(g.cards.food[card])})"


def card_list(g: Game, cards) -> str:
    return ", ".join(card_name(g, c) for c in cards) or "no cards"


def _rnd(g: Game) -> str:
    return f"Round {g.round + 1}"


def _trait_names(g: Game, sp: Species) -> str:
    return ", ".join(trait_name(g.kind(c)) for c in sp.traits)


def species_text(g: Game, sp: Species) -> str:
    """"body 2, population 1, food 0: Horns, Climbing"."""
    text = f"body {sp.body}, population {sp.pop}, food {sp.food}"
    if sp.fat:
        text += f", fat {sp.fat}"
    names = _trait_names(g, sp)
    return f"{text}: {names}" if names else text


def board_text(g: Game, p: Player) -> str:
    if not p.species:
        return f"P{p.pid}: no species"
    return f"P{p.pid}: " + " | ".join(f"species {i} ({species_text(g, sp)})"
                                      for i, sp in enumerate(p.species))


def _food_snapshot(g: Game) -> list:
    """(player, species, food + fat) for every species on the table."""
    return [(p, sp, sp.food + sp.fat) for p in g.players for sp in p.species]


def _gains(before: list, skip=None) -> list:
    """"P1's species 1 +1"-style texts for species that gained food since `before`."""
    out = []
    for p, sp, had in before:
        if sp is skip or not any(s is sp for s in p.species):
            continue
        if sp.food + sp.fat > had:
            out.append(f"P{p.pid}'s species {index_of(p, sp)} +{sp.food + sp.fat - had}")
    return out


def _gain_of(before: list, sp: Species) -> int:
    for _, s, had in before:
        if s is sp:
            return sp.food + sp.fat - had
    return 0


# ---------------------------------------------------------------- attack legality

def attack_size(g: Game, att: Species) -> int:
    r = g.rules
    size = att.body
    if g.works(att, PACK_HUNTING):
        size += r.pack_hunting_bonus + (att.pop if r.pack_hunting_adds_population else 0)
    return size


def can_attack(g: Game, att: Species, dfd: Species, left, right, negate: int = -1) -> bool:
    """May carnivore `att` attack `dfd` whose owner's neighbours are `left`/`right` (or None)?

    `negate` is a defensive trait an Intelligence carnivore ignores for this attack.
    """
    r = g.rules
    if att is dfd or not g.works(att, CARNIVORE):
        return False

    def d(trait):
        return trait != negate and g.works(dfd, trait)

    hard_shell = d(HARD_SHELL)
    defender_size = dfd.body + (r.hard_shell_bonus if hard_shell else 0)
    size_applies = r.size_rule == "always" or hard_shell
    if size_applies and attack_size(g, att) < defender_size + r.size_margin:
        return False
    if d(CLIMBING) and not g.works(att, CLIMBING):
        return False
    if d(BURROWING) and dfd.food == dfd.pop:
        return False
    if d(HERDING) and (dfd.pop >= att.pop
                       or (r.herding_needs_larger_body and dfd.body >= att.body)):
        return False
    warned = any(n is not None and g.works(n, WARNING_CALL) for n in (left, right))
    if warned and negate != WARNING_CALL and not g.works(att, AMBUSH):
        return False
    if d(SYMBIOSIS) and right is not None and right.body > dfd.body:
        return False
    return True


def neighbours(species: list, i: int):
    return (species[i - 1] if i > 0 else None,
            species[i + 1] if i + 1 < len(species) else None)


def can_attack_at(g: Game, att: Species, owner: Player, i: int, negate: int = -1) -> bool:
    left, right = neighbours(owner.species, i)
    return can_attack(g, att, owner.species[i], left, right, negate)


# ---------------------------------------------------------------- taking food

def capacity(g: Game, sp: Species, meat: bool) -> int:
    """How many tokens `sp` can take now (hunger, plus fat room if it stores on eating)."""
    r = g.rules
    if not meat and r.carnivores_refuse_plant and g.works(sp, CARNIVORE):
        return 0
    room = sp.pop - sp.food
    if r.fat_stores_on_eating and g.works(sp, FAT_TISSUE):
        room += sp.body - sp.fat
    return room


def _available(g: Game, source: str) -> int:
    return g.wh if source == WATERING_HOLE else 1 << 30


def _take(g: Game, sp: Species, n: int, source: str) -> None:
    to_food = min(n, sp.pop - sp.food)
    sp.food += to_food
    sp.fat += n - to_food
    if source == WATERING_HOLE:
        g.wh -= n
    else:
        g.bank_out += n


def feed(g: Game, player: Player, i: int, source: str, meat: bool, amount: int = 1) -> bool:
    """Species i of `player` takes up to `amount` food from `source`, then Foraging's extra,
    then Cooperation passes food to its right neighbour (depth first). True if it ate."""
    r = g.rules
    sp = player.species[i]
    n = min(amount, capacity(g, sp, meat), _available(g, source))
    if n <= 0:
        return False
    _take(g, sp, n, source)
    if g.works(sp, FORAGING) and (r.foraging_any_food or not meat):
        m = min(r.foraging_extra, capacity(g, sp, meat), _available(g, source))
        if m > 0:
            _take(g, sp, m, source)
            n += m
    shares = n if r.cooperation_per_token else 1
    if g.works(sp, COOPERATION) and i + 1 < len(player.species):
        for _ in range(shares):
            feed(g, player, i + 1, source, meat, 1)
    return True


def store_fat(g: Game, player: Player, i: int) -> None:
    """cs4500 fat-tissue choice: store as much as fits from the Watering Hole, no traits."""
    sp = player.species[i]
    n = min(sp.body - sp.fat, g.wh)
    sp.fat += n
    g.wh -= n


# ---------------------------------------------------------------- cards and extinction

def set_final_round(g: Game, final: int, reason: int) -> None:
    if final < g.final_round:
        g.final_round = final
        g.end_reason = reason


def draw(g: Game, n: int) -> list:
    """Draw n cards from the top; an empty deck reshuffles the discards if the rules say so
    (and makes the next round the last)."""
    out = []
    for _ in range(n):
        if not g.deck and g.rules.reshuffle_discards and g.discard:
            reshuffle(g)
        if not g.deck:
            break
        out.append(g.deck.pop(0))
    return out


def reshuffle(g: Game) -> None:
    g.deck = g.shuffle(g.discard)
    g.discard = []
    set_final_round(g, g.round + 1, A.END_RESHUFFLE)
    if g.log is not None:
        g.say(f"{_rnd(g)} · Deck empty: the discards ({len(g.deck)} cards) are reshuffled "
              f"into a new deck; the next round is the last")


def go_extinct(g: Game, player: Player, sp: Species) -> None:
    """Remove an extinct species: traits to the discards, food back to the bank, draw cards."""
    r = g.rules
    idx = next(k for k, s in enumerate(player.species) if s is sp)
    del player.species[idx]
    traits = _trait_names(g, sp) if g.log is not None else ""
    g.discard.extend(sp.traits)
    g.bank_out -= sp.food + sp.fat
    n = r.extinction_cards_flat + r.extinction_cards_per_trait * len(sp.traits)
    drawn = draw(g, n)
    player.hand[:0] = drawn           # drawn cards go in front (the cs4500 cases' order)
    if g.log is not None:
        lost = f" ({traits} to the discards)" if traits else ""
        got = f"draws {card_list(g, drawn)}" if drawn else "draws nothing"
        short = f" (deck short: {len(drawn)} of {n})" if len(drawn) < n else ""
        g.say(f"{_rnd(g)} · Extinction: P{player.pid}'s species {idx} dies out{lost}; "
              f"P{player.pid} {got}{short}")


def lose_population(g: Game, player: Player, sp: Species) -> bool:
    """One population lost; True if the species went extinct."""
    sp.pop -= 1
    if sp.food > sp.pop:
        g.bank_out -= sp.food - sp.pop
        sp.food = sp.pop
    if sp.pop <= 0:
        go_extinct(g, player, sp)
        return True
    return False


# ---------------------------------------------------------------- feeding actions

def index_of(player: Player, sp: Species) -> int:
    return next(k for k, s in enumerate(player.species) if s is sp)


def attack(g: Game, seat: int, a: int, target: int, d: int) -> None:
    """Species a of `seat` attacks species d of seat `target` (legality checked before)."""
    r = g.rules
    me, owner = g.players[seat], g.players[target]
    att, dfd = me.species[a], owner.species[d]
    meat = dfd.body if r.attack_meat == "defender_body" else 1
    horns = g.works(dfd, HORNS)
    lose_population(g, owner, dfd)
    attacker_died = horns and lose_population(g, me, att)
    ate = (not attacker_died) and feed(g, me, index_of(me, att), r.meat_source, True, meat)
    if ate or not r.scavenge_needs_attacker_fed:
        feed_scavengers(g, seat)


def feed_scavengers(g: Game, seat: int) -> None:
    """Every Scavenger, from the attacking player clockwise, takes 1 meat."""
    n = len(g.players)
    for k in range(n):
        p = g.players[(seat + k) % n]
        for i in range(len(p.species)):
            if i < len(p.species) and g.works(p.species[i], SCAVENGER):
                feed(g, p, i, g.rules.meat_source, True, 1)


def discard_for_intelligence(g: Game, player: Player) -> None:
    card = min(player.hand)            # the rules discard the lowest card id (no choice)
    player.hand.remove(card)
    g.discard.append(card)


def apply_option(g: Game, seat: int, opt: tuple) -> None:
    """Carry out one feeding option (see `feeding_options`)."""
    kind = opt[0]
    p = g.players[seat]
    if kind == "veg":
        feed(g, p, opt[1], WATERING_HOLE, False, 1)
    elif kind == "store":
        store_fat(g, p, opt[1])
    elif kind == "intel":
        discard_for_intelligence(g, p)
        feed(g, p, opt[1], BANK, False, g.rules.intelligence_bank_food)
    elif kind == "attack":
        _, a, q, d, negate = opt
        if negate >= 0:
            discard_for_intelligence(g, p)
        attack(g, seat, a, q, d)


def attack_targets(g: Game, seat: int, a: int, negate: int = -1) -> list:
    """(target seat, species index) pairs species a of `seat` may attack, seats in absolute order."""
    me = g.players[seat]
    att = me.species[a]
    out = []
    for q, owner in enumerate(g.players):
        if q == seat and not g.rules.attack_own_species:
            continue
        for d in range(len(owner.species)):
            if can_attack_at(g, att, owner, d, negate):
                out.append((q, d))
    return out


def intel_negation(g: Game, seat: int, a: int, q: int, d: int) -> int:
    """The first negatable trait whose negation makes an otherwise illegal attack legal."""
    owner = g.players[q]
    att = g.players[seat].species[a]
    for t in NEGATABLE:
        if can_attack_at(g, att, owner, d, t):
            return t
    return -1


def feeding_options(g: Game, seat: int) -> list:
    """Every legal feeding option of `seat`, in the canonical order both engines share:
    forgo, veg s, store s, intel s, attack (s, q, d), intelligence attack (s, q, d)."""
    r = g.rules
    p = g.players[seat]
    S = len(p.species)
    veg = [s for s in range(S) if g.wh > 0 and not g.works(p.species[s], CARNIVORE)
           and capacity(g, p.species[s], False) > 0]
    store = [s for s in range(S) if r.fat_store_action and g.works(p.species[s], FAT_TISSUE)
             and p.species[s].body - p.species[s].fat > 0]
    has_card = len(p.hand) > 0
    intel = [s for s in range(S) if has_card and g.works(p.species[s], INTELLIGENCE)
             and not g.works(p.species[s], CARNIVORE) and capacity(g, p.species[s], False) > 0]
    hungry_carn = [s for s in range(S) if g.works(p.species[s], CARNIVORE)
                   and capacity(g, p.species[s], True) > 0]
    attacks, intel_attacks = [], []
    for s in hungry_carn:
        legal = set(attack_targets(g, seat, s))
        attacks += [("attack", s, q, d, -1) for q, d in sorted(legal)]
        if has_card and g.works(p.species[s], INTELLIGENCE):
            for q, owner in enumerate(g.players):
                if q == seat and not r.attack_own_species:
                    continue
                for d in range(len(owner.species)):
                    if (q, d) in legal:
                        continue
                    t = intel_negation(g, seat, s, q, d)
                    if t >= 0:
                        intel_attacks.append(("attack", s, q, d, t))
    acts = ([("veg", s) for s in veg] + [("store", s) for s in store]
            + [("intel", s) for s in intel] + attacks + intel_attacks)
    forgo_ok = not (r.forgo_needs_no_plant_option and veg) and \
        not (r.carnivore_must_attack and attacks)
    return ([("forgo",)] if forgo_ok or not acts else []) + acts


OUT, FED, PASSED = 0, 1, 2      # outcomes of a feeding turn (OUT: out of this feeding)


def can_ever_eat(g: Game, player: Player) -> bool:
    """Some species of `player` still has room for food (or, where storing is its own
    action, for fat). Room only shrinks during feeding, so a player without any is done
    for this feeding: it leaves the turn order at once."""
    r = g.rules
    return any(capacity(g, sp, True) > 0
               or (r.fat_store_action and g.works(sp, FAT_TISSUE) and sp.body > sp.fat)
               for sp in player.species)


def feeding_turn(g: Game, seat: int, bot, turn: int) -> int:
    """One feeding turn of `seat`: FED (it took an option), PASSED (no option this turn;
    asked again later) or OUT (forgoes, or can never eat again, or has no option where
    the rules put such a player out: `no_option_is_out`). FED and PASSED are truthy.
    Where feeding ends at an empty Watering Hole, a turn there changes nothing."""
    if g.rules.feeding_stops_when_watering_hole_empty and g.wh <= 0:
        return OUT
    opts = feeding_options(g, seat)
    acts = [o for o in opts if o[0] != "forgo"]
    if not acts:
        if g.rules.no_option_is_out or not can_ever_eat(g, g.players[seat]):
            return OUT
        return PASSED
    if g.rules.auto_feed_single_option and len(acts) == 1:
        choice = acts[0]
    else:
        choice = bot.choose_feeding(g, seat, opts, turn)
    if choice[0] == "forgo":
        if g.log is not None:
            g.say(f"{_rnd(g)} · Feeding: P{g.players[seat].pid} forgoes feeding "
                  f"(out of this feeding)")
        return OUT
    if g.log is None:
        apply_option(g, seat, choice)
        return FED
    mark, before, text = len(g.log), _food_snapshot(g), _option_text_before(g, seat, choice)
    apply_option(g, seat, choice)
    g.say_at(mark, f"{_rnd(g)} · Feeding: " + _option_text_after(g, seat, choice, before, text))
    return FED


def _option_text_before(g: Game, seat: int, opt: tuple) -> dict:
    """What a feeding option's line needs from the position before it is carried out."""
    p = g.players[seat]
    out = {"hand_min": min(p.hand) if p.hand else None, "wh": g.wh}
    if opt[0] == "attack":
        _, a, q, d, negate = opt
        att, dfd = p.species[a], g.players[q].species[d]
        out.update(att=att, dfd=dfd, dfd_pop=dfd.pop, att_pop=att.pop,
                   horns=g.works(dfd, HORNS), size=attack_size(g, att))
    else:
        out["sp"] = p.species[opt[1]]
    return out


def _option_text_after(g: Game, seat: int, opt: tuple, before: list, b: dict) -> str:
    """The readable line of a feeding option, from the positions before and after it."""
    p = g.players[seat]
    me = f"P{p.pid}"
    kind = opt[0]
    if kind == "attack":
        _, a, q, d, negate = opt
        att, dfd, owner = b["att"], b["dfd"], g.players[q]
        size = f", attack {b['size']}" if b["size"] != att.body else ""
        dtraits = _trait_names(g, dfd)
        text = (f"{me}'s species {a} (carnivore, body {att.body}{size}) attacks "
                f"P{owner.pid}'s species {d} (body {dfd.body}"
                f"{', ' + dtraits if dtraits else ''})")
        if negate >= 0:
            text = (f"{me} discards {card_name(g, b['hand_min'])} (Intelligence: ignores "
                    f"{trait_name(negate)}); " + text)
        alive = any(s is dfd for s in owner.species)
        text += (f": P{owner.pid} loses 1 population"
                 + (f" (now {dfd.pop})" if alive else " (the species dies out)"))
        if b["horns"]:
            att_alive = any(s is att for s in p.species)
            text += (f"; Horns: {me}'s species {a} loses 1 population"
                     + (f" (now {att.pop})" if att_alive else " and dies out"))
        meat = _gain_of(before, att) if any(s is att for s in p.species) else 0
        text += f", {me} takes {meat} meat" if meat else f", {me} takes no meat"
        if any(s is att for s in p.species):
            text += f" (food {att.food}/{att.pop})"
        others = _gains(before, skip=att)
        if others:
            text += "; also fed (cooperation/scavengers): " + ", ".join(others)
        return text
    sp = b["sp"]
    i = index_of(p, sp)
    got = _gain_of(before, sp)
    if kind == "veg":
        text = (f"{me}'s species {i} takes {got} plant food (Watering Hole {g.wh})"
                f" -> food {sp.food}/{sp.pop}")
    elif kind == "store":
        text = (f"{me}'s species {i} stores {got} food as fat (Fat Tissue; Watering Hole "
                f"{g.wh}) -> fat {sp.fat}/{sp.body}")
    else:   # intel
        text = (f"{me} discards {card_name(g, b['hand_min'])} (Intelligence) and species {i} "
                f"takes {got} food from the bank -> food {sp.food}/{sp.pop}")
    if sp.fat and kind != "store":
        text += f", fat {sp.fat}"
    others = _gains(before, skip=sp)
    if others:
        text += "; also fed (foraging/cooperation): " + ", ".join(others)
    return text


def has_choice(g: Game, seat: int) -> bool:
    """Whether seat's next feeding turn asks its bot to choose among two or more options
    (feeding_turn's tests, in its order)."""
    if g.rules.feeding_stops_when_watering_hole_empty and g.wh <= 0:
        return False
    opts = feeding_options(g, seat)
    acts = [o for o in opts if o[0] != "forgo"]
    return len(opts) >= 2 and len(acts) >= 1 and not (g.rules.auto_feed_single_option and len(acts) == 1)


def feeding(g: Game, bots, place=None, stop: bool = False):
    """Feeding turns from the first player clockwise until nobody can (or will) feed: every
    player is out, or every player still in has passed in a row ("Feeding ends when no
    species can eat"). A player with no room for food left is out at once (room only
    shrinks), so it takes no more turns.

    For the searches' decision points (scenario.py until="feed"): `place` ({"queue": the
    seats still in, from the one to play, "passes", "turns"}) resumes a feeding there,
    playing its first turn; with `stop`, the feeding stops before the next turn that asks
    a bot to choose (a fresh feeding checks its first turn too) and returns that turn's place. None
    when the feeding ended."""
    n = len(g.players)
    if place is None:
        seats = [(g.first + k) % n for k in range(n)]
        order = deque(s for s in seats if can_ever_eat(g, g.players[s]))
        if g.log is not None:
            names = ", ".join(f"P{g.players[s].pid}" for s in order) or "nobody"
            g.say(f"{_rnd(g)} · Feeding starts: Watering Hole {g.wh}; turn order {names}")
        turn = 0
        passes = 0                   # turns in a row on which a player still in passed
    else:
        order, passes, turn = deque(place["queue"]), place["passes"], place["turns"]
    check = place is None
    while order and passes < len(order) and (
            g.wh > 0 or not g.rules.feeding_stops_when_watering_hole_empty):
        seat = order[0]
        if stop and check and has_choice(g, seat):
            return {"queue": list(order), "passes": passes, "turns": turn}
        check = True
        outcome = feeding_turn(g, seat, bots[seat], turn)
        if outcome == FED:
            passes = 0
        elif outcome == PASSED:
            passes += 1
        if outcome == OUT or (outcome == FED and not can_ever_eat(g, g.players[seat])):
            order.popleft()
        else:
            order.rotate(-1)
        turn += 1
    if g.log is not None:
        g.say(f"{_rnd(g)} · Feeding ends: Watering Hole {g.wh} left")
    return None


# ---------------------------------------------------------------- reveal

def reveal_effects(g: Game, pre_food: bool = False) -> None:
    """Reveal-time traits, each for every player from the first, in `reveal_order`: those
    the rules time before the food cards are added (`reveal_before_food`; pre_food=True),
    or the others, after them (pre_food=False)."""
    r = g.rules
    n = len(g.players)
    seats = [(g.first + k) % n for k in range(n)]
    for name in r.reveal_order:
        if (name in r.reveal_before_food) != pre_food:
            continue
        for seat in seats:
            p = g.players[seat]
            for i, sp in enumerate(p.species):
                if name == "fertile" and g.works(sp, FERTILE):
                    if not r.fertile_needs_plant_food or g.wh > 0:
                        had = sp.pop
                        sp.pop = min(sp.pop + 1, r.max_population)
                        if g.log is not None and sp.pop > had:
                            g.say(f"{_rnd(g)} · Reveal: P{p.pid}'s species {i} (Fertile) grows "
                                  f"to population {sp.pop}")
                elif name == "long-neck" and g.works(sp, LONG_NECK):
                    before = _food_snapshot(g) if g.log is not None else None
                    feed(g, p, i, r.long_neck_source, False, 1)
                    if before is not None and _gain_of(before, sp) > 0:
                        others = _gains(before, skip=sp)
                        g.say(f"{_rnd(g)} · Reveal: P{p.pid}'s species {i} (Long Neck) takes "
                              f"{_gain_of(before, sp)} food (Watering Hole {g.wh})"
                              + ("; also fed: " + ", ".join(others) if others else ""))
                elif name == "fat-tissue" and g.works(sp, FAT_TISSUE):
                    moved = min(sp.fat, sp.pop - sp.food)
                    sp.fat -= moved
                    sp.food += moved
                    if g.log is not None and moved > 0:
                        g.say(f"{_rnd(g)} · Reveal: P{p.pid}'s species {i} (Fat Tissue) moves "
                              f"{moved} stored fat to food (food {sp.food}/{sp.pop})")


def add_food_cards(g: Game, foods: list) -> None:
    """Food card values onto the Watering Hole (one by one or summed, never below 0)."""
    before = g.wh
    if g.rules.food_clamp_each_card:
        for f in foods:
            g.wh = max(0, g.wh + f)
    else:
        g.wh = max(0, g.wh + sum(foods))
    g.bank_out += g.wh - before


# ---------------------------------------------------------------- card play

def new_species(g: Game) -> Species:
    r = g.rules
    return Species(food=0, body=r.new_species_body, pop=r.new_species_population)


def play_action(g: Game, p: Player, act: tuple) -> bool:
    """Apply one card action; an illegal one is skipped (card stays in hand). True if applied.

    ("new", card, side)  side 0 = right end, 1 = left end
    ("trait", card, species, slot)  slot -1 adds, else replaces that trait
    ("pop", card, species) / ("body", card, species)
    """
    r = g.rules
    kind, card = act[0], act[1]
    if card not in p.hand:
        return False
    if kind == "new":
        side = act[2]
        if len(p.species) >= r.species_slots or (side == 1 and r.new_species_sides != "both"):
            return False
        if side == 1:
            p.species.insert(0, new_species(g))
        else:
            p.species.append(new_species(g))
    elif kind == "trait":
        s, slot = act[2], act[3]
        if not 0 <= s < len(p.species):
            return False
        sp = p.species[s]
        others = [c for k, c in enumerate(sp.traits) if k != slot]
        if any(g.kind(c) == g.kind(card) for c in others):
            return False
        if slot < 0:
            if len(sp.traits) >= r.max_traits:
                return False
            sp.traits.append(card)
        else:
            if slot >= len(sp.traits):
                return False
            old = sp.traits[slot]
            sp.traits[slot] = card
            g.discard.append(old)
            if g.kind(old) == FAT_TISSUE and g.kind(card) != FAT_TISSUE:
                g.bank_out -= sp.fat
                sp.fat = 0
        p.played[g.kind(card)] += 1
        p.hand.remove(card)
        return True
    elif kind in ("pop", "body"):
        s = act[2]
        if not 0 <= s < len(p.species):
            return False
        sp = p.species[s]
        at_cap = sp.pop >= r.max_population if kind == "pop" else sp.body >= r.max_body
        if at_cap:                  # "A species cannot go beyond Size 7 or Population 7": not a play
            return False
        if kind == "pop":
            sp.pop += 1
        else:
            sp.body += 1
    else:
        return False
    p.hand.remove(card)
    g.discard.append(card)
    return True


# ---------------------------------------------------------------- end of feeding

def end_feeding(g: Game) -> None:
    """Population drops to food eaten; food to bags; extinct species leave (cards drawn)."""
    n = len(g.players)
    for k in range(n):
        p = g.players[(g.first + k) % n]
        if g.log is not None:
            pops = ", ".join(f"species {i} stays at {sp.pop}" if sp.food == sp.pop else
                             f"species {i} {sp.pop} -> {sp.food}"
                             + (" (dies out)" if sp.food == 0 else "")
                             for i, sp in enumerate(p.species)) or "no species"
            eaten = sum(sp.food for sp in p.species)
            g.say(f"{_rnd(g)} · End of feeding: P{p.pid}: populations reduced to food eaten "
                  f"({pops}); {eaten} food into the bag (bag {p.bag + eaten})")
        dead = []
        for sp in p.species:
            sp.pop = sp.food
            p.bag += sp.food
            sp.food = 0
            if sp.pop == 0:
                dead.append(sp)
        for sp in dead:
            go_extinct(g, p, sp)


# ---------------------------------------------------------------- whole game

def deal_need(g: Game, p: Player) -> int:
    r = g.rules
    n_species = max(len(p.species), 1 if r.free_species_when_none else 0)
    return r.hand_deal_base + r.hand_deal_per_species * n_species


def deal(g: Game) -> bool:
    """Free species + deal. False if the game ends before this round (cs4500 rule)."""
    r = g.rules
    n = len(g.players)
    seats = [(g.first + k) % n for k in range(n)]
    if g.log is not None:
        g.say(f"{_rnd(g)} · Start: first player P{g.players[g.first].pid}; deck {len(g.deck)} "
              f"cards; Watering Hole {g.wh}")
    if r.deal_end_rule == "stop_unless_deck_exceeds_need":
        if len(g.deck) <= sum(deal_need(g, g.players[s]) for s in seats):
            g.end_reason = A.END_DECK_SHORT
            if g.log is not None:
                g.say(f"{_rnd(g)} · Deal: the deck ({len(g.deck)} cards) cannot deal a whole "
                      f"round ({sum(deal_need(g, g.players[s]) for s in seats)} needed): "
                      f"the game ends")
            return False
    for s in seats:
        p = g.players[s]
        free = False
        if not p.species and r.free_species_when_none:
            p.species.append(new_species(g))
            free = True
        need = deal_need(g, p)
        if g.log is not None:
            dealt = g.deck[:need]
            g.say(f"{_rnd(g)} · Deal: P{p.pid} gets "
                  + ("a free species and " if free else "")
                  + (card_list(g, sorted(dealt)) if dealt else "no cards")
                  + (f" (deck short: {len(dealt)} of {need})" if len(dealt) < need else ""))
        p.hand.extend(g.deck[:need])
        del g.deck[:need]
    if not g.deck:                   # the deck ran out while dealing: the last round
        set_final_round(g, g.round, A.END_DECK_EMPTY)
        if g.log is not None:
            g.say(f"{_rnd(g)} · Deal: the deck is empty: this is the last round")
    for p in g.players:
        p.hand.sort()
    return True


def play_round(g: Game, bots) -> bool:
    """One round. False if the game ended before it could be played."""
    n = len(g.players)
    if not deal(g):
        return False
    if g.log is not None:
        g.say(f"{_rnd(g)} · Deal: {len(g.deck)} cards left in the deck")
    food_cards_and_plays(g, bots)
    reveal_effects(g)
    feeding(g, bots)
    end_round(g)
    return True


def end_round(g: Game) -> None:
    """The end of feeding, hands sorted, the first player passes, the round is counted."""
    end_feeding(g)
    for p in g.players:
        p.hand.sort()
    if g.rules.first_player_rotates:
        g.first = (g.first + 1) % len(g.players)
    g.round += 1


def food_cards_and_plays(g: Game, bots) -> None:
    """Every seat's food card (face down), every seat's card plays, in turn order from the
    first player; the reveal-time effects timed before the food cards; then the food cards
    onto the Watering Hole and into the discards."""
    n = len(g.players)
    seats = [(g.first + k) % n for k in range(n)]
    food_cards = []
    givers = []
    for s in seats:
        p = g.players[s]
        card = bots[s].choose_food_card(g, s) if p.hand else None
        if card is not None:
            p.hand.remove(card)
            food_cards.append(card)
            givers.append(p)
    mark = len(g.log) if g.log is not None else 0
    for s in seats:
        for act in bots[s].play_cards(g, s):
            if g.log is None:
                play_action(g, g.players[s], act)
            else:
                text = _play_text_before(g, g.players[s], act)
                done = play_action(g, g.players[s], act)
                g.say(f"{_rnd(g)} · Play: " + _play_text_after(g, g.players[s], act, done, text))
        g.players[s].hand.sort()
        if g.log is not None:
            g.say(f"{_rnd(g)} · Play: board " + board_text(g, g.players[s]))
    reveal_effects(g, pre_food=True)   # the effects timed "before the food cards are revealed"
    wh_before = g.wh
    add_food_cards(g, [int(g.cards.food[c]) for c in food_cards])
    g.discard.extend(food_cards)
    if g.log is not None:          # the food cards are chosen face down before the plays
        gives = ", ".join(f"P{p.pid} gives {card_name(g, c)}"
                          for p, c in zip(givers, food_cards)) or "nobody gives a card"
        total = sum(int(g.cards.food[c]) for c in food_cards)
        g.say_at(mark, f"{_rnd(g)} · Food cards: {gives} -> Watering Hole {g.wh} "
                       f"({wh_before} {'+' if total >= 0 else '-'} {abs(total)}, revealed "
                       f"after the plays)")


def _play_text_before(g: Game, p: Player, act: tuple) -> str:
    """The part of a card play's line known before it is applied."""
    kind = act[0]
    if kind == "trait" and 0 <= act[2] < len(p.species) and 0 <= act[3] < len(p.species[act[2]].traits):
        return trait_name(g.kind(p.species[act[2]].traits[act[3]]))
    return ""


def _play_text_after(g: Game, p: Player, act: tuple, done: bool, old: str) -> str:
    """The readable line of one card play (`old`: the trait a replacement removes)."""
    kind, card = act[0], act[1]
    me = f"P{p.pid}"
    if not done:
        if card not in p.hand:
            return f"{me} cannot play card {card}: not in hand (skipped)"
        if kind == "new":
            what = f"create a new species at the {'left' if act[2] == 1 else 'right'}"
        elif kind == "trait":
            what = (f"add {trait_name(g.kind(card))} to species {act[2]}" if act[3] < 0 else
                    f"put {trait_name(g.kind(card))} on species {act[2]} (trait slot {act[3]})")
        elif kind in ("pop", "body"):
            what = f"grow species {act[2]}'s {'population' if kind == 'pop' else 'body'}"
        else:
            what = f"play it as {kind!s}"
        return (f"{me} tries to {what} with {card_name(g, card)}: not allowed by the rules "
                f"(the card stays in hand)")
    if kind == "new":
        where = "left" if act[2] == 1 else "right"
        return (f"{me} creates a new species at the {where} (pays {card_name(g, card)}); "
                f"{len(p.species)} species")
    s = act[2]
    if kind == "trait":
        name = trait_name(g.kind(card))
        if act[3] < 0:
            return f"{me} adds {name} to species {s} (card {card_name(g, card)})"
        return (f"{me} replaces {old} with {name} on species {s} (card {card_name(g, card)}; "
                f"{old} to the discards)")
    sp = p.species[s]
    if kind == "pop":
        return f"{me} grows species {s}'s population to {sp.pop} (pays {card_name(g, card)})"
    return f"{me} grows species {s}'s body to {sp.body} (pays {card_name(g, card)})"


def new_game(rules: Rules, cards: Cards, players: int, seed: int, game_index: int,
             log=None) -> Game:
    """Setup: shuffled deck, empty boards (the free species comes with the first deal)."""
    g = Game(rules=rules, cards=cards, players=[Player(pid=k + 1) for k in range(players)],
             seed=seed, game_index=game_index, log=log)
    g.shuffles = 0
    g.deck = g.shuffle(range(cards.n))
    if rules.first_player_random:
        g.first = rng.randint(seed, game_index, rng.CHANCE, players, A.FIRST_PLAYER)
    return g


def score(g: Game) -> list:
    """Food in the bag + population and trait cards of surviving species."""
    return [p.bag + sum(sp.pop + len(sp.traits) for sp in p.species) for p in g.players]


def winners(g: Game) -> list:
    sc = score(g)
    best = max(sc)
    win = [s == best for s in sc]
    if g.rules.tie_break == "most_traits" and sum(win) > 1:
        traits = [sum(len(sp.traits) for sp in p.species) if w else -1
                  for p, w in zip(g.players, win)]
        win = [t == max(traits) for t in traits]
    return win


def play_one(rules: Rules, cards: Cards, players: int, bots, seed: int, game_index: int,
             log=None, trajectories: bool = False) -> dict:
    """Play one whole game; returns score, winner, rounds, end_reason, traits_played (P lists
    of len(TRAITS) ints: trait cards each seat played onto its species, a replacement counting
    for the new trait) and the final `game` (and fills `log`); with `trajectories`, also
    standing: each seat's score after each round played (one list per round)."""
    g = new_game(rules, cards, players, seed, game_index, log)
    standing = []
    while True:
        if not play_round(g, bots):
            break
        if trajectories:
            standing.append(score(g))
        if g.round > g.final_round:
            break
        if g.round >= rules.max_rounds:
            g.end_reason = A.END_MAX_ROUNDS
            break
    if g.log is not None:
        sc, win = score(g), winners(g)
        g.say(f"Game end after round {g.round}: {END_TEXT.get(g.end_reason, g.end_reason)}")
        for p, s, w in zip(g.players, sc, win):
            pop = sum(sp.pop for sp in p.species)
            traits = sum(len(sp.traits) for sp in p.species)
            g.say(f"Final score: P{p.pid} {s} = bag {p.bag} + population {pop} + traits "
                  f"{traits}" + (" - winner" if w else ""))
    more = {"standing": standing} if trajectories else {}
    return {**more, "score": score(g), "winner": winners(g), "rounds": g.round,
            "end_reason": g.end_reason, "traits_played": [list(p.played) for p in g.players],
            "game": g}


def describe(g: Game, sp: Species) -> str:
    names = ",".join(TRAITS[g.kind(c)] for c in sp.traits)
    return f"[f{sp.food} b{sp.body} p{sp.pop} {names}{' fat' + str(sp.fat) if sp.fat else ''}]"
