"""Balance across skill: each entity's causal effect (and each faction's edge) per bot, the
bots ordered by their ladder rating, and the sign changes across skill in words.

Input, per bot (every seat played by that bot, the same game indices for every bot):

- `base`: the per-game rows with `s{i}_has_{id}` flags (experiments.sweep.play_chunk);
- `ablated`: entity -> the same games with that entity's effect off (a knockout);
- the bot's ladder rating with its interval (reports.measures.bradley_terry).

An entity's effect is the knockout's paired effect on the seats that hold it
(reports.measures.impact.knockout_by_bot: their win share in the base games minus in the same
games with the effect off), with an interval clustered by game and corrected for the number
of entities compared. A faction's edge is its win rate minus its fair share (every seat the
same bot, so the faction dealt is the only difference between the seats), its Wilson interval
corrected for the number of factions.

A sign change is called only between two bots whose intervals both exclude 0: an effect
clearly positive for a weaker bot and clearly negative for a stronger one is a trap ("helps
weak bots, hurts strong ones"); the reverse is an expert's card. Imports nothing from simcore.

    rows = knockout_rows(base, ablated, ids, bot, rating, z)        # one bot
    table = pl.DataFrame(rows); flagged = sign_changes(table)
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

import polars as pl

from .impact import knockout_by_bot
from .metrics import faction_win_rates
from .pairing import _used, pairing
from .stats import wilson, z_for_family

KNOCKOUT = "knockout: the same games with its effect off"
FACTION = "win rate minus fair share, every seat the same bot"
TRAP, EXPERT, BOTH = "trap", "expert", "both"
WORDS = {
    ("entity", TRAP): "helps weak bots, hurts strong ones: a trap",
    ("entity", EXPERT): "hurts weak bots, helps strong ones: an expert's card",
    ("faction", TRAP): "wins more than its share with weak bots, less with strong ones: a trap",
    ("faction", EXPERT): "wins less than its share with weak bots, more with strong ones: an expert's pick",
}
BOTH_WORDS = "its sign changes more than once across skill: no single trend"
COLUMNS = {"kind": pl.Utf8, "entity": pl.Utf8, "measure": pl.Utf8, "bot": pl.Utf8, "rating": pl.Float64,
           "rating_low": pl.Float64, "rating_high": pl.Float64, "effect": pl.Float64, "ci_low": pl.Float64,
           "ci_high": pl.Float64, "games": pl.Int64, "holders": pl.Int64, "changed": pl.Float64,
           "holds": pl.Boolean}


def knockout_rows(base: pl.DataFrame, ablated: Mapping[str, pl.DataFrame], ids: Mapping[str, Sequence[int]],
                  kind: str, bot: str, rating: Sequence[float], z: float) -> list[dict]:
    """One row per entity knocked out: its paired effect on the holders, for one bot.

    `changed` is the share of games the knockout touched (any seat's win share or score differs,
    reports.measures.pairing), `holds` whether the pairing holds (games without the entity
    identical); `rating` is (rating, low, high) of the bot on the ladder."""
    rows = []
    for entity, ko in ablated.items():
        eff = knockout_by_bot(base, ko, ids[entity], None, z)
        used = _used(base, ids[entity])
        fig = pairing(base, ko, used, by_design=True)
        rows.append(_row(kind, entity, KNOCKOUT, bot, rating, eff["effect"], eff["ci_low"], eff["ci_high"],
                         base.height, eff["holders"], fig["changed"], fig["holds"]))
    return rows


def faction_rows(base: pl.DataFrame, label: str, bot: str, rating: Sequence[float]) -> list[dict]:
    """One row per faction: its win rate minus its fair share, every seat played by `bot`, with a
    Wilson interval corrected for the number of factions."""
    fr = faction_win_rates(base).filter(pl.col("games") > 0)
    _, lo, hi = wilson(fr["wins"].to_numpy(), fr["games"].to_numpy(), z_for_family(fr.height))
    return [_row(label, r["faction"], FACTION, bot, rating, r["win_rate"] - r["fair"], lo[i] - r["fair"],
                 hi[i] - r["fair"], r["games"], r["games"], math.nan, True)
            for i, r in enumerate(fr.iter_rows(named=True))]


def _row(kind, entity, measure, bot, rating, effect, lo, hi, games, holders, changed, holds) -> dict:
    return {"kind": kind, "entity": str(entity), "measure": measure, "bot": bot, "rating": float(rating[0]),
            "rating_low": float(rating[1]), "rating_high": float(rating[2]), "effect": float(effect),
            "ci_low": float(lo), "ci_high": float(hi), "games": int(games), "holders": int(holders),
            "changed": float(changed), "holds": bool(holds)}


def table(rows: Sequence[dict]) -> pl.DataFrame:
    """The skill-curve table: one row per (entity, bot), each entity's bots weakest first."""
    df = pl.DataFrame(list(rows), schema=COLUMNS, orient="row") if rows else pl.DataFrame(schema=COLUMNS)
    df = df.with_columns(pl.col("effect", "ci_low", "ci_high").fill_nan(None))     # no holders: no estimate
    return df.with_columns(sign=pl.when(pl.col("ci_low") > 0).then(1).when(pl.col("ci_high") < 0).then(-1)
                           .otherwise(0).cast(pl.Int8)).sort(["kind", "entity", "rating", "bot"])


