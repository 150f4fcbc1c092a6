"""The verdict at the top of every report: what is too strong, what is too weak, what to run next.

A faction (or seat, or entity) is called too strong when its win rate (or its effect on the
win rate of whoever acquires it) is more than THRESHOLD above the fair value *and* its 95%
interval excludes the fair value; too weak likewise below. Only measures that are causes enter
the verdict (the caller decides which: a knockout whose pairing holds, restricted play, a
paired change, a win rate with every seat played by the same bot); associations are fact rows
too, shown apart and never as verdicts. THRESHOLD is stated in the
report. Each problem gets a next step: a sweep config over one number of the row behind it
(written beside the report), and the results that rest on our own default values (rather
than rulebook facts) are named before them.

    fact(...), faction_facts(rows, ...), entity_facts(rows, ...) -> fact rows (one per quantity)
    problems_of(facts) -> the rows beyond the threshold (the verdict's lines)
    next_step_config(problem, config, tables) -> (file name, TOML text) or None
"""
from __future__ import annotations

import json
import math
import re
from typing import Iterable, Sequence

# 3 percentage points: a 4-player faction at 28% instead of 25% wins one game in nine more
# than its share, which players notice; smaller gaps are within what bot play itself skews.
THRESHOLD = 0.03
STRONG, WEAK = "strong", "weak"
# What the colours mean (the report states it beside the verdict).
COLOURS = {STRONG: "#b91c1c", WEAK: "#1d4ed8"}
# Columns a next-step sweep may vary, most telling first; never bookkeeping columns.
PREFERRED = ("amount", "strength", "cost", "reserve", "tokens", "fury", "food", "copies")
NOT_SWEPT = {"_row", "min_players", "source", "printed", "text", "more", "optional", "discard"}


