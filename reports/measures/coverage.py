"""Coverage: per bot, the share of its games in which it used each entity.

A bot that never plays a card cannot say what the card is worth: a change to that card
touches none of its games. These tables flag the entities a bot never or rarely uses.

    coverage(games, tallies, entities) -> one row per (point, bot, entity)

`games` has the runner's per-seat bot columns (s{i}_bot) and optionally a `point` column;
`tallies` the per (point, seat, entity) counts (`games` = games in which that seat acquired
the entity at least once). A bot's seat-games are counted over every seat it sat at, so
"used in 3% of games" means 3% of the games-and-seats that bot played. Entities are named as
the game names them; table rows sharing a name (one card per animal) are summed into one.
"""
from __future__ import annotations

import polars as pl

from .stats import wilson

RARE = 0.01            # below this share of its games a bot "rarely" uses an entity


def _names(games) -> list[str]:
    return games.collect_schema().names() if isinstance(games, pl.LazyFrame) else games.columns


def _seats(games) -> int:
    s = 0
    names = set(_names(games))
    while f"s{s}_bot" in names:
        s += 1
    return s


def coverage(games: pl.DataFrame, tallies: pl.DataFrame, entities=None) -> pl.DataFrame:
    """Per (point, bot, entity): seat_games, used (seat-games that acquired it), share, interval, level.

    `entities`: every entity name of the ruleset (those never acquired get share 0); None
    lists only the entities that appear in the tallies. level: "never", "rare" (< 1%) or "".
    """
    if "point" not in _names(games):       # games: eager rows, or a lazy scan of a run's chunks
        games = games.with_columns(point=pl.lit(0, dtype=pl.Int32))
    if "point" not in tallies.columns:
        tallies = tallies.with_columns(point=pl.lit(0, dtype=pl.Int32))
    seat_bot = pl.concat([
        games.lazy().filter(pl.col(f"s{s}_bot").is_not_null())
        .group_by(["point", pl.col(f"s{s}_bot").cast(pl.Utf8).alias("bot")]).len()
        .with_columns(seat=pl.lit(s, dtype=pl.Int8), point=pl.col("point").cast(pl.Int32))
        for s in range(_seats(games))
    ]).select("point", "seat", "bot", pl.col("len").alias("n")).collect(engine="streaming")
    totals = seat_bot.group_by(["point", "bot"]).agg(pl.col("n").sum().alias("seat_games"))
    used = (tallies.with_columns(pl.col("point").cast(pl.Int32), pl.col("seat").cast(pl.Int8))
            .join(seat_bot, on=["point", "seat"], how="inner")
            .group_by(["point", "bot", "entity"]).agg(pl.col("games").sum().alias("used")))
    names = list(dict.fromkeys(list(entities or []) + sorted(set(tallies["entity"].to_list()))))
    order = pl.DataFrame({"entity": names, "entity_order": range(len(names))},
                         schema={"entity": pl.Utf8, "entity_order": pl.Int64})
    out = (totals.join(order, how="cross").join(used, on=["point", "bot", "entity"], how="left")
           .with_columns(pl.col("used").fill_null(0)))
    share, lo, hi = wilson(out["used"].to_numpy(), out["seat_games"].to_numpy())
    out = out.with_columns(share=pl.Series(share), ci_low=pl.Series(lo), ci_high=pl.Series(hi))
    return (out.with_columns(level=pl.when(pl.col("used") == 0).then(pl.lit("never"))
                             .when(pl.col("share") < RARE).then(pl.lit("rare")).otherwise(pl.lit("")))
            .sort(["point", "bot", "entity_order"]).drop("entity_order")
            .select("point", "bot", "entity", "seat_games", "used", "share", "ci_low", "ci_high", "level"))


def unused(cov: pl.DataFrame) -> list[str]:
    """Entities no seat of any bot acquired: not acquirable in these games (a starting card, a
    module not in play) or skipped by every bot; the games alone cannot tell which."""
    used = cov.group_by("entity", maintain_order=True).agg(pl.col("used").sum())
    return used.filter(pl.col("used") == 0)["entity"].to_list()


def coverage_summary(cov: pl.DataFrame) -> list[dict]:
    """Per (point, bot): how many of the acquired entities it uses in at least 1% of its games,
    which it never (while another seat did) or rarely uses, and which no seat acquired at all."""
    rows = []
    for (point, bot), grp in cov.group_by(["point", "bot"], maintain_order=True):
        nobody = unused(cov.filter(pl.col("point") == point))
        never = [e for e in grp.filter(pl.col("level") == "never")["entity"].to_list() if e not in nobody]
        rare = [(r["entity"], r["share"]) for r in grp.filter(pl.col("level") == "rare").iter_rows(named=True)]
        acquired = grp.height - len(nobody)
        rows.append({"point": point, "bot": bot, "acquired": acquired, "covered": acquired - len(never) - len(rare),
                     "seat_games": int(grp["seat_games"][0]), "never": never, "rare": rare, "unused": nobody})
    return rows


def coverage_text(cov: pl.DataFrame, kind: str = "entity") -> list[str]:
    """The `run` output's short coverage section (one point), with a warning per bot that skips some."""
    lines = [f"{kind} coverage (share of each bot's seat-games in which it acquired the {kind}):"]
    summary = coverage_summary(cov)
    nobody = summary[0]["unused"] if summary else []
    if nobody:
        lines.append(f"  warning: no seat acquired {len(nobody)} {kind}s in any game: {', '.join(nobody)}")
        lines.append(f"  (either not acquirable in these games, e.g. starting cards or a module not in play, or "
                     f"skipped by every bot here; a seat of `random` in --bots tells which)")
    for s in summary:
        lines.append(f"  {s['bot']}: {s['covered']} of {s['acquired']} acquired {kind}s used in at least "
                     f"{RARE:.0%} of its {s['seat_games']:,} seat-games")
        if s["never"]:
            lines.append(f"  warning: {s['bot']} never uses: {', '.join(s['never'])}")
        if s["rare"]:
            lines.append(f"  warning: {s['bot']} rarely (< {RARE:.0%}) uses: "
                         + ", ".join(f"{e} ({v:.2%})" for e, v in s["rare"]))
    if any(s["never"] or s["rare"] for s in summary):
        lines.append(f"  (a {kind} a bot never or rarely uses cannot show its worth in its games: "
                     f"changing it changes almost nothing there)")
    return lines
