"""The parts of Evolution's compiled batch engine that ask the bots: card plays, feeding
turns, whole rounds and whole games (the rules themselves are in kernels.py and its
kernels_*.py modules).

This file is not imported as a module of its own: jit.engine_for loads it once per set
of distinct bots, with their compiled functions as the globals FOOD_k, PLAN_k, FEED_k
(k = 0..MAX_POLICIES-1; each seat plays the k in `idx[seat]`), N_FACES (how many of
FOOD_k.. are distinct bots) and BUILD (the build numba caches this module in, keyed by the
engine's and the bots' sources: simcore.jit.GameBuild.instance).

`mem` (int64 (P, M)) is the bots' memory, one row per seat (decisions.Policy.memory); `err`
(int64 (1,)) becomes 1 + seat when a bot answers with no legal option (the feeding stops).
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolution import addresses as A
from simcore.games.evolution.decisions import FEED_POS, LISTS, N_FEED, N_FOOD
from simcore.games.evolution.kernels import (ASK_FEED, ASK_FOOD_CARD, ASK_PLAN, CARDS, DEAL,
                                             END_FEEDING, FEEDING, NEXT, REVEAL, add_food_cards,
                                             deal, end_feeding, reveal_effects, setup, Q_N,
                                             Q_PASSES, Q_TURN, Q_STOP, STOP, STOPPED, copy_game)
from simcore.games.evolution.kernels_board import NO, YES, hand_remove, hand_sort
from simcore.games.evolution.kernels_cards import play_action
from simcore.games.evolution.kernels_feeding import (FED, OUT, PASSED, apply_option, can_ever_eat,
                                                     feeding_options)
from simcore.games.evolution.packed import FORGO
from simcore.games.evolution.state import DISCARD, FOOD_CARD

kernel = BUILD.kernel            # noqa: F821 (set by jit.engine_for)
# The layers between an entry point (play_all, rounds, ask) and the rules are inlined by
# numba: each function compiled on its own re-optimises everything it calls (numba links
# the callees' code in and runs LLVM over the whole), so a deep chain of them costs a
# multiple of the engine's size in compile time.
inline_kernel = BUILD.inline     # noqa: F821


# ---------------------------------------------------------------- the bots

# Inlined by numba (each is a dispatch of one call): a separately compiled dispatcher would be
# one more library holding a copy of every bot. N_FACES (the number of distinct bots, set by
# jit.engine_for) is a compile-time constant: the branches past it fold away, so each bot
# has one call site and LLVM inlines it (simcore.jit.internalize).

@inline_kernel
def bot_food_card(k, a, rk, b, seat, mem):
    """The food card (card id) of seat's bot k; -1: none."""
    if k == 0 or N_FACES == 1:                                    # noqa: F821
        return np.int64(FOOD_0(a, rk, b, seat, mem[seat]))      # noqa: F821
    if k == 1 or N_FACES == 2:                                    # noqa: F821
        return np.int64(FOOD_1(a, rk, b, seat, mem[seat]))      # noqa: F821
    if k == 2 or N_FACES == 3:                                    # noqa: F821
        return np.int64(FOOD_2(a, rk, b, seat, mem[seat]))      # noqa: F821
    return np.int64(FOOD_3(a, rk, b, seat, mem[seat]))          # noqa: F821


@inline_kernel
def bot_plan(k, a, rk, b, seat, acts, mem):
    """The card actions of seat's bot k, as rows of acts; returns how many."""
    if k == 0 or N_FACES == 1:                                       # noqa: F821
        return np.int64(PLAN_0(a, rk, b, seat, acts, mem[seat]))   # noqa: F821
    if k == 1 or N_FACES == 2:                                       # noqa: F821
        return np.int64(PLAN_1(a, rk, b, seat, acts, mem[seat]))   # noqa: F821
    if k == 2 or N_FACES == 3:                                       # noqa: F821
        return np.int64(PLAN_2(a, rk, b, seat, acts, mem[seat]))   # noqa: F821
    return np.int64(PLAN_3(a, rk, b, seat, acts, mem[seat]))       # noqa: F821


