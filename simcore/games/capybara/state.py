"""The batch engine's state: one game as a flat int64 array `g`, the rules as a flat int64
array `rk` (both numba- and C-callable friendly: the compiled bots receive exactly these).

`rk` starts with the rule numbers at fixed indices R_*, then the offsets O_* of every
field of `g` (they depend on P, m, N, S), then the card and strike tables. `g` starts with
the scalars at fixed indices G_*; its arrays follow at rk[O_*] (row-major, shapes below).
The batch loops over its games reusing one `g` (nothing allocated per game); outcomes go
to the batch's (B, ...) output arrays.
"""
from __future__ import annotations

import numpy as np

from .codes import EFFECTS, SYMBOLS
from .schema import design_key, shuffle_id

# ---- rk: rule numbers (fixed indices)
(R_P, R_M, R_H, R_N, R_REV, R_S, R_C, R_E, R_TOKENS, R_OPENING, R_DISCARD_PLACE, R_EXTRA, R_BONUS,
 R_BOXED_RESOLVE, R_DBL_FACTOR, R_DBL_REPEATS, R_PEEK, R_ALL_PLACE, R_GIFT, R_SMALL, R_RM_COLOURS,
 R_RM_CANCELS, R_K, R_L, R_MAX_TURNS, R_IDLE_FORBIDDEN) = range(26)
# ---- rk: offsets of the fields of g
(O_HAND, O_HAND_N, O_DECK, O_DISC, O_SDECK, O_SLOT, O_UNDER, O_UNDER_N, O_TOK, O_LOCK, O_LOCK_N,
 O_SUP, O_TAKEN, O_TAKEN_N, O_TFAT, O_SFAT, O_PLAYED, O_DCNT, O_TPLAY, O_ANS, O_OPTS, O_CTX,
 O_SCRIPT, O_SCRIPT_N, O_SPOS, O_TOK2, O_SUP2, O_SFAT2, O_TFAT2, O_OPTS2, O_INPLAY, O_FRAME, O_TMP,
 O_HLIST, O_SIZE) = range(26, 61)
# ---- rk: offsets of the tables (indexed by card uid / strike uid). T_SSYM is the printed
# symbol in force (p.symbols), what the bots believe; T_CACT / T_SACT the rows' `active`
# flags (knockouts), which only the rules read.
# T_CSID / T_SSID: the shuffle address of each card (N + R, Revolutions too) / strike uid.
(T_CCOL, T_CEFF, T_CAMT, T_CNAME, T_SFAT, T_SSYM, T_SCOL, T_CACT, T_SACT, T_CSID, T_SSID) = range(61, 72)
RK_HEADER = 72

# ---- g: scalars (fixed indices)
(G_TURN, G_CUR, G_RP, G_RB, G_ENDED, G_REASON, G_DTOP, G_DLEN, G_DISC_N, G_SDTOP, G_SDLEN, G_GAME,
 G_ERR, G_TPLAY_N, G_ANS_N, G_FIRST) = range(16)
G_HEADER = 16
CTX = 16                  # decision context words (g[rk[O_CTX] + k], see decisions.py)
SCRIPT_MAX = 256          # scripted choices per seat


def card_uids(rs):
    """Contract section 1: (key, copy) pairs sorted by key then copy -> the card rows, by uid."""
    pairs = sorted((design_key(r), c, r) for r in rs.tables["cards"] for c in range(r["copies"]))
    return [(k, r) for k, _, r in pairs]


def card_copies(rs):
    """(key, copy index) per card uid (contract section 1 order)."""
    return sorted((design_key(r), c) for r in rs.tables["cards"] for c in range(r["copies"]))


def strike_copies(rs):
    return sorted((r["name"], c) for r in rs.tables["strikes"] for c in range(r["copies"]))


def strike_uids(rs):
    pairs = sorted((r["name"], c, r) for r in rs.tables["strikes"] for c in range(r["copies"]))
    return [(k, r) for k, _, r in pairs]


def entity_names(rs) -> list[str]:
    """The tallied card names: distinct `name`s of cards.csv in first-appearance row order."""
    out: list[str] = []
    for r in rs.tables["cards"]:
        if r["name"] not in out:
            out.append(r["name"])
    return out


def max_turns(N: int, R: int, P: int) -> int:
    """The batch engine's turn limit (N cards, R Revolutions, P seats): every turn removes a
    card from hand or deck, so the bound only catches an engine bug."""
    return 4 * (N + R) + 8 * P + 64


