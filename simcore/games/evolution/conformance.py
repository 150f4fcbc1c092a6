"""The cs4500 conformance harness: xattack, xfeed, xstep, xstep4, xsilly.

`main(harness, engine, stdin, stdout)` reads one JSON value, answers in the course's JSON
format and returns 0. Input is checked against the course's data definitions (the course's
conformance suite README); anything else raises UserError saying
what was expected. JSON is turned into a reference `Game` (plain data); the "batch" engine
converts that game into a batch of one (state.py) and back, so both engines share the
parsing and the output format and differ only in the rules code that runs.
"""
from __future__ import annotations

import copy
import json

from simcore.errors import UserError

from . import reference as ref
from . import reference_attacks as ref_attacks
from . import reference_cards as ref_cards
from . import reference_feeding as ref_feeding
from .reference_state import Game, Player, Species
from .schema import Cards, rules_for
from .traits import TRAIT_ID, TRAITS

HARNESSES = ("xattack", "xfeed", "xstep", "xstep4", "xsilly")
ENGINES = ("reference", "batch")
COURSE_TRAITS = tuple(t for t in TRAITS if t != "intelligence")
NAT_MAX = 7


# ---------------------------------------------------------------- checking input

def _fail(what: str, got) -> None:
    text = json.dumps(got)
    if len(text) > 80:
        text = text[:77] + "..."
    raise UserError(f"expected {what}, got {text}")


