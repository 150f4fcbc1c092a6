"""Kingmaking: how often a player who can no longer win still decides who wins.

In a game of 3 or more players, at every searchable decision (the game's search protocol:
`decision_point`, `legal_options`, `branch`; docs/rollout.md) of every seat, the decision
is branched over its distinct options from the true state, each option played on to the
end K times (continuation k on the same streams for every option: common random numbers,
so what differs between options is the decision and what follows from it). From those
options x K games:

- the deciding seat's chance to win is its best option's mean win share; below `hopeless`
  the seat cannot (as far as K playouts tell) win any more;
- the decision's swing is the largest change, between two options, of one other seat's
  mean win share;

and a hopeless seat's decision whose swing is at least `swing`, and more than chance among
the K playouts gives (`swing_p_value`: the options' labels permuted within each continuation,
which keeps the common-random-number pairing; p <= `alpha`), is a kingmaking decision. The same
rule applied to each decision with its options relabelled at random is the null: the share of
games it flags (`null_share`) is what the measure finds where no choice matters.
A game with at least one is a kingmaking game; the share of such games, with its Wilson
interval, is the measure (docs/metrics.md, "Kingmaking"). The actual game goes on with the
seat's own bot's choice, so the games measured are the bots' games.

Only the decision kinds a game's search protocol exposes are branched (`Game.search_kinds`:
Evolution's feeding choices, Evolversi's placements, Evo's first bid and move, Capybara's
action); the share is a lower bound on kingmaking through every decision.

    balancelab kingmaking evolution --players 4 --games 40 --bots greedy,trained
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from reports.measures.stats import wilson
from simcore import rng
from simcore.errors import UserError
from simcore.games import get_game
from strategies.registry import _BOTS, _load

HOPELESS = 0.05     # a seat whose best option wins less than this share of its playouts cannot win
SWING = 0.5         # a decision that moves another seat's win share by at least this much decides the winner
PLAYOUTS = 8        # continuations per option (K)
ALPHA = 0.05        # a swing counts when chance among the playouts gives it at most this often
PERMUTATIONS = 200  # relabellings of the options for a swing's p-value
_TAG = 43           # the address of kingmaking's continuation streams, apart from the rollout bot's


@dataclass
class GameScan:
    """What one game's decisions showed."""
    game: int
    decisions: int = 0            # branched decisions (two or more distinct options)
    hopeless: int = 0             # of them, by a seat below `hopeless`
    kingmaking: int = 0           # of them, with a swing >= `swing` beyond chance (p <= alpha)
    null: int = 0                 # of the hopeless ones, flagged with their options relabelled at random
    swings: list = field(default_factory=list)   # (seat, kind, chance, swing) of each kingmaking decision
    winner: tuple = ()            # the game's winners (seat flags), as the bots played it


def _shares(out, options: int, k: int) -> np.ndarray:
    """Each row's win shares as (options, k, seats) (row o * k + j)."""
    winner = np.asarray(out["winner"], bool)
    return (winner / np.maximum(winner.sum(axis=1, keepdims=True), 1)).reshape(options, k, -1)


def _swings(share: np.ndarray, seat: int) -> np.ndarray:
    """The swing of each table: share (..., options, k, seats) -> (...)."""
    mean = np.delete(share.mean(axis=-2), seat, axis=-1)         # (..., options, others)
    return (mean.max(axis=-2) - mean.min(axis=-2)).max(axis=-1, initial=0.0)


def decision_effect(out, seat: int, options: int, k: int) -> tuple[float, float]:
    """(the seat's best option's mean win share, the largest change of another seat's mean win
    share between two options) from a branch Outcome of options x k rows (row o * k + j)."""
    share = _shares(out, options, k)
    return float(share.mean(axis=1)[:, seat].max()), float(_swings(share, seat))


def _relabel(share: np.ndarray, gen: np.random.Generator, times: int) -> np.ndarray:
    """`times` copies of the table with the options' labels permuted within each continuation
    (each permuted option keeps one row per stream: the common-random-number pairing holds)."""
    options, k, _ = share.shape
    order = np.argsort(gen.random((times, options, k)), axis=1)
    return np.take_along_axis(share[None], order[..., None], axis=1)


