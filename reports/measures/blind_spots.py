"""Blind spots from a blind-spot table (experiments/blind_spots.py): the entities and rule
changes that no bot touches in at least the level's share of its games."""
from __future__ import annotations

import polars as pl

LEVEL = 0.05            # touched in fewer than this share of every bot's games: a blind spot


def spots(table: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Per (kind, name) whose best bot, under the best of the rules it was counted under (a
    `rules` column: an entity may be in play only in a variant), touches it in fewer than
    `level` of its games: the best share, the bot and the rules that reach it, lowest first."""
    if "rules" not in table.columns:
        table = table.with_columns(rules=pl.lit("default"))
    best = (table.sort(["share", "bot", "rules"], descending=[True, False, False])
            .group_by(["kind", "name"], maintain_order=True)
            .agg(pl.col("share").first().alias("best_share"), pl.col("bot").first().alias("best_bot"),
                 pl.col("rules").first().alias("best_rules"), pl.col("games").first()))
    return best.filter(pl.col("best_share") < level).sort(["kind", "best_share", "name"])


def blind_spots_text(table: pl.DataFrame, level: float = LEVEL) -> str:
    """The ladder's "Blind spots" section."""
    bots = table["bot"].unique(maintain_order=True).to_list()
    games = int(table["games"].max()) if table.height else 0
    kinds = {k: table.filter(pl.col("kind") == k)["name"].n_unique() for k in ("entity", "rule")}
    s = spots(table, level)
    head = (f"Blind spots (touched in fewer than {level:.0%} of games by every bot: {', '.join(bots)}; "
            f"{games:,} games per bot, every seat the same bot): {s.height} among {kinds['entity']} entities and "
            f"{kinds['rule']} rule changes of the shipped variants")
    lines = [head]
    nobody = s.filter((pl.col("kind") == "entity") & (pl.col("best_share") == 0))["name"].to_list()
    for r in s.iter_rows(named=True):
        if r["name"] not in nobody or r["kind"] != "entity":
            where = f", {r['best_rules']}" if r["kind"] == "entity" and r["best_rules"] != "default" else ""
            lines.append(f"  {r['kind']:<6} {r['name']}: at most {r['best_share']:.1%} ({r['best_bot']}{where})")
    if nobody:
        lines.append(f"  entity never acquired by any bot ({len(nobody)}: not acquirable under these rules nor "
                     f"any shipped variant, e.g. starting cards, or skipped by every bot): {', '.join(nobody)}")
    if not s.height:
        lines.append("  none: every entity and rule change is touched by some bot")
    lines.append("  (an entity: some seat acquired it, under these rules or a shipped variant; a rule change: the "
                 "game's outcome or acquisitions differ from the same game without it. A balance number about a "
                 "blind spot rests on almost no games.)")
    return "\n".join(lines)
