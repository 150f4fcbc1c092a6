"""The feeding phase of the reference engine: each seat's legal feeding options in the
canonical order both engines share, one feeding turn (and its log line), and the feeding
from the first player clockwise until nobody can (or will) feed.
"""
from __future__ import annotations

from collections import deque

from .reference_attacks import attack, attack_size, attack_targets, intel_negation
from .reference_food import capacity, feed, store_fat
from .reference_state import BANK, WATERING_HOLE, Game, Player, index_of
from .reference_text import card_name, food_snapshot, gain_of, gains, round_label, trait_name, trait_names
from .traits import CARNIVORE, FAT_TISSUE, HORNS, INTELLIGENCE


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
            g.say(f"{round_label(g)} · Feeding: P{g.players[seat].pid} forgoes feeding "
                  f"(out of this feeding)")
        return OUT
    if g.log is None:
        apply_option(g, seat, choice)
        return FED
    mark, before, text = len(g.log), food_snapshot(g), _option_text_before(g, seat, choice)
    apply_option(g, seat, choice)
    g.say_at(mark, f"{round_label(g)} · Feeding: " + _option_text_after(g, seat, choice, before, text))
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
        dtraits = trait_names(g, dfd)
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
        meat = gain_of(before, att) if any(s is att for s in p.species) else 0
        text += f", {me} takes {meat} meat" if meat else f", {me} takes no meat"
        if any(s is att for s in p.species):
            text += f" (food {att.food}/{att.pop})"
        others = gains(before, skip=att)
        if others:
            text += "; also fed (cooperation/scavengers): " + ", ".join(others)
        return text
    sp = b["sp"]
    i = index_of(p, sp)
    got = gain_of(before, sp)
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
    others = gains(before, skip=sp)
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
            g.say(f"{round_label(g)} · Feeding starts: Watering Hole {g.wh}; turn order {names}")
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
        g.say(f"{round_label(g)} · Feeding ends: Watering Hole {g.wh} left")
    return None