def _nat(x, what: str, hi: int | None = NAT_MAX, lo: int = 0) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x < lo or (hi is not None and x > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        _fail(f"{what} (a whole number {rng})", x)
    return x


def _list(x, what: str, lo: int = 0, hi: int | None = None) -> list:
    if not isinstance(x, list) or len(x) < lo or (hi is not None and len(x) > hi):
        _fail(what, x)
    return x


def _field(x, name: str, what: str):
    if not (isinstance(x, list) and len(x) == 2 and x[0] == name):
        _fail(f'["{name}", ...] in {what}', x)
    return x[1]


def _trait(x) -> int:
    if x not in COURSE_TRAITS:
        _fail("a Trait (one of " + ", ".join(COURSE_TRAITS) + ")", x)
    return TRAIT_ID[x]


class _Cards:
    """Collects every card of one input, then numbers them in silly order."""

    def __init__(self):
        self.pairs = []          # (food, trait id)

    def add(self, food: int, kind: int) -> int:
        self.pairs.append((food, kind))
        return len(self.pairs) - 1

    def finish(self) -> tuple[Cards, list]:
        order = sorted(range(len(self.pairs)),
                       key=lambda i: (TRAITS[self.pairs[i][1]], self.pairs[i][0], i))
        new_id = [0] * len(order)
        for new, old in enumerate(order):
            new_id[old] = new
        cards = Cards.from_pairs(self.pairs)
        return cards, new_id


def _card(x, cards: _Cards) -> int:
    _list(x, "a SpeciesCard [FoodValue, Trait]", 2, 2)
    kind = _trait(x[1])
    lim = 8 if kind == TRAIT_ID["carnivore"] else 3
    if isinstance(x[0], bool) or not isinstance(x[0], int) or not -lim <= x[0] <= lim:
        _fail(f"a FoodValue -{lim}..{lim} for a {x[1]} card", x)
    return cards.add(x[0], kind)


def _species(x, cards: _Cards) -> Species:
    what = "a Species [[\"food\",Nat],[\"body\",Nat],[\"population\",Nat],[\"traits\",LOT]]"
    _list(x, what, 4, 5)
    food = _nat(_field(x[0], "food", "Species"), "food")
    body = _nat(_field(x[1], "body", "Species"), "body")
    pop = _nat(_field(x[2], "population", "Species"), "population")
    names = _list(_field(x[3], "traits", "Species"), "a list of 0 to 3 Traits", 0, 3)
    kinds = [_trait(t) for t in names]
    if len(set(kinds)) != len(kinds):
        _fail("traits without duplicates", names)
    fat = _nat(_field(x[4], "fat-food", "Species"), "fat-food") if len(x) == 5 else 0
    return Species(food=food, body=body, pop=pop, fat=fat,
                   traits=[cards.add(0, k) for k in kinds])


def _opt_species(x, cards: _Cards):
    if x is False:
        return None
    return _species(x, cards)


def _player(x, cards: _Cards, with_cards: bool) -> Player:
    what = 'a Player [["id",Natural+],["species",[Species,...]],["bag",Natural]]'
    _list(x, what + (' (+ ["cards",[SpeciesCard,...]])' if with_cards else ""), 3,
          4 if with_cards else 3)
    pid = _nat(_field(x[0], "id", "Player"), "id", hi=None, lo=1)
    species = [_species(s, cards) for s in _list(_field(x[1], "species", "Player"),
                                                 "a list of Species")]
    bag = _nat(_field(x[2], "bag", "Player"), "bag", hi=None)
    hand = []
    if len(x) == 4:
        hand = [_card(c, cards) for c in _list(_field(x[3], "cards", "Player+"),
                                               "a list of SpeciesCards")]
    return Player(pid=pid, species=species, bag=bag, hand=hand)


def _configuration(x, cards: _Cards):
    _list(x, "a Configuration [[Player+,...], WateringHole, Deck]", 3, 3)
    players = [_player(p, cards, True) for p in _list(x[0], "a list of Player+", 1)]
    wh = _nat(x[1], "a WateringHole (Natural)", hi=None)
    deck = [_card(c, cards) for c in _list(x[2], "a Deck (list of SpeciesCards)")]
    return players, wh, deck


def _index(x, n: int, what: str) -> int:
    return _nat(x, f"{what} (an index below {n})", hi=n - 1)


def _action4(x, player: Player) -> tuple:
    """(food card id, card actions in application order: BT, RT, GP, GB)."""
    what = "an Action4 [foodCardIndex, [GP...], [GB...], [BT...], [RT...]]"
    _list(x, what, 5, 5)
    hand = player.hand
    nh = len(hand)
    if nh == 0:
        _fail("a player with cards for an Action4", x)
    food = hand[_index(x[0], nh, "a food card index")]
    bts = _list(x[3], "a list of BT [payCard, traitCard...]")
    n_boards = len(player.species) + len(bts)
    acts = []
    for bt in bts:
        _list(bt, "a BT [payCard, traitCard...] with up to 3 traits", 1, 4)
        idx = len(player.species) + sum(1 for a in acts if a[0] == "new")
        acts.append(("new", hand[_index(bt[0], nh, "a card index")], 0))
        acts += [("trait", hand[_index(c, nh, "a card index")], idx, -1) for c in bt[1:]]
    for rt in _list(x[4], "a list of RT [board, traitIndex, card]"):
        _list(rt, "an RT [board, traitIndex, card]", 3, 3)
        acts.append(("trait", hand[_index(rt[2], nh, "a card index")],
                     _index(rt[0], n_boards, "a board index"), _nat(rt[1], "a trait index", 2)))
    for tag, grows in (("population", x[1]), ("body", x[2])):
        for gr in _list(grows, f"a list of grow-{tag} actions"):
            if isinstance(gr, list) and len(gr) == 3 and gr[0] == tag:
                gr = gr[1:]
            _list(gr, f'a grow action [board, card] or ["{tag}", board, card]', 2, 2)
            acts.append(("pop" if tag == "population" else "body",
                         hand[_index(gr[1], nh, "a card index")],
                         _index(gr[0], n_boards, "a board index")))
    used = [food] + [a[1] for a in acts]
    if len(set(used)) != len(used):
        _fail("an Action4 that uses every card at most once", x)
    return food, acts


# ---------------------------------------------------------------- output

def _species_json(g: Game, sp: Species) -> list:
    out = [["food", sp.food], ["body", sp.body], ["population", sp.pop],
           ["traits", [TRAITS[g.kind(c)] for c in sp.traits]]]
    if sp.fat and g.has(sp, TRAIT_ID["fat-tissue"]):
        out.append(["fat-food", sp.fat])
    return out


def _card_json(g: Game, c: int) -> list:
    return [int(g.cards.food[c]), TRAITS[g.kind(c)]]


def _player_json(g: Game, p: Player) -> list:
    out = [["id", p.pid], ["species", [_species_json(g, s) for s in p.species]], ["bag", p.bag]]
    if p.hand:
        out.append(["cards", [_card_json(g, c) for c in p.hand]])
    return out


def _config_json(g: Game) -> list:
    return [[_player_json(g, p) for p in g.players], g.wh, [_card_json(g, c) for c in g.deck]]


# ---------------------------------------------------------------- harnesses

def _renumber(cards: _Cards, players=(), deck=(), species=()):
    """Give every collected card its id in silly order (in place) and return the table."""
    table, new_id = cards.finish()
    for p in players:
        p.hand = [new_id[c] for c in p.hand]
        for sp in p.species:
            sp.traits = [new_id[c] for c in sp.traits]
    for sp in species:
        if sp is not None:
            sp.traits = [new_id[c] for c in sp.traits]
    return table, [new_id[c] for c in deck]


def _game(table: Cards, players, wh=0, deck=()) -> Game:
    rules, _ = rules_for("cs4500")
    return Game(rules=rules, cards=table, players=players, wh=wh, deck=list(deck))


def run_xattack(x, engine: str, silly):
    cards = _Cards()
    _list(x, "a Situation [defender, attacker, OptSpecies, OptSpecies]", 4, 4)
    dfd, att = _species(x[0], cards), _species(x[1], cards)
    left, right = _opt_species(x[2], cards), _opt_species(x[3], cards)
    table, _ = _renumber(cards, species=(dfd, att, left, right))
    g = _game(table, [])
    if engine == "batch":
        from . import batch_conformance
        return batch_conformance.attack(g, dfd, att, left, right)
    return ref_attacks.can_attack(g, att, dfd, left, right)


def _feed_answer(g: Game, choice: tuple):
    kind = choice[0]
    if kind == "forgo":
        return False
    if kind == "veg":
        return choice[1]
    if kind == "store":
        sp = g.players[0].species[choice[1]]
        return [choice[1], min(sp.body - sp.fat, g.wh)]
    return [choice[1], choice[2] - 1, choice[3]]


def run_xfeed(x, engine: str, silly):
    cards = _Cards()
    _list(x, "a Feeding [Player, WateringHole (Natural+), [Player,...]]", 3, 3)
    me = _player(x[0], cards, False)
    wh = _nat(x[1], "a WateringHole (Natural+)", hi=None, lo=1)
    others = [_player(p, cards, False) for p in _list(x[2], "a list of Players")]
    table, _ = _renumber(cards, players=[me] + others)
    g = _game(table, [me] + others, wh)
    if engine == "batch":
        from . import batch_conformance
        return _feed_answer(g, batch_conformance.silly_feed(g, silly.batch_policy(None)))
    return _feed_answer(g, silly.reference_policy(None, 0).choose_feeding(
        g, 0, ref_feeding.feeding_options(g, 0), 0))


def _config_game(x) -> Game:
    cards = _Cards()
    players, wh, deck = _configuration(x, cards)
    table, deck = _renumber(cards, players=players, deck=deck)
    return _game(table, players, wh, deck)


def run_xstep(x, engine: str, silly):
    g = _config_game(x)
    if engine == "batch":
        from . import batch_conformance
        g = batch_conformance.step(g, silly.batch_policy(None))
    else:
        ref_feeding.feeding_turn(g, 0, silly.reference_policy(None, 0), 0)
    return _config_json(g)


def run_xstep4(x, engine: str, silly):
    _list(x, "a Step4 [Configuration, [Action4,...]]", 2, 2)
    g = _config_game(x[0])
    actions = _list(x[1], "one Action4 per player", len(g.players), len(g.players))
    plans = [_action4(a, p) for a, p in zip(actions, g.players)]
    if engine == "batch":
        from . import batch_conformance
        g = batch_conformance.step4(g, plans, silly.batch_policy(None))
    else:
        for p, (food, acts) in zip(g.players, plans):
            p.hand.remove(food)
            ref.add_food_cards(g, [int(g.cards.food[food])])
            for act in acts:
                ref_cards.play_action(g, p, act)
        ref.reveal_effects(g)
        ref_feeding.feeding(g, [silly.reference_policy(None, s) for s in range(len(g.players))])
    return _config_json(g)


def _action4_json(p: Player, food: int, acts: list) -> list:
    idx = {c: i for i, c in enumerate(p.hand)}
    gp = [[a[2], idx[a[1]]] for a in acts if a[0] == "pop"]
    gb = [[a[2], idx[a[1]]] for a in acts if a[0] == "body"]
    rt = [[a[2], a[3], idx[a[1]]] for a in acts if a[0] == "trait" and a[3] >= 0]
    bt = []
    for a in acts:
        if a[0] == "new":
            bt.append([idx[a[1]]])
        elif a[0] == "trait" and a[3] < 0:
            bt[-1].append(idx[a[1]])
    return [idx[food], gp, gb, bt, rt]


def run_xsilly(x, engine: str, silly):
    cards = _Cards()
    _list(x, "a Choice [Player+, [[Species,...],...], [[Species,...],...]]", 3, 3)
    me = _player(x[0], cards, True)
    if len(me.hand) < 4:
        _fail("a Player+ with at least 4 cards (the silly player plays 4)", x[0])
    before = [[_species(s, cards) for s in _list(b, "a list of Species")]
              for b in _list(x[1], "a list of species lists (players before)")]
    after = [[_species(s, cards) for s in _list(b, "a list of Species")]
             for b in _list(x[2], "a list of species lists (players after)")]
    flat = [s for lst in before + after for s in lst]
    table, _ = _renumber(cards, players=[me], species=flat)
    g = _game(table, [me])
    if engine == "batch":
        from . import batch_conformance
        food, acts = batch_conformance.silly_choose(g, silly.batch_policy(None))
    else:
        bot = silly.reference_policy(None, 0)
        food = bot.choose_food_card(g, 0)
        rest = copy.deepcopy(g)
        rest.players[0].hand.remove(food)
        acts = bot.play_cards(rest, 0)
    return _action4_json(me, food, acts)


RUNNERS = {"xattack": run_xattack, "xfeed": run_xfeed, "xstep": run_xstep,
           "xstep4": run_xstep4, "xsilly": run_xsilly}


def answer(harness: str, engine: str, value, silly):
    """The harness's answer (a JSON-ready value) for one parsed input value; `silly` is the
    silly player (a registered bot, strategies.registry.Bot), handed down by the caller."""
    if harness not in RUNNERS:
        raise UserError(f"unknown harness {harness!r}; expected one of: " + ", ".join(HARNESSES))
    if engine not in ENGINES:
        raise UserError(f"unknown engine {engine!r}; expected one of: " + ", ".join(ENGINES))
    return RUNNERS[harness](value, engine, silly)


def main(harness: str, engine: str, stdin, stdout, silly) -> int:
    """Read one JSON value from `stdin`, print the answer as JSON on `stdout`, return 0."""
    text = stdin.read()
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"input is not valid JSON ({exc.msg} at line {exc.lineno}, "
                        f"column {exc.colno}); expected one {harness} input value") from None
    stdout.write(json.dumps(answer(harness, engine, value, silly)) + "\n")
    return 0