@inline_kernel
def bot_feed(k, a, rk, b, seat, opts, n_opts, turn, mem):
    """The row of opts seat's bot k chooses."""
    if k == 0 or N_FACES == 1:                                                     # noqa: F821
        return np.int64(FEED_0(a, rk, b, seat, opts, n_opts, turn, mem[seat]))   # noqa: F821
    if k == 1 or N_FACES == 2:                                                     # noqa: F821
        return np.int64(FEED_1(a, rk, b, seat, opts, n_opts, turn, mem[seat]))   # noqa: F821
    if k == 2 or N_FACES == 3:                                                     # noqa: F821
        return np.int64(FEED_2(a, rk, b, seat, opts, n_opts, turn, mem[seat]))   # noqa: F821
    return np.int64(FEED_3(a, rk, b, seat, opts, n_opts, turn, mem[seat]))       # noqa: F821


# ---------------------------------------------------------------- feeding

@inline_kernel
def turn_options(a, rk, b, seat, opts):
    """The options of seat's next feeding turn into opts: (rows, rows other than forgoing),
    or (-1, -1) when the turn changes nothing (the rules end feeding at an empty Watering
    Hole). Computed once per turn: for the stop test (has_choice) and the turn itself."""
    if rk.feeding_stops_when_watering_hole_empty and a.wh[b] <= 0:
        return np.int64(-1), np.int64(-1)
    n_opts, n_acts = feeding_options(a, rk, b, seat, opts)
    return np.int64(n_opts), np.int64(n_acts)


@inline_kernel
def feeding_turn(a, rk, b, seat, k, turn, opts, n_opts, n_acts, mem, err):
    """One feeding turn of `seat`, its options in opts (turn_options): FED, PASSED (no
    option now; asked again later) or OUT. When the rules end feeding at an empty Watering
    Hole, a turn there changes nothing."""
    if n_opts < 0:
        return OUT
    if n_acts == 0:
        if rk.no_option_is_out or not can_ever_eat(a, rk, b, seat):
            return OUT
        return PASSED
    if rk.auto_feed_single_option and n_acts == 1:
        r = n_opts - 1                       # the one option that is not forgoing
    else:
        r = bot_feed(k, a, rk, b, seat, opts, n_opts, turn, mem)
        if r < 0 or r >= n_opts:
            err[0] = 1 + seat                # the bot gave no legal option
            return OUT
    if opts[r, 0] == FORGO:
        return OUT
    apply_option(a, rk, b, seat, opts[r, 0], opts[r, 1], opts[r, 2], opts[r, 3], opts[r, 4])
    return FED


@inline_kernel
def fresh(q):
    """q: no saved place (a whole feeding from the first player)."""
    q[Q_N], q[Q_PASSES], q[Q_TURN], q[Q_STOP] = -1, 0, 0, 0


@inline_kernel
def has_choice(rk, n_opts, n_acts):
    """Whether a feeding turn with these options (turn_options) asks its bot to choose among
    two or more options (feeding_turn's tests, in its order)."""
    return n_opts >= 2 and n_acts >= 1 and not (rk.auto_feed_single_option and n_acts == 1)


@inline_kernel
def feeding(a, rk, b, idx, opts, mem, err, single, turn, q):
    """Feeding turns from the first player clockwise until every player is out or every
    player still in has passed in a row (reference_feeding.feeding; its deque is `order`).
    single >= 0: only one feeding turn of that seat, numbered `turn`; returns its outcome
    (reference_feeding.feeding_turn). One call site of feeding_turn, and of feeding_options (the
    stop test and the turn share its options), keeps the compiled code small.
    q (see Q_N): a saved queue resumes the feeding there, playing its first turn; with
    q[Q_STOP] == STOP the feeding stops before the next turn that asks a bot to choose (a fresh
    feeding checks its first turn too), saves its place in q and a.order (q[Q_STOP] =
    STOPPED) and returns OUT; q[Q_STOP] stays STOP when the feeding ended."""
    P = a.n_species.shape[1]
    order = a.order
    n = 0
    passes = 0
    check = q[Q_N] < 0
    if single >= 0:
        order[0] = single
        n = 1
    elif q[Q_N] >= 0:
        n, passes, turn = q[Q_N], q[Q_PASSES], q[Q_TURN]
    else:
        for k in range(P):
            s = (a.first[b] + k) % P
            if can_ever_eat(a, rk, b, s):
                order[n] = s
                n += 1
    pos = 0
    while single >= 0 or (n > 0 and passes < n and (
            a.wh[b] > 0 or not rk.feeding_stops_when_watering_hole_empty)):
        seat = order[pos]
        n_opts, n_acts = turn_options(a, rk, b, seat, opts)
        if q[Q_STOP] == STOP and check and single < 0 and has_choice(rk, n_opts, n_acts):
            for _ in range(pos):                 # the queue from the seat to play
                first = order[0]
                for k in range(n - 1):
                    order[k] = order[k + 1]
                order[n - 1] = first
            q[Q_N], q[Q_PASSES], q[Q_TURN], q[Q_STOP] = n, passes, turn, STOPPED
            return OUT
        check = True
        outcome = feeding_turn(a, rk, b, seat, idx[seat], turn, opts, n_opts, n_acts, mem, err)
        if single >= 0 or err[0]:
            return outcome
        if outcome == FED:
            passes = 0
        elif outcome == PASSED:
            passes += 1
        if outcome == OUT or (outcome == FED and not can_ever_eat(a, rk, b, seat)):
            for k in range(pos, n - 1):          # popleft
                order[k] = order[k + 1]
            n -= 1
            if pos >= n:
                pos = 0
        else:
            pos = (pos + 1) % n                  # rotate(-1)
        turn += 1
    return OUT


