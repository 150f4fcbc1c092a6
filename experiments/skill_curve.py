"""Balance across skill: every entity knocked out, per bot, and every faction's edge, per bot.

For each bot, every seat plays that bot on game indices 0..games-1 of the seed: once with the
rules as given (the base) and once per entity with that entity's effect off (a knockout: the
same cards, shuffles and draws), so each knockout is paired with its base game by game and
every bot plays the same deals. reports.measures.skill_curve turns the games into one row per
(entity, bot) with the bot's ladder rating, and flags the sign changes across skill.

    load = lambda edits: game.data.load("default", edits=edits)
    curve = skill_curve(load, ["random", "greedy", "trained"], ratings, players=4, games=2000)
"""
from __future__ import annotations

import difflib
from typing import Callable, Mapping, Sequence

import polars as pl

from reports.measures import skill_curve as S
from reports.measures.stats import z_for_family
from simcore.errors import UserError
from simcore.games import get_game
from simcore.runner import chunk_bounds

from .lineup import run_spec
from .sweep import play_chunk

KNOCKOUT_SET = {"active": 0}        # a knockout keeps the row, its effect off (as a sweep's [ablation])


def knockout_entities(rs, requested: Sequence[str] | None) -> tuple[str, str, list[str]]:
    """(table, column, entity names) the knockouts edit: the game's tallied kind, every entity of
    it or the requested ones (UserError naming a misspelt one)."""
    game = get_game(rs.game)
    table, column = game.knockout_targets[game.entity_kind]
    known = list(dict.fromkeys(str(r[column]) for r in rs.tables[table]))
    if not requested:
        return table, column, known
    by_lower = {k.lower(): k for k in known}
    out = []
    for name in requested:
        if name.lower() not in by_lower:
            close = difflib.get_close_matches(name, known, 3)
            hint = f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(known)}"
            raise UserError(f"no {game.entity_kind} named {name!r} in {rs.game}{hint}", key="--entities")
        out.append(by_lower[name.lower()])
    return table, column, list(dict.fromkeys(out))


def _play(rs, bot: str, players: int, games: int, seed: int, jobs: int) -> pl.DataFrame:
    """Games 0..games-1, every seat `bot`, with every entity's per-seat `s{i}_has_{id}` flags."""
    spec = run_spec(rs, bot, players, seed=seed)
    track = tuple(range(len(get_game(rs.game).entities(rs))))
    bounds = chunk_bounds(0, games, -(-games // jobs))
    if jobs == 1 or len(bounds) == 1:
        return pl.concat([play_chunk(spec, a, b, track)[0] for a, b in bounds])
    from joblib import Parallel, delayed
    get_game(rs.game).warmup(rs, spec.bots)          # compile once here, before the workers start
    parts = Parallel(n_jobs=jobs)(delayed(play_chunk)(spec, a, b, track) for a, b in bounds)
    return pl.concat([g for g, _ in parts])


def skill_curve(load: Callable[[list], object], bots: Sequence[str], ratings: Mapping[str, tuple],
                players: int = 4, games: int = 2000, seed: int = 0, entities: Sequence[str] | None = None,
                jobs: int = 1, progress: bool = False) -> pl.DataFrame:
    """The skill-curve table (reports.measures.skill_curve.table) of every bot in `bots`.

    load(edits) -> Ruleset: the rules as given, with card-table edits applied (the knockouts);
    ratings: bot -> (rating, low, high) from the ladder."""
    rs = load([])
    game = get_game(rs.game)
    table_name, column, names = knockout_entities(rs, entities)
    knocked = {e: load([{"table": table_name, "where": {column: e}, "set": dict(KNOCKOUT_SET)}]) for e in names}
    all_names = game.entities(rs)
    ids = {e: [i for i, n in enumerate(all_names) if str(n).lower() == e.lower()] for e in names}
    z = z_for_family(len(names))
    bar = None
    if progress:
        from tqdm import tqdm  # start-up: tqdm, only when a progress bar is drawn
        bar = tqdm(total=len(bots) * (1 + len(names)), unit="arm", desc="skill curve", leave=False)
    rows = []
    for bot in bots:
        base = _play(rs, bot, players, games, seed, jobs)
        ablated = {}
        for e, rs_e in knocked.items():
            ablated[e] = _play(rs_e, bot, players, games, seed, jobs)
            if bar is not None:
                bar.update(1)
        rows += S.knockout_rows(base, ablated, ids, game.entity_kind, bot, ratings[bot], z)
        if game.has_factions:
            rows += S.faction_rows(base, game.faction_label, bot, ratings[bot])
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return S.table(rows)
