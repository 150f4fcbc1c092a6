"""The compiled bots (strategies/evolution/compiled.py) make exactly the reference bots'
decisions (strategies/evolution/greedy.py, silly.py, random_bot.py: the truth).

Reference games are played with wrapper bots: at every decision the wrapper asks the
reference bot, then packs a copy of the position (`state.from_games` + `pack_state`, the
arrays the compiled engine reads) and asserts that the compiled dispatcher, for b = 0,
gives the same food card, the same card action rows, or the index of the same feeding
option. The reference answer is what the game goes on with.

Random positions (random boards, hands and Watering Hole) add what whole games rarely
reach: Intelligence attacks on offer, full species slots, full trait slots, tiny hands.

Each test also counts what it compared and asserts it reached the branches that matter
(carnivore attacks, Fat Tissue storing, Intelligence, trait replacement, ...), so a change
of the deal or the engine cannot quietly leave a branch untested.
"""
from __future__ import annotations

import copy
from collections import Counter

import numpy as np
import pytest

from simcore.games.evolution import reference as ref
from simcore.games.evolution import reference_feeding as ref_feeding
from simcore.games.evolution.reference_state import Game, Player, Species
from simcore.games.evolution.packed import pack_rules, pack_state
from simcore.games.evolution.schema import rules_for
from simcore.games.evolution.state import from_games
from simcore.games.evolution.traits import CARNIVORE, FAT_TISSUE, INTELLIGENCE
from simcore.games.evolution import packed as PK
from strategies.evolution import compiled as C
from strategies.evolution.greedy import Greedy
from strategies.evolution.greedy import _context as greedy_context
from strategies.evolution.random_bot import RandomBot
from strategies.evolution.silly import Silly

BOTS = {"greedy": (Greedy, C.GREEDY), "silly": (Silly, C.SILLY), "random": (RandomBot, C.RANDOM)}
_MEM = np.zeros(1, np.int64)           # silly and random keep no memory


def _mem(policy):
    """The seat's memory row: greedy's [mode, trait, weights...], else nothing."""
    return policy.memory if policy.memory is not None else _MEM


def _food(policy, a, rk, b, seat):
    return policy.food_card(a, rk, b, seat, _mem(policy))


def _plan(policy, a, rk, b, seat, acts):
    return policy.plan_cards(a, rk, b, seat, acts, _mem(policy))


def _feed(policy, a, rk, b, seat, opts, n_opts, turn):
    return policy.feed_choice(a, rk, b, seat, opts, n_opts, turn, _mem(policy))
OPT_KIND = {"forgo": PK.FORGO, "veg": PK.VEG, "store": PK.STORE, "intel": PK.INTEL,
            "attack": PK.ATTACK}
GROW_KIND = {"pop": PK.POP, "body": PK.BODY}

# (players, games) per variant; cs4500 needs 3 to 8 players
TABLES = {"default": ((4, 60), (2, 20), (6, 20)),
          "second-printing": ((4, 60), (2, 20), (6, 20)),
          "cs4500": ((4, 120), (3, 40), (6, 40))}
SEED = 20240611


def act_row(act: tuple) -> list:
    """A reference card action as a row [kind, card, species, slot] of `acts`."""
    if act[0] == "new":
        return [PK.NEW, act[1], 0, act[2]]
    if act[0] == "trait":
        return [PK.TRAIT, act[1], act[2], act[3]]
    return [GROW_KIND[act[0]], act[1], act[2], 0]


def opt_rows(opts: list) -> np.ndarray:
    """Reference feeding options as the (K, 5) rows [kind, s, q, d, negate]."""
    rows = np.zeros((len(opts), 5), np.int64)
    for k, o in enumerate(opts):
        if o[0] == "forgo":
            rows[k] = [PK.FORGO, 0, 0, 0, -1]
        elif o[0] == "attack":
            rows[k] = [PK.ATTACK, o[1], o[2], o[3], o[4]]
        else:
            rows[k] = [OPT_KIND[o[0]], o[1], 0, 0, -1]
    return rows