def _bad(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def classify(value, lo, hi, fair: float = 0.0, threshold: float = THRESHOLD) -> str | None:
    """STRONG, WEAK or None: beyond fair +- threshold with the interval excluding fair."""
    if any(_bad(v) for v in (value, lo, hi, fair)):
        return None
    if value - fair > threshold and lo > fair:
        return STRONG
    if fair - value > threshold and hi < fair:
        return WEAK
    return None


def _pp(x: float) -> str:
    v = round(x * 100, 1)
    return f"{0.0 if v == 0 else v:+.1f} pp"


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def fact(what: str, name: str, value, lo, hi, fair: float, measure: str, bot: str = "", setting: str = "",
         unit: str = "rate", threshold: float = THRESHOLD, interval: str = "interval") -> dict:
    """One quantity, computed once: who, the measure, the bot and setting it was measured under, the
    value with its interval, and its direction (STRONG, WEAK or None). Every verdict line, terminal
    line and association line that names it is rendered from this row (`text`).

    unit: "rate" (a win rate against a fair share), "effect" (a difference in win rate, fair 0) or
    "change" (a paired change, after - before, fair 0). interval: "interval" (a fixed-count 95%
    interval) or "confidence sequence" (one valid at a stop a sequential test chose)."""
    d = classify(value, lo, hi, fair, threshold)
    row = {"what": what, "name": str(name), "measure": measure, "bot": bot, "setting": setting, "unit": unit,
           "value": value, "ci_low": lo, "ci_high": hi, "fair": fair, "direction": d,
           "size": abs(value - fair) if not _bad(value) else 0.0, "interval": interval}
    row["text"] = fact_text(row)
    return row


def fact_text(r: dict) -> str:
    """The one sentence of a fact row (the same words on the page and in the terminal)."""
    bots = f"{r['bot']} bots" if r["bot"] and f"{r['bot']} bots" not in r["setting"] else ""
    where = "; ".join(x for x in (r["measure"], bots, r["setting"]) if x)
    who = f"{r['what'].capitalize()} {r['name']}"
    ci = f"95% {r.get('interval', 'interval')}"
    if r["unit"] == "rate":
        return (f"{who}: wins {_pct(r['value'])} against a fair {_pct(r['fair'])}, {_pp(r['value'] - r['fair'])} "
                f"({ci} {_pct(r['ci_low'])} to {_pct(r['ci_high'])}; {where}).")
    if r["unit"] == "change":
        return (f"{who}: {_pp(r['value'])} win rate after the edit against before ({ci} "
                f"{_pp(r['ci_low'])} to {_pp(r['ci_high'])}; {where}).")
    return (f"{who}: {_pp(r['value'])} win rate for whoever acquires it (corrected {ci} "
            f"{_pp(r['ci_low'])} to {_pp(r['ci_high'])}; {where}).")


def faction_facts(rows: Iterable[dict], label: str, measure: str, bot: str = "", setting: str = "",
                  name_key: str = "faction", rate: str = "win_rate", fair_key: str = "fair",
                  change: bool = False, interval: str = "interval") -> list[dict]:
    """Fact rows of factions (or seats): rows with a rate, ci_low, ci_high and a fair share;
    change=True: the rows are paired changes (compare), fair 0."""
    return [fact(label, r[name_key], r[rate], r["ci_low"], r["ci_high"], 0.0 if change else r[fair_key],
                 measure, bot, setting, "change" if change else "rate", interval=interval) for r in rows]


def entity_facts(rows: Iterable[dict], kind: str, measure: str, bot: str = "", setting: str = "",
                 effect: str = "effect", change: bool = False) -> list[dict]:
    """Fact rows of entities: the effect on the win rate of whoever acquires it (fair 0); a row's
    `interval` column, when present, names its kind of interval."""
    return [fact(kind, r["entity"], r[effect], r["ci_low"], r["ci_high"], 0.0, measure, bot, setting,
                 "change" if change else "effect", interval=r.get("interval") or "interval") for r in rows]


def problems_of(facts: Iterable[dict]) -> list[dict]:
    """The facts beyond the threshold, largest first, each (what, name) once."""
    out, seen = [], set()
    for f in sorted((f for f in facts if f["direction"]), key=lambda f: -f["size"]):
        key = (f["what"].casefold(), f["name"].casefold())
        if key not in seen:
            seen.add(key)
            out.append(dict(f))
    return out


def lines(verdict: dict) -> list[str]:
    """The verdict as terminal lines: the page's words, one line per problem, then the associations' count."""
    out = [f"too {p['direction']}: {p['text']}" + (f" Across skill: {p['skill']}." if p.get("skill") else "")
           for p in verdict["problems"]]
    if not out:
        out = [f"nothing beyond the threshold ({verdict['threshold'] * 100:.1f} pp) among "
               f"{len(verdict['facts'])} causal measures" if verdict["facts"] else
               "no verdict: the run holds no causal measure (add an [ablation] of kind knockout)"]
    if verdict["associations"]:
        out.append(f"associations, not verdicts (see the page): {len(verdict['associations'])}")
    return out


def defaults_behind(name: str, rulesets: dict) -> list[str]:
    """The tables in which the row `name` is one of our own defaults (from a manifest's rulesets)."""
    found = []
    for rec in rulesets.values():
        for table, v in rec.get("tables", {}).items():
            if name in v.get("default_rows", []) and table not in found:
                found.append(table)
    return found


def default_params(rulesets: dict) -> list[str]:
    """Parameters whose value is our own default in any ruleset of the run."""
    names: list[str] = []
    for rec in rulesets.values():
        for n in rec.get("defaults_used", []):
            if n not in names:
                names.append(n)
    return names


# ----------------------------------------------------------------------------- next steps

def _row_for(name: str, tables: dict) -> tuple[str, dict] | None:
    for table, rows in tables.items():
        for r in rows:
            if str(r.get("name")) == name:
                return table, r
    return None


def _column(row: dict) -> str | None:
    numeric = [c for c, v in row.items() if c not in NOT_SWEPT and isinstance(v, int) and not isinstance(v, bool)]
    for c in PREFERRED:
        if c in numeric:
            return c
    return numeric[0] if numeric else None


def _values(v: int, direction: str) -> list[int]:
    """Values to try: the current one and two steps in the direction that should fix the problem."""
    step = -1 if direction == STRONG else 1
    vals = sorted({max(0, v), max(0, v + step), max(0, v + 2 * step)})
    return vals


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "item"


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k) if not re.match(r'^[A-Za-z0-9_-]+$', k) else k} = {_toml(v)}"
                               for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def next_step_config(problem: dict, config: dict, tables: dict) -> tuple[str, str, str] | None:
    """(file name, TOML text, one-line description) of a sweep over the number behind a problem.

    `config`: the resolved config of the run the verdict is about (manifest["config"]), or a
    dict with the same keys; `tables`: the ruleset tables (table -> rows) of that run.
    """
    found = _row_for(problem["name"], tables)
    if found is None:
        return None
    table, row = found
    column = _column(row)
    if column is None:
        return None
    values = _values(int(row[column]), problem["direction"])
    name = f"next-{slug(problem['name'])}-{column}"
    bots = list(config.get("bots") or [])
    top = {"name": name,
           "description": (f"Next step for {problem['what']} {problem['name']} (too {problem['direction']} in "
                           f"{config.get('name', 'the run')}): its {column} in {table} at {', '.join(map(str, values))}."),
           "ruleset": config["ruleset"], "variant": config.get("variant", "default"), "data": config.get("data"),
           "set": config.get("set") or {}, "edits": config.get("edits") or [],
           "players": config.get("players"), "bots": bots[0] if len(set(bots)) == 1 else bots or None,
           "games": config.get("games"), "seed": config.get("seed"), "batch_size": config.get("batch_size"),
           "target_rounds": config.get("target_rounds")}
    lines = [f"# Written by the balance report's verdict: {problem['text']}"]
    lines += [f"{k} = {_toml(v)}" for k, v in top.items() if v not in (None, [], {})]
    lines += ["", "[[grid]]", f"table = {_toml(table)}", f"where = {{ name = {_toml(problem['name'])} }}",
              f"column = {_toml(column)}", f"values = {_toml(values)}", ""]
    what = f"sweep {problem['name']}'s {column} over {', '.join(map(str, values))}"
    return f"{name}.toml", "\n".join(lines), what


def build(problems: Sequence[dict], config: dict, tables: dict, rulesets: dict, folder: str = "next-steps",
          facts: Sequence[dict] = (), associations: Sequence[dict] = ()) -> dict:
    """The verdict: problems with their defaults and next steps; `files`: name -> TOML to write.
    `facts`: every causal fact row the problems were chosen from; `associations`: association rows
    beyond the threshold (shown apart, never as verdicts)."""
    files = {}
    for p in problems:
        p["defaults"] = defaults_behind(p["name"], rulesets)
        p["colour"] = COLOURS[p["direction"]]
        step = next_step_config(p, config, tables) if config and tables else None
        if step is not None:
            fname, text, what = step
            files[fname] = text
            p["next"] = {"file": f"{folder}/{fname}", "what": what,
                         "command": f"balancelab sweep {folder}/{fname} --out runs/{fname[:-5]}"}
        else:
            p["next"] = None
    return {"problems": list(problems), "facts": list(facts), "associations": list(associations),
            "threshold": THRESHOLD, "colours": COLOURS,
            "default_params": default_params(rulesets), "files": files, "folder": folder}