def swing_p_value(share: np.ndarray, seat: int, gen: np.random.Generator,
                  permutations: int = PERMUTATIONS) -> float:
    """The p-value of a table's swing against its relabellings: (1 + relabellings swinging at
    least as much) / (1 + permutations)."""
    observed = float(_swings(share, seat))
    null = _swings(_relabel(share, gen, permutations), seat)
    return float((1 + np.sum(null >= observed - 1e-12)) / (1 + permutations))


def counts_as_kingmaking(share: np.ndarray, seat: int, swing: float, alpha: float, gen: np.random.Generator) -> bool:
    """A hopeless seat's decision table: its swing reaches `swing` and chance among the playouts
    gives that at most `alpha` of the time."""
    return float(_swings(share, seat)) >= swing and swing_p_value(share, seat, gen) <= alpha


def scan_game(g, rs, players: int, bots, seed: int, game: int, playouts: int = PLAYOUTS,
              hopeless: float = HOPELESS, swing: float = SWING, kinds=None, alpha: float = ALPHA) -> GameScan:
    """Play game `game` of run `seed` with `bots` (each a script that falls back to the seat's
    bot: an empty script is the bot itself), branching every searchable decision."""
    kinds = tuple(kinds or g.search_kinds)
    scan = GameScan(game)
    state = g.new_state(rs, players, bots, seed, game)
    n = 0
    while True:
        point = g.decision_point(rs, state)
        if point is not None and point[1] in kinds:
            seat, kind = point
            labels = g.legal_options(rs, state, seat, kind)
            firsts = [i for i, lab in enumerate(labels) if lab not in labels[:i]]
            if len(firsts) > 1:
                keys = [int(rng.key(seed, game, rng.SEARCH, n, seat, k, _TAG)) for k in range(playouts)]
                states = [state] * playouts
                scan.decisions += 1
                # one option winning `hopeless` or more proves the seat can still win: the other
                # options need not be played (the best option's share is at least this one's)
                first, _ = decision_effect(g.branch(rs, states, seat, kind, firsts[:1], bots, seed, game, keys),
                                           seat, 1, playouts)
                if first < hopeless:
                    out = g.branch(rs, states, seat, kind, firsts, bots, seed, game, keys)
                    chance, moved = decision_effect(out, seat, len(firsts), playouts)
                if first < hopeless and chance < hopeless:
                    scan.hopeless += 1
                    share = _shares(out, len(firsts), playouts)
                    gen = np.random.default_rng(keys[0])
                    if counts_as_kingmaking(share, seat, swing, alpha, gen):
                        scan.kingmaking += 1
                        scan.swings.append((seat, kind, chance, moved))
                    # the null: the same rule on the table with its options relabelled at random
                    if counts_as_kingmaking(_relabel(share, gen, 1)[0], seat, swing, alpha, gen):
                        scan.null += 1
            n += 1
        state, raw = g.run_state("batch", rs, state, bots, seed, game, g.search_until)
        if raw is not None:
            scan.winner = tuple(bool(w) for w in np.asarray(g.state_outcome(rs, players, raw)["winner"])[0])
            return scan


def forcing_bot(game: str, name: str):
    """The bot `name` as a script that falls back to it (what `branch` forces options through)."""
    _load(game)
    try:
        return _BOTS[(game, "rollout")](base=name).forcing()
    except UserError as e:
        raise UserError(f"kingmaking: {name!r} cannot have its options forced (a bot a script falls back to is "
                        f"needed; {str(e).partition('; ')[2]})", key="--bots") from None


