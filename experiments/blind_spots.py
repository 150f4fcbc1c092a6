"""Blind spots: what the shipped bots never exercise.

Per bot (every seat played by it, the same game indices for every bot):

- every entity (card, trait, gene): the share of games in which some seat acquired it;
- every rule a shipped variant changes (one parameter at a time, set to the variant's value
  over the default rules): the share of games the change touches, i.e. whose outcome (any
  seat's win share or score, reports.measures.pairing) or acquisitions (any seat's count of any
  entity) differ from the same game under the default rules.

A blind spot is an entity or rule change that no bot touches in at least `LEVEL` of its
games: balance numbers about it rest on almost no games (docs/metrics.md, "Blind spots").
Search bots (`rollout`) and scripts are left out: they play a few games a second, or need a
scenario's choices.

    blind_spots(rs, ["greedy", "trained"], players=4, games=500)
"""
from __future__ import annotations

import numpy as np
import polars as pl

from reports.measures.blind_spots import LEVEL  # noqa: F401  (the level a blind spot is below)
from reports.measures.stats import wilson
from simcore.games import get_game
from simcore.runner import games_frame, play
from strategies.registry import make_bot

from .lineup import run_spec


def shippable(game_name: str, bots) -> list[str]:
    """The bots a blind-spot table can use: those the batch engine plays whole games with."""
    return [b for b in bots if b.split(":")[0].split("+")[0] != "script" and not make_bot(game_name, b).plays_games]


def _games(rs, bot: str, players: int, games: int, seed: int):
    """(games rows, acquired (B, P, E)) of games 0..games-1, every seat `bot`."""
    spec = run_spec(rs, bot, players, seed=seed)
    idx = np.arange(games, dtype=np.int64)
    out = play(get_game(rs.game), rs, players, list(spec.bots), seed, idx)
    return games_frame(spec, idx, out), np.asarray(out["acquired"])


def rule_changes(game_name: str, rs) -> list[tuple[str, str, object]]:
    """(variant, parameter, value) for every parameter a shipped variant sets to a value other
    than the default rules' (data folder and overrides as in `rs`)."""
    data = get_game(game_name).data
    base = dict(rs.params)              # the rules compared against: `rs` (the default rules, or --variant)
    out = []
    for variant in rs.variants:
        if variant == "default":
            continue
        v = data.load(variant)
        out += [(variant, name, v.params[name]) for name in sorted(v.params) if v.params[name] != base.get(name)]
    return out


def _touched_by_name(names, acquired) -> dict[str, int]:
    """Per entity name: games in which some seat acquired it (table rows sharing a name are one)."""
    has = acquired.any(axis=1)                              # (B, E)
    by_name: dict[str, np.ndarray] = {}
    for e, name in enumerate(names):
        by_name[name] = by_name.get(name, np.zeros(len(has), bool)) | has[:, e]
    return {name: int(hit.sum()) for name, hit in by_name.items()}


def blind_spots(rs, bots, players: int = 4, games: int = 500, seed: int = 0) -> pl.DataFrame:
    """One row per (kind, name, rules, bot): kind "entity" or "rule"; name an entity or
    "variant: parameter = value"; rules the rules its games were played under (an entity is
    counted under `rs` and under each shipped variant, which may bring it into play); games,
    touched (games), share with its Wilson interval. reports.measures.blind_spots lists the blind spots."""
    game = get_game(rs.game)
    changes = rule_changes(rs.game, rs)
    variants = list(dict.fromkeys(v for v, _, _ in changes))
    rows = []
    for bot in bots:
        base_df, base_acq = _games(rs, bot, players, games, seed)
        rows += [("entity", name, rs.variant, bot, games, hit)
                 for name, hit in _touched_by_name(game.entities(rs), base_acq).items()]
        for variant in variants:
            rs_v = game.data.load(variant)
            rows += [("entity", name, variant, bot, games, hit)
                     for name, hit in _touched_by_name(game.entities(rs_v), _games(rs_v, bot, players, games,
                                                                                   seed)[1]).items()]
        for variant, param, value in changes:
            rs_b = game.data.load(rs.variant, overrides=dict(rs.overrides, **{param: value}))
            df_b, acq_b = _games(rs_b, bot, players, games, seed)
            differs = np.zeros(games, bool)                  # rows are games 0..games-1 in order at both
            for col in (c for c in base_df.columns if c.endswith(("_share", "_score"))):
                differs |= base_df[col].to_numpy() != df_b[col].to_numpy()
            differs |= (base_acq != acq_b).reshape(games, -1).any(axis=1)
            rows.append(("rule", f"{variant}: {param} = {value}", variant, bot, games, int(differs.sum())))
    df = pl.DataFrame(rows, schema={"kind": pl.Utf8, "name": pl.Utf8, "rules": pl.Utf8, "bot": pl.Utf8,
                                    "games": pl.Int64, "touched": pl.Int64}, orient="row")
    share, lo, hi = wilson(df["touched"].to_numpy(), df["games"].to_numpy())
    return df.with_columns(share=pl.Series(share), ci_low=pl.Series(lo), ci_high=pl.Series(hi))