def round_cap(rs, players: int) -> int:
    """The most table rounds a game can last (the turn limit in whole rounds): the fixed
    width R of the trajectories' (B, R, P) standing array."""
    N = sum(r["copies"] for r in rs.tables["cards"])
    return -(-max_turns(N, rs["revolutions"], players) // players)


def pack_rules(rs, players: int) -> np.ndarray:
    """The flat rules array `rk` for P = players (rule numbers, g offsets, tables)."""
    p = rs.params
    P = players
    m = P + p["strikes_extra"]
    cards, strikes = card_uids(rs), strike_uids(rs)
    N, S, R = len(cards), len(strikes), p["revolutions"]
    colours, names = list(p["colours"]), entity_names(rs)
    small = P <= p["small_game_max_players"]
    K = 2 * (N + R) + m * m + P * m + 2
    head = np.zeros(RK_HEADER, np.int64)
    head[[R_P, R_M, R_H, R_N, R_REV, R_S, R_C, R_E]] = [P, m, p["hand_size_small"] if small else p["hand_size"],
                                                         N, R, S, len(colours), len(names)]
    head[R_TOKENS] = p["tokens_per_player"]
    head[R_OPENING] = p["opening_tokens"]
    head[R_DISCARD_PLACE] = p["discard_place_tokens"]
    head[R_EXTRA] = p["revolution_extra_cards"]
    head[R_BONUS] = p["revolution_extra"] == "bonus"
    head[R_BOXED_RESOLVE] = p["boxed_last_revolution"] == "resolve"
    head[R_DBL_FACTOR] = p["double_tokens_factor"]
    head[R_DBL_REPEATS] = p["crown_double_repeats"]
    head[R_PEEK] = p["peek_cards"]
    head[R_ALL_PLACE] = p["all_place_tokens"]
    head[R_GIFT] = p["banned_gift_strikes"]
    head[R_SMALL] = small
    head[R_RM_COLOURS] = p["small_game_removed_colours"]
    head[R_RM_CANCELS] = p["small_game_removed_cancels"]
    head[R_K] = K
    head[R_L] = SCRIPT_MAX
    head[R_MAX_TURNS] = max_turns(N, R, P)
    head[R_IDLE_FORBIDDEN] = p["no_effect_plays"] == "forbidden"
    sizes = [(O_HAND, P * N), (O_HAND_N, P), (O_DECK, N + R), (O_DISC, N + R), (O_SDECK, S), (O_SLOT, m),
             (O_UNDER, m * S), (O_UNDER_N, m), (O_TOK, m * P), (O_LOCK, m * N), (O_LOCK_N, m), (O_SUP, P),
             (O_TAKEN, P * S), (O_TAKEN_N, P), (O_TFAT, P), (O_SFAT, m), (O_PLAYED, P * len(names)),
             (O_DCNT, P), (O_TPLAY, N), (O_ANS, N), (O_OPTS, 2 * K), (O_CTX, CTX),
             (O_SCRIPT, P * SCRIPT_MAX * 2), (O_SCRIPT_N, P), (O_SPOS, P), (O_TOK2, m * P), (O_SUP2, P),
             (O_SFAT2, m), (O_TFAT2, P), (O_OPTS2, 2 * K),
             # per capybara card: 1 in play, 2 returned to the box at setup (the state's
             # `removed`), 0 neither (a scenario state that leaves it out)
             (O_INPLAY, N), (O_FRAME, N),
             # each seat's hand as a list of uids, ascending (its first O_HAND_N words): the
             # same cards as the O_HAND flags, for the engine's scans of a hand
             (O_HLIST, P * N),
             # engine scratch (setup, answer frames: the first 2 (N + R + S) words), then the policies'
             (O_TMP, 2 * (N + R + S) + m + P + 6 * N + 5)]
    at = G_HEADER
    for o, n in sizes:
        head[o] = at
        at += n
    head[O_SIZE] = at
    tables = [
        [colours.index(r["colour"]) if r["colour"] else -1 for _, r in cards],
        [EFFECTS.index(r["effect"]) for _, r in cards],
        [r["amount"] for _, r in cards],
        [names.index(r["name"]) for _, r in cards],
        [r["fatigue"] for _, r in strikes],
        [SYMBOLS.index(r["symbol"]) + 1 if r["symbol"] in p["symbols"] else 0 for _, r in strikes],
        [colours.index(r["colour"]) if r["colour"] else -1 for _, r in strikes],
        [r["active"] for _, r in cards],
        [r["active"] for _, r in strikes],
        [shuffle_id("card", k, c) for k, c in card_copies(rs)] + [shuffle_id("revolution", "Revolution", i)
                                                                    for i in range(R)],
        [shuffle_id("strike", k, c) for k, c in strike_copies(rs)],
    ]
    at = RK_HEADER
    for t, col in zip(range(T_CCOL, T_SSID + 1), tables):
        head[t] = at
        at += len(col)
    return np.concatenate([head] + [np.asarray(c, np.int64) for c in tables]).astype(np.int64)


def new_game_array(rk: np.ndarray) -> np.ndarray:
    return np.zeros(int(rk[O_SIZE]), np.int64)