def check(game_name: str, rs, players: int, games: int, playouts: int, hopeless: float, swing: float,
          alpha: float = ALPHA) -> None:
    """One UserError naming the bad argument, before any game is played."""
    g = get_game(game_name)
    lo, hi = g.player_range(rs)
    if players < max(3, lo) or players > hi:
        raise UserError(f"kingmaking needs 3 or more players and {game_name} seats {lo}-{hi}; got {players}",
                        key="--players")
    if games < 1:
        raise UserError(f"must be at least 1, got {games}", key="--games")
    if playouts < 1:
        raise UserError(f"must be at least 1, got {playouts}", key="--playouts")
    if not 0 < hopeless <= 1:
        raise UserError(f"must be in (0, 1], got {hopeless}", key="--hopeless")
    if not 0 < swing <= 1:
        raise UserError(f"must be in (0, 1], got {swing}", key="--swing")
    if not 0 < alpha < 1:
        raise UserError(f"must be in (0, 1), got {alpha}", key="--alpha")
    from strategies.rollout import missing  # start-up: loads every game's adapter
    gaps = missing(g)
    if gaps:
        raise UserError(f"{game_name} does not provide the search protocol (missing: {', '.join(gaps)})",
                        key="ruleset")


def kingmaking(game_name: str, rs, players: int = 4, bot: str | None = None, games: int = 40, seed: int = 0,
               playouts: int = PLAYOUTS, hopeless: float = HOPELESS, swing: float = SWING,
               progress=None, alpha: float = ALPHA) -> dict:
    """Every seat played by `bot` (default: the game's default bot): the share of games with a
    kingmaking decision and its 95% Wilson interval, with the per-game scans."""
    check(game_name, rs, players, games, playouts, hopeless, swing, alpha)
    g = get_game(game_name)
    name = bot or g.default_bot
    seats = [forcing_bot(game_name, name)] * players
    scans = []
    for k in range(games):
        scans.append(scan_game(g, rs, players, seats, seed, k, playouts, hopeless, swing, alpha=alpha))
        if progress is not None:
            progress(k + 1, games)
    hit = sum(1 for s in scans if s.kingmaking)
    p, lo, hi = wilson(hit, len(scans))
    null_hit = sum(1 for s in scans if s.null)
    null_p, null_lo, null_hi = wilson(null_hit, len(scans))
    return {"game": game_name, "variant": rs.variant, "players": players, "bot": name, "games": len(scans),
            "seed": seed, "playouts": playouts, "hopeless": hopeless, "swing": swing, "alpha": alpha,
            "kingmaking_games": hit, "share": float(p), "lo": float(lo), "hi": float(hi),
            "null_share": float(null_p), "null_lo": float(null_lo), "null_hi": float(null_hi),
            "decisions": sum(s.decisions for s in scans), "hopeless_decisions": sum(s.hopeless for s in scans),
            "kingmaking_decisions": sum(s.kingmaking for s in scans), "scans": scans}


def text(rows: list[dict]) -> str:
    """One line per (bot) measurement, then how to read it."""
    if not rows:
        return ""
    r0 = rows[0]
    head = (f"kingmaking: {r0['game']}/{r0['variant']}, {r0['players']} players, {r0['games']} games per bot, "
            f"{r0['playouts']} playouts per option; hopeless below {r0['hopeless']:.2f} win chance, "
            f"swing >= {r0['swing']:.2f}")
    lines = [head, f"{'bot':<24} {'games':>5} {'share':>6} {'95% interval':>16} {'null':>6} {'decisions':>9} "
                   f"{'hopeless':>8} {'kingmaking':>10}"]
    for r in rows:
        lines.append(f"{r['bot']:<24} {r['games']:>5} {r['share']:>6.3f} [{r['lo']:.3f}, {r['hi']:.3f}]"
                     f" {r['null_share']:>6.3f} {r['decisions']:>9} {r['hopeless_decisions']:>8}"
                     f" {r['kingmaking_decisions']:>10}")
    lines.append("share: games with at least one decision, by a seat that could no longer win, that moved "
                 "another seat's win chance by at least the swing, beyond what chance among the playouts gives "
                 f"(p <= {r0.get('alpha', ALPHA):g}); null: the same share with each decision's options relabelled "
                 "at random, what the measure finds where no choice matters (docs/metrics.md, Kingmaking)")
    return "\n".join(lines)
