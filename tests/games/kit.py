"""The shared checks' helpers: every registered game, its variants, its bots, its outcomes.

Nothing here names a game: a game added to simcore.games.GAMES gets every check of
tests/games/ with no new test code (the pattern of scikit-learn's check_estimator).
"""
from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from pathlib import Path

import numpy as np

from simcore.games import GAMES, get_game
from simcore.runner import check_spec, run_chunk
from strategies.registry import _BOTS, bot_names, make_bots

OUTCOME_KEYS = ("score", "winner", "rounds", "end_reason", "faction", "acquired")
FACTS = Path(__file__).resolve().parents[1] / "data" / "games"


@cache
def facts(game: str) -> dict:
    """tests/data/games/<game>.toml: what the shared checks need to know about the game
    (its bots' fallbacks, how its standing reads, ...), as data."""
    with open(FACTS / f"{game}.toml", "rb") as f:
        return tomllib.load(f)


def decision_points(game: str, players: int, seed: int, game_index: int):
    """(state, (seat, kind)) at every stop (the game's search_until) of one game of the
    default bot where a seat decides."""
    g = get_game(game)
    rs = g.data.load()
    bots = make_bots(game, g.default_bot, players)
    state = g.new_state(rs, players, bots, seed, game_index)
    while not state.get("ended"):
        point = g.decision_point(rs, state)
        if point is not None:
            yield state, point
        state, raw = g.run_state("batch", rs, state, bots, seed, game_index, g.search_until)
        if raw is not None:             # the game ended at this stop
            return


def games_with(section: str) -> list[str]:
    """The registered games whose facts file has `section`."""
    return [g for g in GAMES if section in facts(g)]


def variants(game: str) -> list[str]:
    return list(get_game(game).data.load().variants)


def game_variants() -> list[tuple[str, str]]:
    """Every (game, variant) pair, for parametrising."""
    return [(g, v) for g in GAMES for v in variants(g)]


def game_variant_counts() -> list[tuple[str, str, int]]:
    """Every (game, variant, player count), for parametrising: one test each, so the test
    run's workers share a game's long agreement checks instead of one worker taking them all."""
    return [(g, v, p) for g, v in game_variants() for p in player_counts(g, v)]


def player_counts(game: str, variant: str = "default") -> list[int]:
    rs = get_game(game).data.load(variant)
    lo, hi = get_game(game).player_range(rs)
    return list(range(lo, hi + 1))


def four_or_nearest(game: str, variant: str = "default") -> int:
    counts = player_counts(game, variant)
    return min(counts, key=lambda n: abs(n - 4))


def default_bots(game: str, players: int):
    return make_bots(game, get_game(game).default_bot, players)


# test_new_bot_file.py's probe bot: a file that exists only while that test runs (on
# another xdist worker it can vanish between listing the bots and a loky worker's import)
PROBE_MODULE = "probe_bot_under_test"


def shipped_bot_names(game: str) -> list[str]:
    """The bots the package ships: every registered bot but the probe of test_new_bot_file."""
    return [n for n in bot_names(game) if _BOTS[(game, n)].__module__.rsplit(".", 1)[-1] != PROBE_MODULE]


def mixed_bots(game: str, players: int):
    """Every shipped bot of the game in turn around the table (the default bot first);
    search bots (rollout) are left out: too slow for these checks (test_rollout_shared.py)."""
    names = [n for n in shipped_bot_names(game) if not make_bots(game, n, 1)[0].plays_games]
    first = get_game(game).default_bot
    order = [first] + [n for n in names if n != first and n != "script"]
    return make_bots(game, [order[s % len(order)] for s in range(players)], players)


def outcome_row(out: dict, i: int | None = None) -> dict:
    """One game's outcome as plain lists (i: the game's row in a batch outcome)."""
    if i is not None:
        return batch_rows(out, [i])[0]
    row = {k: np.asarray(out[k]).tolist() for k in OUTCOME_KEYS}
    for k, v in out.get("extra", {}).items():
        row[f"extra.{k}"] = np.ma.asarray(v).tolist()  # a masked entry (not known) is None
    return row