@inline_kernel
def food_cards_and_plays(a, rk, b, idx, acts, foods, mem):
    """Every seat's food card (face down), then every seat's card plays, in turn order;
    the food cards' values go to `foods` in that order (returns how many)."""
    P = a.n_species.shape[1]
    n = 0
    for k in range(P):
        p = (a.first[b] + k) % P
        if a.hand_n[b, p] == 0:
            continue
        card = bot_food_card(idx[p], a, rk, b, p, mem)
        if card < 0 or not hand_remove(a, b, p, card):
            continue
        a.loc[b, card] = FOOD_CARD
        foods[n] = rk.cardfood[card]
        n += 1
    for k in range(P):
        p = (a.first[b] + k) % P
        m = bot_plan(idx[p], a, rk, b, p, acts, mem)
        for j in range(m):
            play_action(a, rk, b, p, acts[j, 0], acts[j, 1], acts[j, 2], acts[j, 3])
        hand_sort(a, b, p)
    return n


@inline_kernel
def round_start(a, rk, b, phases, idx, acts, foods, mem):
    """DEAL and CARDS of game b's round (idx: each seat's bot). False if the game
    ended before the round could be dealt (cs4500)."""
    if phases & DEAL:
        if not deal(a, rk, b):
            return False
    if phases & CARDS:
        n = food_cards_and_plays(a, rk, b, idx, acts, foods, mem)
        reveal_effects(a, rk, b, YES)        # those the rules time before the food cards
        add_food_cards(a, rk, b, foods, np.int64(n))
        for c in range(a.loc.shape[1]):
            if a.loc[b, c] == FOOD_CARD:
                a.loc[b, c] = DISCARD
    return True


@inline_kernel
def round_end(a, rk, b, phases, idx, opts, mem, err, single, turn, q):
    """REVEAL, FEEDING (single >= 0: one feeding turn of that seat, numbered `turn`, whose
    outcome is returned; q: the feeding's saved place, see feeding), END_FEEDING and NEXT
    of game b's round."""
    P = a.n_species.shape[1]
    out = OUT
    if phases & REVEAL:
        reveal_effects(a, rk, b, NO)
    if phases & FEEDING:
        out = feeding(a, rk, b, idx, opts, mem, err, single, turn, q)
    if phases & END_FEEDING:
        end_feeding(a, rk, b)
    if phases & NEXT:
        for p in range(P):
            hand_sort(a, b, p)
        if rk.first_player_rotates:
            a.first[b] = (a.first[b] + 1) % P
        a.round[b] += 1
    return out




@inline_kernel
def play_round(a, rk, b, idx, opts, acts, foods, mem, err):
    """One round of game b. False if the game ended before it could be played."""
    if not round_start(a, rk, b, DEAL | CARDS, idx, acts, foods, mem):
        return False
    fresh(a.fq)
    round_end(a, rk, b, REVEAL | FEEDING | END_FEEDING | NEXT, idx, opts, mem, err, -1, 0, a.fq)
    return True


