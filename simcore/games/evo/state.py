"""The batch engine's state: one game as a flat int64 array `g`, the rules and tables as a
flat int64 array `rk`, a uint64 scratch `u` (u[0] = the run seed). The compiled bots
receive g and rk (decisions.py says what they may read and write).

`rk` starts with the rule numbers at fixed indices R_*, then the offsets O_* of every
field of `g`, then the offsets X_* of the tables (each a row-major block of rk, shapes
below). `g` starts with the scalars G_*; its arrays follow at rk[O_*]. The batch loops
over its games reusing one `g` (nothing allocated per game); `Packed` holds the three.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .codes import COLD, DEADLY, HOT, N_TRAITS
from .maps import map_of
from .schema import CLASSES, EVENT_EFFECTS, GENE_EFFECTS, uid_order

# ---- rk: rule numbers and sizes (fixed indices)
(R_P, R_Z, R_E, R_NG, R_NEV, R_NCL, R_S, R_T, R_F, R_NSH, R_ROUNDS, R_TRAJ, R_K, R_L, R_DEG, R_DICE,
 R_START_MP, R_CAP, R_UNIQUE_IN_BAG, R_BASE_MOVES, R_BASE_HORNS, R_BASE_THERMO, R_BASE_FUR, R_BASE_EGGS,
 R_BIRTH_RANGE, R_FLOOR, R_MP_PER_DINO, R_MIN_BID, R_MAX_BID, R_MIN_COST, R_CLIMATE_DISCARDED,
 R_METEORITE_PILE, R_WHEEL_START, R_WINGS_COST, R_WINGS_USES, R_FLIP_COST, R_FLIP_USES, R_HORN_ADD,
 R_KB_FLOOR, R_EGGS_MAX, R_IDLE_FORBIDDEN) = range(41)
# ---- rk: offsets of the fields of g (shapes in pack_rules' `sizes`)
(O_OWNER, O_COUNT, O_ZSETS, O_MP, O_ORDER, O_BAG, O_HELD, O_WON, O_TRAIT, O_HAND, O_HAND_N, O_DECK, O_DISC,
 O_PILE, O_REV, O_OUT, O_LAB_SEAT, O_LAB_BID, O_LAB_GENE, O_COL, O_DCNT, O_FRENZY, O_GEYSER, O_TRAJ,
 O_DRAWS, O_DICE, O_OPTS, O_SCRIPT, O_SCRIPT_N, O_SPOS, O_TMP, O_BITS, O_SEATS, O_PTMP, O_SIZE) = range(41, 76)
# ---- rk: offsets of the tables
(X_GEFF, X_GAMT, X_GACT, X_GKIND, X_GCOP, X_GFIRST, X_EVEFF, X_EVAMT, X_EVACT, X_EVNAME, X_CLKIND,
 X_CLSHIFT, X_CLNAME, X_WHEEL, X_FATT, X_FNEED, X_FBABY, X_TERR, X_COAST, X_START, X_ADJ, X_NB, X_NBN,
 X_DIST, X_IDIST, X_PSH, X_GUNAME, X_NBM, X_BALLM, X_COASTM, X_CLASSM) = range(76, 107)
RK_HEADER = 107

# ---- g: scalars (fixed indices)
(G_ROUND, G_PHASE, G_SECTOR, G_ENDED, G_REASON, G_ROUNDS, G_GAME, G_ERR, G_PILE_TOP, G_PILE_N, G_REV_N,
 G_OUT_N, G_DECK_TOP, G_DECK_N, G_DISC_N, G_ROLLS, G_ATTACKS, G_KILLS, G_BIRTHS, G_CDEATHS, G_EVENTS,
 G_DRAWS_N, G_DICE_N, G_DICE_POS, G_INFO, G_TOKEN_SHIFT, G_ACTOR, G_TRAJ_N, G_LAB_SET, G_CURSOR) = range(30)
# G_CURSOR: mid-auction / mid-movement, the position on the initiative track of the next seat
G_HEADER = 32
SCRIPT_MAX = 512          # scripted choices per seat
DICE_MAX = 256            # forced die faces a state may list
OPT_W = 3                 # words per option row (decisions.py)
# The policies' memory, at the start of O_PTMP: per seat PMEM_HEAD words and one word per
# zone that a seat's policy keeps through a game (zero at each game's start, carried into a
# search's continuations: batch_phases.setup, branch.py); the rest of O_PTMP is the policies'
# free scratch, written before it is read.
PMEM_HEAD = 4
# zone sets as bit masks (batch_bits.py): zone z is bit z % ZBITS of word z // ZBITS of a
# set; 63, not 64, so that no set word is ever negative (the sign bit stays clear). O_ZSETS:
# each seat's zones as a set, kept with O_OWNER by decisions.place / remove
ZBITS = 63
# u's last words: the round's address keys (decisions.round_keys), tagged by what they hash:
# the seed, game and round they were made for, the die prefix, then one key per seat
UK_SEED, UK_GAME, UK_ROUND, UK_DIE, UK_SEATS = range(5)
BITS_WORDS = 6            # the sets board_bits / birth_options keep in the scratch O_BITS


def zone_words(Z: int) -> int:
    """Words of a zone set on a board of Z zones (batch_bits.words)."""
    return (Z + ZBITS - 1) // ZBITS


def zone_sets(rows) -> list[int]:
    """Each row of zone flags as its set's words (zone_words of the row's length each)."""
    out = []
    for flags in rows:
        words = [0] * zone_words(len(flags))
        for z, on in enumerate(flags):
            if on:
                words[z // ZBITS] |= 1 << (z % ZBITS)
        out += words
    return out


@dataclass(frozen=True)
class Packed:
    """What the compiled engine plays on (one game at a time)."""

    rk: np.ndarray      # (RK,) int64: rule numbers R_*, offsets O_* / X_*, tables
    g: np.ndarray       # (rk[O_SIZE],) int64: one game's state, scalars G_* then arrays at rk[O_*]
    u: np.ndarray       # (u_keys + UK_SEATS + P,) uint64: u[0] seed, shuffle keys (scratch), the round's keys


_RULES: dict = {}


def gene_names(rs) -> list[str]:
    """The tallied gene names: distinct `name`s of genes.csv in first-appearance row order (E)."""
    out: list[str] = []
    for r in rs.tables["genes"]:
        if r["name"] not in out:
            out.append(r["name"])
    return out


def event_names(rs) -> list[str]:
    return [r["name"] for r in rs.tables["events"]]


def uid_rows(rs, table: str) -> list[dict]:
    """The row of each uid of a table (contract 1: by name, then copy index)."""
    by = {r["name"]: r for r in rs.tables[table]}
    return [by[name] for name, _ in uid_order(rs.tables[table])]


def max_rounds(rs) -> int:
    """The most rounds a game can have with the data (the meteorite last in the pile)."""
    shifts = sum(r["copies"] for r in rs.tables["climate"] if r["kind"] == "shift")
    return shifts - rs["climate_discarded"]


def pack_rules(rs, players: int, traj_rows: int = 0) -> np.ndarray:
    """The flat rules array `rk` for P = players (rule numbers, g offsets, tables); read-only,
    kept per ruleset content."""
    k = (rs.hash, players, traj_rows)
    if k not in _RULES:
        _RULES[k] = _pack_rules(rs, players, traj_rows)
    return _RULES[k]


def _pack_rules(rs, players: int, traj_rows: int) -> np.ndarray:
    p = rs.params
    P = players
    m = map_of(rs, P)
    Z = len(m.names)
    names = gene_names(rs)
    E = len(names)
    genes = {r["name"]: r for r in rs.tables["genes"]}
    gene_uids = uid_order(rs.tables["genes"])
    NG = len(gene_uids)
    first = [next((i for i, (n, _) in enumerate(gene_uids) if n == name), 0) for name in names]
    evs = uid_rows(rs, "events")
    ev_names = event_names(rs)
    NEV = len(evs)
    cls = uid_rows(rs, "climate")
    NCL = len(cls)
    terrains = list(p["terrains"])
    T = len(terrains)
    sectors = sorted({r["sector"] for r in rs.tables["wheel"]})
    S = len(sectors)
    wheel = np.zeros((S, T), np.int64)
    for r in rs.tables["wheel"]:
        wheel[r["sector"], terrains.index(r["terrain"])] = CLASSES.index(r["class"])
    faces = uid_rows(rs, "die")
    F = len(faces)
    shifts = list(p["prescience_shifts"])
    deg = max(1, int(m.adjacent.sum(axis=1).max()))
    nb = np.full((Z, deg), -1, np.int64)
    for z in range(Z):
        ns = np.flatnonzero(m.adjacent[z])
        nb[z, :len(ns)] = ns
    dist = m.dist.astype(np.int64)
    idist = np.full((S, Z), Z + 1, np.int64)
    for s in range(S):
        ideal = [z for z in range(Z) if wheel[s, m.terrain[z]] == 0]
        if ideal:
            idist[s] = dist[:, ideal].min(axis=1)
    dmax = int(dist.max())
    # zone sets (batch_bits.py): each zone's neighbours; each ball, zone y's zones within d
    # steps (d = 0..dmax, set y * (dmax + 1) + d, after the table's first word, dmax); the coast
    nb_sets = zone_sets(m.adjacent)
    ball_sets = zone_sets(dist[:, y] <= d for y in range(Z) for d in range(dmax + 1))
    coast_sets = zone_sets([m.coast])
    # per sector of the wheel, its hot, cold and deadly zones (set sector * 3 + class - 1)
    class_sets = zone_sets(wheel[sec, m.terrain] == c for sec in range(S) for c in (HOT, COLD, DEADLY))
    R = max_rounds(rs)
    traj = max(R, NCL, traj_rows)
    K = 3 * Z * Z + P * (p["max_bid"] + 1) + P + 8
    eggs_max = p["base_eggs"] + sum(r["amount"] * r["copies"] for r in rs.tables["genes"] if r["effect"] == "eggs")

    head = np.zeros(RK_HEADER, np.int64)
    vals = {R_P: P, R_Z: Z, R_E: E, R_NG: NG, R_NEV: NEV, R_NCL: NCL, R_S: S, R_T: T, R_F: F, R_NSH: len(shifts),
            R_ROUNDS: R, R_TRAJ: traj, R_K: K, R_L: SCRIPT_MAX, R_DEG: deg, R_DICE: DICE_MAX,
            R_START_MP: p["start_mp"], R_CAP: p["dinosaurs_per_player"], R_UNIQUE_IN_BAG: p["unique_in_bag"],
            R_BASE_MOVES: p["base_moves"], R_BASE_HORNS: p["base_horns"], R_BASE_THERMO: p["base_thermo"],
            R_BASE_FUR: p["base_fur"], R_BASE_EGGS: p["base_eggs"], R_BIRTH_RANGE: p["birth_range"],
            R_FLOOR: p["clan_floor"], R_MP_PER_DINO: p["mp_per_dinosaur"], R_MIN_BID: p["min_bid"],
            R_MAX_BID: p["max_bid"], R_MIN_COST: p["min_cost"], R_CLIMATE_DISCARDED: p["climate_discarded"],
            R_METEORITE_PILE: p["meteorite_pile"], R_WHEEL_START: p["wheel_start"],
            R_WINGS_COST: p["wings_cost"], R_WINGS_USES: p["wings_uses"], R_FLIP_COST: p["flippers_cost"],
            R_FLIP_USES: p["flippers_uses"], R_HORN_ADD: int(p["horn_genes_add"]),
            R_KB_FLOOR: int(p["killer_babies_respect_floor"]), R_EGGS_MAX: eggs_max,
            R_IDLE_FORBIDDEN: int(p["no_effect_plays"] == "forbidden")}
    for k, v in vals.items():
        head[k] = v
    sizes = [(O_OWNER, Z), (O_COUNT, P), (O_ZSETS, P * zone_words(Z)), (O_MP, P), (O_ORDER, P), (O_BAG, E),
             (O_HELD, P * E), (O_WON, P * E),
             (O_TRAIT, P * N_TRAITS), (O_HAND, P * NEV), (O_HAND_N, P), (O_DECK, NEV), (O_DISC, NEV),
             (O_PILE, NCL), (O_REV, NCL), (O_OUT, NCL), (O_LAB_SEAT, P), (O_LAB_BID, P), (O_LAB_GENE, P),
             (O_COL, P), (O_DCNT, P), (O_FRENZY, P), (O_GEYSER, P), (O_TRAJ, traj * P), (O_DRAWS, E),
             (O_DICE, DICE_MAX), (O_OPTS, OPT_W * K), (O_SCRIPT, P * SCRIPT_MAX * 2), (O_SCRIPT_N, P),
             (O_SPOS, P),
             # engine scratch: shuffles and the draw, set_traits' sums per effect, zone sets, seat lists
             (O_TMP, max(NG + NEV + 2 * NCL, 2 * len(GENE_EFFECTS))), (O_BITS, BITS_WORDS * zone_words(Z)),
             (O_SEATS, 2 * P),
             # the policies' memory (PMEM_HEAD + Z words a seat), then their scratch (a word per
             # option, per zone, 4 per seat)
             (O_PTMP, P * (PMEM_HEAD + Z) + K + Z + 4 * P + 16)]
    at = G_HEADER
    for o, n in sizes:
        head[o] = at
        at += n
    head[O_SIZE] = at
    tables = [
        (X_GEFF, [GENE_EFFECTS.index(genes[n]["effect"]) for n in names]),
        (X_GAMT, [genes[n]["amount"] for n in names]),
        (X_GACT, [int(genes[n]["active"]) for n in names]),
        (X_GKIND, [int(genes[n]["kind"] == "unique") for n in names]),
        (X_GCOP, [genes[n]["copies"] for n in names]),
        (X_GFIRST, first),
        (X_EVEFF, [EVENT_EFFECTS.index(r["effect"]) for r in evs]),
        (X_EVAMT, [r["amount"] for r in evs]),
        (X_EVACT, [int(r["active"]) for r in evs]),
        (X_EVNAME, [ev_names.index(r["name"]) for r in evs]),
        (X_CLKIND, [int(r["kind"] == "meteorite") for r in cls]),
        (X_CLSHIFT, [r["shift"] for r in cls]),
        (X_CLNAME, [[r["name"] for r in rs.tables["climate"]].index(r["name"]) for r in cls]),
        (X_WHEEL, wheel.ravel()),
        (X_FATT, [("fail", "win", "diff").index(r["attack"]) for r in faces]),
        (X_FNEED, [r["need"] for r in faces]),
        (X_FBABY, [int(r["babies"] == "lose") for r in faces]),
        (X_TERR, m.terrain.astype(np.int64)),
        (X_COAST, m.coast.astype(np.int64)),
        (X_START, m.start.astype(np.int64)),
        (X_ADJ, m.adjacent.astype(np.int64).ravel()),
        (X_NB, nb.ravel()),
        (X_NBN, m.adjacent.sum(axis=1).astype(np.int64)),
        (X_DIST, dist.ravel()),
        (X_IDIST, idist.ravel()),
        (X_PSH, shifts),
        (X_GUNAME, [names.index(n) for n, _ in gene_uids]),
        (X_NBM, nb_sets),
        (X_BALLM, [dmax] + ball_sets),
        (X_COASTM, coast_sets),
        (X_CLASSM, class_sets),
    ]
    at = RK_HEADER
    for t, col in tables:
        head[t] = at
        at += len(col)
    return np.concatenate([head] + [np.asarray(c, np.int64) for _, c in tables]).astype(np.int64)


def u_keys(rk) -> int:
    """Where the round's keys start in u (decisions.round_keys): after the shuffle scratch."""
    return int(rk[R_NG] + rk[R_NEV] + rk[R_NCL]) + 2


def new_packed(rs, players: int, seed: int, traj_rows: int = 0) -> Packed:
    rk = pack_rules(rs, players, traj_rows)
    u = np.zeros(u_keys(rk) + UK_SEATS + int(rk[R_P]), np.uint64)
    u[0] = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
    u[u_keys(rk) + UK_ROUND] = np.uint64(2**64 - 1)     # no round: the keys are computed first
    return Packed(rk=rk, g=np.zeros(int(rk[O_SIZE]), np.int64), u=u)

