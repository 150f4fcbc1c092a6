"""Evolution, one game at a time, in plain Python: the oracle for the batch engine.

Written straight from the rules (rulebook + RULES-NOTES.md + the cs4500 README); every
rule number comes from `Rules`. Draws come from simcore.rng with the addresses in
`addresses.py`, in the same order as the batch engine, so both play identical games.

This module plays rounds and whole games: the deal, the card plays and food cards, the
reveal-time traits, the feeding (reference_feeding.py) and the end of feeding. The board
is reference_state.py; the rules the phases call are in reference_food.py,
reference_cards.py and reference_attacks.py; the log's lines in reference_text.py.
"""
from __future__ import annotations

from simcore import rng

from . import addresses as A
from .reference_cards import go_extinct, new_species, play_action, set_final_round
from .reference_feeding import feeding
from .reference_food import feed
from .reference_state import Game, Player
from .reference_text import (END_TEXT, board_text, card_list, card_name, food_snapshot, gain_of,
                             gains, play_text_after, play_text_before, round_label)
from .schema import Cards, Rules
from .traits import FAT_TISSUE, FERTILE, LONG_NECK


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
                            g.say(f"{round_label(g)} · Reveal: P{p.pid}'s species {i} (Fertile) grows "
                                  f"to population {sp.pop}")
                elif name == "long-neck" and g.works(sp, LONG_NECK):
                    before = food_snapshot(g) if g.log is not None else None
                    feed(g, p, i, r.long_neck_source, False, 1)
                    if before is not None and gain_of(before, sp) > 0:
                        others = gains(before, skip=sp)
                        g.say(f"{round_label(g)} · Reveal: P{p.pid}'s species {i} (Long Neck) takes "
                              f"{gain_of(before, sp)} food (Watering Hole {g.wh})"
                              + ("; also fed: " + ", ".join(others) if others else ""))
                elif name == "fat-tissue" and g.works(sp, FAT_TISSUE):
                    moved = min(sp.fat, sp.pop - sp.food)
                    sp.fat -= moved
                    sp.food += moved
                    if g.log is not None and moved > 0:
                        g.say(f"{round_label(g)} · Reveal: P{p.pid}'s species {i} (Fat Tissue) moves "
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
            g.say(f"{round_label(g)} · End of feeding: P{p.pid}: populations reduced to food eaten "
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
        g.say(f"{round_label(g)} · Start: first player P{g.players[g.first].pid}; deck {len(g.deck)} "
              f"cards; Watering Hole {g.wh}")
    if r.deal_end_rule == "stop_unless_deck_exceeds_need":
        if len(g.deck) <= sum(deal_need(g, g.players[s]) for s in seats):
            g.end_reason = A.END_DECK_SHORT
            if g.log is not None:
                g.say(f"{round_label(g)} · Deal: the deck ({len(g.deck)} cards) cannot deal a whole "
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
            g.say(f"{round_label(g)} · Deal: P{p.pid} gets "
                  + ("a free species and " if free else "")
                  + (card_list(g, sorted(dealt)) if dealt else "no cards")
                  + (f" (deck short: {len(dealt)} of {need})" if len(dealt) < need else ""))
        p.hand.extend(g.deck[:need])
        del g.deck[:need]
    if not g.deck:                   # the deck ran out while dealing: the last round
        set_final_round(g, g.round, A.END_DECK_EMPTY)
        if g.log is not None:
            g.say(f"{round_label(g)} · Deal: the deck is empty: this is the last round")
    for p in g.players:
        p.hand.sort()
    return True


def play_round(g: Game, bots) -> bool:
    """One round. False if the game ended before it could be played."""
    n = len(g.players)
    if not deal(g):
        return False
    if g.log is not None:
        g.say(f"{round_label(g)} · Deal: {len(g.deck)} cards left in the deck")
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
                text = play_text_before(g, g.players[s], act)
                done = play_action(g, g.players[s], act)
                g.say(f"{round_label(g)} · Play: " + play_text_after(g, g.players[s], act, done, text))
        g.players[s].hand.sort()
        if g.log is not None:
            g.say(f"{round_label(g)} · Play: board " + board_text(g, g.players[s]))
    reveal_effects(g, pre_food=True)   # the effects timed "before the food cards are revealed"
    wh_before = g.wh
    add_food_cards(g, [int(g.cards.food[c]) for c in food_cards])
    g.discard.extend(food_cards)
    if g.log is not None:          # the food cards are chosen face down before the plays
        gives = ", ".join(f"P{p.pid} gives {card_name(g, c)}"
                          for p, c in zip(givers, food_cards)) or "nobody gives a card"
        total = sum(int(g.cards.food[c]) for c in food_cards)
        g.say_at(mark, f"{round_label(g)} · Food cards: {gives} -> Watering Hole {g.wh} "
                       f"({wh_before} {'+' if total >= 0 else '-'} {abs(total)}, revealed "
                       f"after the plays)")


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