def batch_rows(out: dict, index=None) -> list[dict]:
    """Rows `index` (default: all) of a batch outcome as plain lists, each converted once:
    per-game conversion of the whole batch made a 2,500-game agreement block quadratic."""
    pick = slice(None) if index is None else list(index)
    cols = {k: np.asarray(out[k])[pick].tolist() for k in OUTCOME_KEYS}
    for k, v in out.get("extra", {}).items():
        cols[f"extra.{k}"] = np.ma.asarray(v)[pick].tolist()  # a masked entry (not known) is None
    return [dict(zip(cols, row)) for row in zip(*cols.values())]


def assert_engines_agree(game: str, variant: str, players: int, bots, seed: int, games,
                         overrides: dict | None = None) -> None:
    """Batch engine and reference engine: identical outcomes, game by game (`overrides`:
    parameter = value on top of the variant)."""
    g = get_game(game)
    rs = g.data.load(variant, overrides=overrides or {})
    games = np.asarray(list(games), dtype=np.int64)
    batch = batch_rows(g.play_batch(rs, players, bots, seed, games))
    for got, k in zip(batch, games):
        ref = outcome_row(g.play_one(rs, players, bots, seed, int(k)))
        diff = [key for key in ref if ref[key] != got.get(key)]
        assert not diff, (f"{game}/{variant} game {k} ({players}p, {[b.name for b in bots]}): "
                          + "; ".join(f"{key}: batch {got.get(key)} != reference {ref[key]}" for key in diff))


def rows(game: str, variant: str, players: int, bots, seed: int, start: int, stop: int):
    rs = get_game(game).data.load(variant)
    spec = check_spec(rs, bots, players, None, seed)
    return run_chunk(spec, start, stop)[0]


def rows_digest(df) -> str:
    """sha256 of per-game rows, independent of polars' binary formats: CSV text, sorted by game."""
    return hashlib.sha256(df.sort("game").write_csv().encode()).hexdigest()


def restricted_lineups(game: str, players: int, per_lineup: int = 4):
    """Line-ups with the default bot favouring one entity and avoiding another
    (+favor/+avoid), walking every entity of the default data; [] if the default bot takes no
    modifier. Each: seat 0 favours entity i, seat 1 avoids entity i + 1, the rest plain."""
    from strategies.registry import _BOTS, _load
    g = get_game(game)
    base = g.default_bot
    _load(game)
    if not getattr(_BOTS[(game, base)], "restrictable", False):
        return []
    rs = g.data.load()
    names = list(dict.fromkeys(str(n) for n in g.entities(rs)))
    out = []
    for i, e in enumerate(names):
        specs = [f"{base}+favor:{e}", f"{base}+avoid:{names[(i + 1) % len(names)]}"] + [base] * (players - 2)
        out.append(make_bots(game, specs[:players], players, rs))
    return out


WEIGHTS_DATA = Path(__file__).resolve().parents[1] / "data" / "weights"


def weights_lineup(game: str, players: int):
    """The weights as data: seat 0 plays the default bot with tests/data/weights/<game>.toml
    (every weight moved), seat 1 the same file with +favor of the first entity (when the bot
    takes modifiers), the rest the default weights; None if the default bot takes no
    `weights` option or the game has no test file."""
    from strategies.registry import _BOTS, _load, _option_keys
    g = get_game(game)
    base = g.default_bot
    _load(game)
    path = WEIGHTS_DATA / f"{game}.toml"
    cls = _BOTS[(game, base)]
    if "weights" not in _option_keys(cls) or not path.exists():
        return None
    rs = g.data.load()
    spec = f"{base}:weights={path}"
    second = spec
    if getattr(cls, "restrictable", False):
        second += f"+favor:{g.entities(rs)[0]}"
    return make_bots(game, ([spec, second] + [base] * players)[:players], players, rs)
