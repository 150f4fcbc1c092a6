"""`balancelab compare`: the same games on data A and on data B (common random numbers).

Both sides play game indices 0..games-1 of one seed with the same players, bots and
factions, so each game is paired with itself; reports.measures.comparison turns the two frames into
paired changes, and reports.page.compare into a report. Side A is the baseline ("before"),
side B the edit ("after"): a change is B - A.

    run_compare(CompareRequest) -> Comparison (the frames, the rulesets, the tables)
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from reports.measures.comparison import compare_frames, edit_summary
from reports.measures.verdict import lines
from simcore.errors import UserError
from simcore.games import get_game
from simcore.runner import chunk_bounds

from .lineup import run_spec
from .sweep import execute, ruleset_record
from .until_decided import compare_until_decided, print_decisions

BUILTIN = "built-in"


@dataclass(frozen=True)
class CompareRequest:
    """What to compare: a ruleset, data folders A and B (None = built-in), and who plays."""

    ruleset: str
    data_a: str | None
    data_b: str | None
    variant: str = "default"
    players: int = 4
    bots: str | None = None
    factions: tuple | None = None
    games: int = 10_000
    seed: int = 0
    batch_size: int = 20_000
    jobs: int = 1
    overrides: tuple = ()            # --set NAME=VALUE, applied to both sides
    until_decided: bool = False      # play chunks until each seat's and faction's check is decided
    cap: int | None = None           # with until_decided: games per side at most (None: the default cap)


@dataclass
class Comparison:
    request: CompareRequest
    rs_a: object
    rs_b: object
    games_a: pl.DataFrame
    games_b: pl.DataFrame
    tables: dict = field(default_factory=dict)
    edit: dict = field(default_factory=dict)

    def side_label(self, side: str) -> str:
        d = self.request.data_a if side == "a" else self.request.data_b
        return BUILTIN if d is None else str(d)


def _check(req: CompareRequest) -> None:
    for flag, value in (("--games", req.games), ("--jobs", req.jobs), ("--batch-size", req.batch_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 2 - (flag != "--games"):
            raise UserError(f"must be at least {2 if flag == '--games' else 1}, got {value!r}", key=flag)
    if req.cap is not None and (isinstance(req.cap, bool) or not isinstance(req.cap, int) or req.cap < 2):
        raise UserError(f"must be a whole number of games >= 2, got {req.cap!r}", key="--cap")
    if req.cap is not None and not req.until_decided:
        raise UserError("is used with --until-decided only (a fixed-count comparison plays --games)", key="--cap")
    for flag, d in (("--data", req.data_a), ("--data (second)", req.data_b)):
        if d is not None and not Path(d).is_dir():
            raise UserError("is not a folder", file=str(d), key=flag)


def _play(spec, req: CompareRequest, start: int = 0, stop: int | None = None) -> pl.DataFrame:
    """Games start..stop-1 (default 0..games-1) of one side, with per-seat acquisition flags for every entity."""
    game = get_game(spec.ruleset.game)
    track = tuple(range(len(game.entities(spec.ruleset))))
    tasks = [(0, spec, a, b, track) for a, b in chunk_bounds(start, req.games if stop is None else stop,
                                                              req.batch_size)]
    frames = [g for _, _, _, g, _ in execute(tasks, jobs=req.jobs)]
    return pl.concat(frames).sort("game")


def entity_ids(rs) -> dict[str, list[int]]:
    """Entity name -> its indices in the acquisition arrays (a name may repeat, e.g. per animal)."""
    out: dict[str, list[int]] = {}
    for i, name in enumerate(get_game(rs.game).entities(rs)):
        out.setdefault(str(name), []).append(i)
    return out


def run_compare(req: CompareRequest) -> Comparison:
    """Check everything, play both sides on the same game indices, and compute every table."""
    _check(req)
    game = get_game(req.ruleset)
    sides = []
    for key, data in (("--data", req.data_a), ("--data (second)", req.data_b)):
        rs = game.data.load(req.variant, data_dir=data, overrides=list(req.overrides))
        sides.append((rs, run_spec(rs, req.bots, req.players, None if req.factions is None else list(req.factions),
                                   req.seed)))
    (rs_a, spec_a), (rs_b, spec_b) = sides
    edit = edit_summary(rs_a, rs_b)
    ids_a, ids_b = entity_ids(rs_a), entity_ids(rs_b)
    changed = sorted({r["row"].split(" (")[0] for r in edit["rows"]} & (set(ids_a) | set(ids_b)))
    if req.until_decided:
        games_a, games_b, sequential = compare_until_decided(lambda a, b: (_play(spec_a, req, a, b),
                                                                           _play(spec_b, req, a, b)), req.cap)
    else:
        games_a, games_b, sequential = _play(spec_a, req), _play(spec_b, req), None
    tables = compare_frames(games_a, games_b, ids_a, ids_b, changed)
    if sequential is not None:
        tables["sequential"] = sequential
    return Comparison(req, rs_a, rs_b, games_a, games_b, tables, edit)


def as_json(c: Comparison) -> dict:
    """The comparison as plain data (what `compare --format json` prints and compare.json holds)."""
    t = c.tables

    def rows(df):
        return df.to_dicts() if df is not None and df.height else []
    r = c.request
    return {"ruleset": r.ruleset, "variant": r.variant, "players": r.players, "seed": r.seed, "games": t["games"],
            "a": {"data": c.side_label("a"), "hash": c.rs_a.hash}, "b": {"data": c.side_label("b"), "hash": c.rs_b.hash},
            "edit": c.edit, "pairing": t["pairing"], "length": t["length"], "balance": t["balance"],
            "seats": rows(t["seats"]), "factions": rows(t["factions"]), "bots": rows(t["bots"]),
            "entities": rows(t["entities"]), **({"sequential": t["sequential"]} if "sequential" in t else {})}


def write_outputs(c: Comparison, out: Path) -> list[Path]:
    """compare.json and compare.html (with the verdict's next-step configs) in the folder `out`."""
    from reports.page.compare import write_compare_report  # start-up: the page loads jinja2 and matplotlib
    out.mkdir(parents=True, exist_ok=True)
    doc = as_json(c)
    (out / "compare.json").write_text(json.dumps(doc, indent=2, default=str))
    r = c.request
    # What the verdict's next-step configs replay: the after side, as a sweep config.
    doc["config"] = {"name": f"compare-{Path(c.side_label('b')).name}", "ruleset": r.ruleset, "variant": r.variant,
                     "data": None if r.data_b is None else str(Path(r.data_b).resolve()),
                     "set": dict(c.rs_b.overrides), "players": [r.players], "bots": r.bots and [r.bots],
                     "games": r.games, "seed": r.seed, "batch_size": r.batch_size}
    doc["rulesets"] = {c.rs_b.hash: ruleset_record(c.rs_b)}
    game = get_game(r.ruleset)
    return [out / "compare.json", *write_compare_report(doc, game.faction_label, game.entity_kind, out,
                                                        dict(c.rs_b.tables))]


# ----------------------------------------------------------------------------- the printed tables

def _pp(x) -> str:
    """A change in percentage points, signed, never '-0.0'."""
    if x is None or x != x:
        return "n/a"
    v = round(x * 100, 1)
    return f"{0.0 if v == 0 else v:+.1f}"


def _ci(lo, hi) -> str:
    return f"[{_pp(lo)}, {_pp(hi)}]"


def _pct(x) -> str:
    return "n/a" if x is None or x != x else f"{x * 100:.1f}%"


def print_comparison(doc: dict, faction_label: str, kind: str, out=None) -> None:
    """The comparison as text: the edit, the pairing, then per seat/faction/entity the paired change."""
    w = (out or sys.stdout).write
    a, b = doc["a"]["data"], doc["b"]["data"]
    w(f"{doc['ruleset']}/{doc['variant']}: {doc['games']:,} games, {doc['players']} players, seed {doc['seed']}; "
      f"the same game indices on both sides\n")
    w(f"before: {a}\nafter:  {b}\nchange = after - before, in percentage points (pp), with a paired 95% interval\n\n")
    e = doc["edit"]
    if e["same"]:
        w("the edit: none (both sides have the same parameters and tables)\n")
    else:
        w("the edit:\n")
        for p in e["params"]:
            w(f"  parameter {p['name']}: {p['a']} -> {p['b']}\n")
        for r in e["rows"]:
            w(f"  {r['table']}: {r['row']}: {r['column']} {r['a']} -> {r['b']}\n")
    pr = doc["pairing"]
    w(f"\npairing: {pr['identical']:.1%} of games identical, correlation of paired seat results "
      f"{pr['correlation']:.2f} ({'holds' if pr['holds'] else 'weak'}: {pr['rule']})\n")
    head = f"{'before':>9}{'after':>9}{'change pp':>11}  paired 95% interval\n"
    w(f"\nwin rates (fair = the fair share: 1 / players)\n{'seat':<16}{'fair':>6}" + head)
    for r in doc["seats"]:
        w(f"{'seat ' + str(r['seat']):<16}{_pct(r['fair']):>6}{_pct(r['rate_a']):>9}{_pct(r['rate_b']):>9}"
          f"{_pp(r['change']):>11}  {_ci(r['ci_low'], r['ci_high'])}\n")
    w(f"\n{faction_label:<16}{'fair':>6}" + head)
    for r in doc["factions"]:
        w(f"{r['faction']:<16}{_pct(r['fair']):>6}{_pct(r['rate_a']):>9}{_pct(r['rate_b']):>9}"
          f"{_pp(r['change']):>11}  {_ci(r['ci_low'], r['ci_high'])}\n")
    ents = [r for r in doc["entities"] if r["changed"] or r["affected"]]
    if ents:
        w(f"\n{kind}s changed by the edit or affected by it (intervals corrected for {ents[0]['family']} {kind}s):\n")
        w(f"{kind + ' (its acquirers win)':<34}{'before':>9}{'after':>9}{'change pp':>11}  interval"
          f"{'':>12}acquired before -> after\n")
        for r in sorted(ents, key=lambda r: (not r["changed"], -abs(r["change"]) if r["change"] == r["change"] else 0)):
            mark = "*" if r["changed"] else " "
            w(f"{mark}{r['entity']:<33}{_pct(r['rate_a']):>9}{_pct(r['rate_b']):>9}{_pp(r['change']):>11}  "
              f"{_ci(r['ci_low'], r['ci_high']):<20}{_pct(r['acquired_a'])} -> {_pct(r['acquired_b'])}\n")
        w(f"(* = a {kind} the edit changes)\n")
    if "sequential" in doc:
        print_decisions(doc["sequential"], w)
    ln, bal = doc["length"], doc["balance"]
    w(f"\ngame length: {ln['rounds_a']:.2f} -> {ln['rounds_b']:.2f} rounds, change {ln['change']:+.2f} "
      f"[{ln['ci_low']:+.2f}, {ln['ci_high']:+.2f}] (paired)\n")
    w(f"balance (1 - largest {faction_label} win-rate gap): {bal['balance_a']:.3f} [{bal['low_a']:.3f}, {bal['high_a']:.3f}]"
      f" -> {bal['balance_b']:.3f} [{bal['low_b']:.3f}, {bal['high_b']:.3f}]\n")
    from reports.page.compare import compare_verdict  # start-up: the page loads jinja2 and matplotlib
    w("\nverdict (from causes only):\n" + "".join(f"  {line}\n" for line in lines(
        compare_verdict(doc, faction_label, kind, {}, "next-steps"))))