def packed(g: Game):
    """The packed batch of one game holding a copy of g (rules and card table shared)."""
    shared = {id(g.rules): g.rules, id(g.cards): g.cards}
    st = from_games([copy.deepcopy(g, shared)], S=g.rules.species_slots)
    return pack_state(st)


class Checked:
    """A reference bot whose every decision is compared with the compiled bot's."""

    def __init__(self, bot, code, rk, tally: Counter, where: str):
        self.bot, self.code, self.rk, self.tally, self.where = bot, code, rk, tally, where

    def _at(self, g, seat, what):
        return f"{self.where} game {g.game_index} round {g.round} seat {seat}: {what}"

    def choose_food_card(self, g, seat):
        want = self.bot.choose_food_card(g, seat)
        got = _food(self.code, packed(g), self.rk, 0, seat)
        assert got == want, self._at(g, seat, f"food card {got} != reference {want}")
        self.tally["food card"] += 1
        return want

    def play_cards(self, g, seat):
        want = self.bot.play_cards(g, seat)
        acts = np.full((8, 4), -99, np.int64)
        n = _plan(self.code, packed(g), self.rk, 0, seat, acts)
        got = acts[:n].tolist()
        assert got == [act_row(x) for x in want], self._at(g, seat, f"plan {got} != {want}")
        self.tally["plan"] += 1
        for x in want:
            self.tally["plays " + (f"{x[0]} replacing" if x[0] == "trait" and x[3] >= 0
                                   else x[0])] += 1
            if x[0] == "trait" and g.kind(x[1]) == CARNIVORE:
                self.tally["plays carnivore trait"] += 1
        if not want:
            self.tally["plan without actions"] += 1
        return want

    def choose_feeding(self, g, seat, opts, turn):
        want = self.bot.choose_feeding(g, seat, opts, turn)
        rows = opt_rows(opts)
        k = _feed(self.code, packed(g), self.rk, 0, seat, rows, len(opts), turn)
        assert 0 <= k < len(opts) and opts[k] == want, \
            self._at(g, seat, f"feeding option {k} of {opts} != reference {want}")
        self.tally["feed"] += 1
        self.tally["feeds " + want[0]] += 1
        if any(o[0] == "attack" and o[2] == seat for o in opts):
            self.tally["feed with own species attackable"] += 1
        if want[0] == "attack" and want[2] == seat:
            self.tally["feeds attack on own species"] += 1
        return want