@kernel
def rounds(a, rk, g, phases, idx, opts, acts, foods, mem, err, single, turn, out):
    """The `phases` of a round for each game of g (foods: one row per game); out: whether
    it was dealt (DEAL) or the feeding turn's outcome (single >= 0). The feeding starts
    from a.fq's saved place (feeding; fresh: a whole feeding)."""
    for k in range(len(g)):
        b = g[k]
        ok = round_start(a, rk, b, phases & (DEAL | CARDS), idx, acts, foods[k], mem)
        out[k] = ok
        if ok and phases & (REVEAL | FEEDING | END_FEEDING | NEXT):
            r = round_end(a, rk, b, phases, idx, opts, mem, err, single, turn, a.fq)
            if single >= 0:
                out[k] = r


@kernel
def ask(a, rk, b, mode, x, idx, opts, acts, mem):
    seat = x[0]
    if mode == ASK_FOOD_CARD:
        return bot_food_card(idx[seat], a, rk, b, seat, mem)
    if mode == ASK_PLAN:
        return bot_plan(idx[seat], a, rk, b, seat, acts, mem)
    return bot_feed(idx[seat], a, rk, b, seat, opts, x[1], 0, mem)


@inline_kernel
def record_standing(a, b, standing):
    """Each seat's score so far (rules.scores of game b) as its standing after the round
    just played (round a.round[b], 1-based)."""
    r = a.round[b] - 1
    for p in range(a.n_species.shape[1]):
        t = np.int64(a.bag[b, p])
        for s in range(a.n_species[b, p]):
            t += np.int64(a.pop[b, p, s]) + np.int64(a.n_traits[b, p, s])
        standing[b, r, p] = t


@inline_kernel
def reset_memory(mem, mem0):
    for p in range(mem.shape[0]):
        for j in range(mem.shape[1]):
            mem[p, j] = mem0[p, j]


@kernel
def play_all(a, rk, idx, players, opts, acts, foods, mem, mem0, err, standing):
    """Set up and play every game of the batch to its end (reference.play_one).
    Each game starts with the bots' memory `mem0` (a script's place is per game, so a
    game's rows do not depend on the games before it in the batch).
    `standing` (B, max_rounds, P): with B > 0, each seat's score after every round played
    (the trajectories); a (0, 0, 0) array records nothing."""
    record = standing.shape[0] > 0
    for b in range(a.n_species.shape[0]):
        reset_memory(mem, mem0)
        setup(a, rk, b, players)
        while True:
            if not play_round(a, rk, b, idx, opts, acts, foods, mem, err):
                break
            if record:
                record_standing(a, b, standing)
            if a.round[b] > a.final_round[b]:
                break
            if a.round[b] >= rk.max_rounds:
                a.end_reason[b] = A.END_MAX_ROUNDS
                break


@inline_kernel
def ended(a, rk, b):
    """After a round of game b: whether the game is over (play_all's tests, in its order)."""
    if a.round[b] > a.final_round[b]:
        return True
    if a.round[b] >= rk.max_rounds:
        a.end_reason[b] = A.END_MAX_ROUNDS
        return True
    return False


@kernel
def play_branches(a, rk, K, seat, at, options, games, place, idx, opts, acts, foods, mem, mem0, err):
    """A search's continuations (branch.py): games 0..K-1 of the batch are K decision points
    (determinizations of one saved feeding turn of `seat`, its place in the feeding in
    `place` = [queue length n, passes, turn, queue...]); continuation (o, k) is game
    K + o * K + k: a copy of game k, played on the stream of games[k] with options[o]
    appended to the seat's scripted feeding choices (its memory row's script part starts
    at `at`, decisions.Policy.script_at), from that feeding turn to the game's end."""
    O = options.shape[0]
    n = place[0]
    for o in range(O):
        for k in range(K):
            b = K + o * K + k
            copy_game(a, k, b)
            a.games[b] = games[k]
            reset_memory(mem, mem0)
            nf = mem[seat, at + N_FEED]
            mem[seat, at + LISTS + mem[seat, at + N_FOOD] + nf] = options[o]
            mem[seat, at + FEED_POS] = nf
            mem[seat, at + N_FEED] = nf + 1
            for j in range(n):
                a.order[j] = place[3 + j]
            a.fq[Q_N], a.fq[Q_PASSES], a.fq[Q_TURN], a.fq[Q_STOP] = n, place[1], place[2], 0
            round_end(a, rk, b, FEEDING | END_FEEDING | NEXT, idx, opts, mem, err, -1, 0, a.fq)
            if err[0]:
                return
            if ended(a, rk, b):
                continue
            while play_round(a, rk, b, idx, opts, acts, foods, mem, err):
                if err[0] or ended(a, rk, b):
                    break
            if err[0]:
                return