def _trend(signs: Sequence[int]) -> str | None:
    """TRAP, EXPERT, BOTH or None from the clear signs (+1, -1; 0 = unclear) of bots weakest first."""
    clear = [s for s in signs if s]
    trap = any(a > 0 and b < 0 for i, a in enumerate(clear) for b in clear[i + 1:])
    expert = any(a < 0 and b > 0 for i, a in enumerate(clear) for b in clear[i + 1:])
    return BOTH if trap and expert else TRAP if trap else EXPERT if expert else None


def sign_changes(curve: pl.DataFrame) -> pl.DataFrame:
    """One row per (kind, entity, measure) whose sign changes across skill: trend (TRAP, EXPERT,
    BOTH), the weaker and the stronger bot it rests on (of the bots whose intervals exclude 0,
    weakest first: the last one before the sign turns and the first one after), whether their
    ratings' intervals overlap, and the line in words."""
    out = []
    for (kind, entity, measure), grp in curve.group_by(["kind", "entity", "measure"], maintain_order=True):
        grp = grp.sort("rating")
        trend = _trend(grp["sign"].to_list())
        if trend is None:
            continue
        clear = grp.filter(pl.col("sign") != 0).to_dicts()
        j = next(i for i, r in enumerate(clear) if r["sign"] != clear[0]["sign"])
        first, last = clear[j - 1], clear[j]            # where the sign turns: the two bots either side
        overlap = first["rating_high"] >= last["rating_low"]
        out.append({"kind": kind, "entity": entity, "measure": measure, "trend": trend,
                    "weaker": first["bot"], "weaker_effect": first["effect"], "stronger": last["bot"],
                    "stronger_effect": last["effect"], "ratings_overlap": overlap,
                    "text": flag_text(kind, entity, measure, trend, first, last, overlap)})
    schema = {"kind": pl.Utf8, "entity": pl.Utf8, "measure": pl.Utf8, "trend": pl.Utf8, "weaker": pl.Utf8,
              "weaker_effect": pl.Float64, "stronger": pl.Utf8, "stronger_effect": pl.Float64,
              "ratings_overlap": pl.Boolean, "text": pl.Utf8}
    return pl.DataFrame(out, schema=schema, orient="row") if out else pl.DataFrame(schema=schema)


def _pp(x: float) -> str:
    return f"{x * 100:+.1f} pp"


def _end(r: dict) -> str:
    return (f"{r['bot']} (rating {r['rating']:.2f}) {_pp(r['effect'])}, "
            f"interval {_pp(r['ci_low'])} to {_pp(r['ci_high'])}")


def flag_text(kind: str, entity: str, measure: str, trend: str, weaker: dict, stronger: dict, overlap: bool) -> str:
    """The flagged line: the entity, the words, and the two bots it rests on."""
    group = "faction" if measure == FACTION else "entity"
    words = BOTH_WORDS if trend == BOTH else WORDS[(group, trend)]
    text = f"{kind.capitalize()} {entity}: {words} ({_end(weaker)}; {_end(stronger)}; {measure})"
    if overlap:
        text += "; the two bots' rating intervals overlap, so which plays better is not settled"
    return text + "."


def agreement(curve: pl.DataFrame, name: str, bot: str, direction: str) -> str | None:
    """For a verdict line about `name` resting on `bot` (direction "strong" or "weak"): do the bots
    rated above `bot` on the skill curve agree? None when the curve does not hold the line's bot
    and entity."""
    rows = curve.filter(pl.col("entity").str.to_lowercase() == name.lower())
    mine = rows.filter(pl.col("bot") == bot)
    if not rows.height or not mine.height:
        return None
    sign = 1 if direction == "strong" else -1
    above = rows.filter(pl.col("rating") > mine["rating"][0]).sort("rating")
    if not above.height:
        return f"{bot} is the strongest bot of the skill curve: no stronger bot to check it against"
    said = [f"{r['bot']} {_pp(r['effect'])}" for r in above.iter_rows(named=True)]
    signs = above["sign"].to_list()
    if any(s == -sign for s in signs):
        verb = "stronger bots disagree"
    elif all(s == sign for s in signs):
        verb = "stronger bots agree in sign"
    elif any(s == sign for s in signs):
        verb = "stronger bots agree in sign where their intervals exclude 0"
    else:
        verb = "stronger bots do not settle it (their intervals include 0)"
    return f"{verb}: {', '.join(said)}"