def play_checked(bot_name: str, variant: str) -> Counter:
    """Play the TABLES games of `variant`; the bot under test takes every other seat
    (rotating with the game), the other two bots the remaining ones. Returns the tally."""
    rules, cards = rules_for(variant)
    rk = pack_rules(rules, cards)
    tally = Counter()
    cls, code = BOTS[bot_name]
    others = [BOTS[n][0]() for n in BOTS if n != bot_name]
    game = 0
    for players, n_games in TABLES[variant]:
        for _ in range(n_games):
            checked = Checked(cls(), code, rk, tally, f"{bot_name} {variant} {players}p")
            bots = [checked if (k + game) % 2 == 0 else others[(k // 2 + game) % 2]
                    for k in range(players)]
            ref.play_one(rules, cards, players, bots, SEED, game)
            game += 1
    return tally


VARIANTS = list(TABLES)
PLAYS = ("plays new", "plays trait", "plays pop", "plays body", "plays carnivore trait")
NORTH_STAR = ("default", "second-printing")   # own species attackable, Intelligence in the deck


def assert_compared(t: Counter, variant: str, reached: tuple, north_star: tuple = (),
                    cs4500: tuple = ()) -> None:
    """Enough decisions were compared, and the games reached every listed branch."""
    assert t["food card"] >= 1000 and t["plan"] >= 1000 and t["feed"] >= 300, t
    for what in reached + (north_star if variant in NORTH_STAR else cs4500):
        assert t[what] > 0, (what, t)


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_greedy_makes_the_reference_greedy_decisions(variant):
    t = play_checked("greedy", variant)
    assert_compared(t, variant, PLAYS + ("feeds veg", "feeds attack"),
                    north_star=("feeds intel", "plan without actions",
                                "feed with own species attackable"))
    if variant == "second-printing":   # carnivore_must_attack: only own prey left -> opts[0]
        assert t["feeds attack on own species"] > 0, t


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_silly_makes_the_reference_silly_decisions(variant):
    t = play_checked("silly", variant)
    assert_compared(t, variant, PLAYS + ("plays trait replacing", "feeds veg", "feeds attack"),
                    north_star=("feeds forgo", "plan without actions",
                                "feed with own species attackable"),
                    cs4500=("feeds store",))
    if variant == "second-printing":   # carnivore_must_attack: only own prey left -> opts[0]
        assert t["feeds attack on own species"] > 0, t


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_random_draws_the_reference_random_decisions(variant):
    t = play_checked("random", variant)
    assert_compared(t, variant, PLAYS + ("feeds veg", "feeds attack", "feeds forgo"),
                    north_star=("feeds intel", "plays trait replacing"),
                    cs4500=("feeds store",))


@pytest.mark.parametrize("bot_name", list(BOTS))
def test_empty_hand_gives_no_food_card_and_no_card_actions(bot_name):
    rules, cards = rules_for("default")
    g = ref.new_game(rules, cards, 3, SEED, 0)
    ref.deal(g)
    g.players[1].hand = []
    a, rk = packed(g), pack_rules(rules, cards)
    cls, code = BOTS[bot_name]
    acts = np.full((8, 4), -99, np.int64)
    assert _food(code, a, rk, 0, 1) == -1
    assert cls().play_cards(g, 1) == []
    assert _plan(code, a, rk, 0, 1, acts) == 0
    assert _food(code, a, rk, 0, 0) == cls().choose_food_card(g, 0)   # hands still read


# ---------------------------------------------------------------- random positions
# Whole games rarely reach some positions (an Intelligence carnivore facing a defended
# target, a full row of species slots, full trait slots, tiny hands): random boards do.

def random_species(rules, cards, deck: list, rng, carn_rate: float) -> Species:
    """A species with random sizes and up to max_traits distinct traits taken from `deck`
    (a Carnivore at `carn_rate`, half of them with Intelligence, so Intelligence attacks
    come up)."""
    kind = cards.kind

    def take(ok):
        for j, c in enumerate(deck):
            if ok(int(kind[c])):
                return deck.pop(j)
        return None

    traits, kinds = [], set()
    n_traits = int(rng.integers(0, rules.max_traits + 1))
    wanted = []
    if rng.random() < carn_rate:
        wanted.append(CARNIVORE)
        if rng.random() < 0.5:
            wanted.append(INTELLIGENCE)
    while len(traits) < n_traits or wanted:
        c = take(wanted.pop(0).__eq__ if wanted else lambda k: k not in kinds)
        if c is not None:
            traits.append(c)
            kinds.add(int(kind[c]))
    traits = traits[:rules.max_traits]
    body = int(rng.integers(0, rules.max_body + 1))
    pop = int(rng.integers(1, rules.max_population + 1))
    fat = int(rng.integers(0, body + 1)) if FAT_TISSUE in kinds else 0
    return Species(food=int(rng.integers(0, pop + 1)), body=body, pop=pop, fat=fat,
                   traits=rng.permutation(traits).tolist())


def random_position(rules, cards, rng) -> Game:
    players = int(rng.integers(rules.players_min, min(rules.players_max, 6) + 1))
    deck = rng.permutation(cards.n).tolist()
    ps = []
    for k in range(players):
        n_sp = rules.species_slots if rng.random() < 0.1 else int(rng.integers(0, 5))
        carn_rate = 0.5 if rng.random() < 0.5 else 0.0       # herbivore players: greedy's want
        species = [random_species(rules, cards, deck, rng, carn_rate) for _ in range(n_sp)]
        hand = sorted(deck.pop() for _ in range(min(len(deck), int(rng.integers(0, 9)))))
        ps.append(Player(pid=k + 1, species=species, hand=hand))
    wh = 0 if rng.random() < 0.3 else int(rng.integers(1, 12))   # 0: Intelligence, storing
    return Game(rules=rules, cards=cards, players=ps, wh=wh,
                deck=deck, first=int(rng.integers(0, players)),
                round=int(rng.integers(0, 10)), seed=SEED,
                game_index=int(rng.integers(0, 1 << 40)))


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_bots_match_the_reference_bots_on_random_positions(variant):
    rules, cards = rules_for(variant)
    rk = pack_rules(rules, cards)
    rng = np.random.default_rng(SEED)
    tally = Counter()
    acts = np.full((8, 4), -99, np.int64)
    for _ in range(300):
        g = random_position(rules, cards, rng)
        a = packed(g)
        for seat, p in enumerate(g.players):
            opts = ref_feeding.feeding_options(g, seat)
            rows = opt_rows(opts)
            turn = int(rng.integers(0, 200))
            for name, (cls, code) in BOTS.items():
                bot = cls()
                where = (variant, name, g.game_index, seat)
                if p.hand:
                    assert _food(code, a, rk, 0, seat) == bot.choose_food_card(g, seat), where
                want = [act_row(x) for x in bot.play_cards(g, seat)]
                n = _plan(code, a, rk, 0, seat, acts)
                assert acts[:n].tolist() == want, (where, want)
                choice = bot.choose_feeding(g, seat, opts, turn)
                k = _feed(code, a, rk, 0, seat, rows, len(opts), turn)
                assert 0 <= k < len(opts) and opts[k] == choice, (where, opts, choice)
                tally[name, "feeds " + choice[0] + (" with intelligence"
                                                    if choice[0] == "attack" and choice[4] >= 0
                                                    else "")] += 1
                for x in want:
                    tally[name, "plays", x[0]] += 1
                    tally[name, "plays a carnivore"] += (x[0] == PK.TRAIT
                                                         and g.kind(x[1]) == CARNIVORE)
            tally["intelligence attacks offered"] += any(o[0] == "attack" and o[4] >= 0
                                                          for o in opts)
            full = len(p.species) == rules.species_slots
            tally["species slots full"] += full
            tally["greedy wants a carnivore without room"] += (
                full and greedy_context(g, seat)[1] == 1 and len(p.hand) >= 2
                and any(g.kind(c) == CARNIVORE for c in p.hand))
    has_intelligence = INTELLIGENCE in cards.kind
    assert tally["species slots full"] >= 20, tally
    assert tally["greedy wants a carnivore without room"] > 0, tally
    assert tally["intelligence attacks offered"] >= (20 if has_intelligence else 0), tally
    for name in BOTS:
        for kind in (PK.NEW, PK.TRAIT, PK.POP, PK.BODY):
            assert tally[name, "plays", kind] > 0, (name, kind, tally)
        assert tally[name, "plays a carnivore"] > 0, (name, tally)
        for kind in ("veg", "attack", "forgo"):
            assert tally[name, "feeds " + kind] > 0, (name, kind, tally)
        if rules.fat_store_action:
            assert tally[name, "feeds store"] > 0, (name, tally)
        if has_intelligence and name != "silly":        # silly never picks Intelligence
            assert tally[name, "feeds intel"] > 0, (name, tally)
    if has_intelligence:
        assert tally["random", "feeds attack with intelligence"] > 0, tally
