"""`balancelab report`: print a run folder's balance table and write its self-contained HTML
report (the answer first, then the evidence). RUN_DIR comes from `sweep`, or from `run --out`
(one point).

Nothing a user wrote is overwritten: the page and its next-step configs replace only files
that balancelab wrote itself.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reports.page.targets import bound_text
from simcore.errors import UserError

from ..store import open_run

HELP = ("Print the balance table of a run folder (from `sweep`, or `run --out`) and write its "
        "self-contained HTML report: the answer first, then the evidence.",
        ["balancelab report out/quick", "balancelab report out/quick --out quick.html"])


def register(subparsers) -> None:
    p = subparsers.add_parser("report", help="write the HTML balance report of a run folder (`sweep`, or `run --out`)")
    p.add_argument("run_dir", metavar="RUN_DIR")
    p.add_argument("--out", default=None, metavar="FILE", help="HTML file (default RUN_DIR/report.html)")
    p.set_defaults(func=cmd_report)


def write_and_print(run, out: Path, ctx_out: dict | None = None) -> Path:
    """Write the run's page to `out` and print its top: the answer and the verdict (the page's words)."""
    from reports.page.html import write_report_context   # start-up: jinja2 and matplotlib, only for a page
    from reports.page.skill import read as skill_read
    damaged = run.damaged()
    if damaged:
        point, a, b, path, why = damaged[0]
        more = f" (and {len(damaged) - 1} more chunks)" if len(damaged) > 1 else ""
        raise UserError(f"chunk of point {point}, games {a}-{b} {why}{more}; replay it with "
                        f"`balancelab sweep {run.path / 'config.toml'} --out {run.path} --resume`", file=str(path))
    missing = run.missing()
    manifest = dict(run.manifest, _missing_chunks=len(missing), _skill=skill_read(run.path))
    games = run.games()
    if games.height == 0:
        raise UserError("the run holds no finished games yet; run or resume the sweep first", file=str(run.path))
    if out.exists() and out.is_dir():
        raise UserError("is a folder; give a file name for the report", file=str(out))
    check_report_targets(out)
    ctx = write_report_context(manifest, games, run.tallies(), out, tables=reference_tables(run))
    print_answer(ctx)
    if missing:
        print(f"note: {len(missing)} chunks are unfinished; the report covers the games played so far", file=sys.stderr)
    if ctx_out is not None:
        ctx_out.update(ctx)
    return out


def cmd_report(args: argparse.Namespace) -> int:
    if Path(args.run_dir).is_file():
        raise UserError("is a file; give the run folder written by `sweep` or `run --out`", file=str(args.run_dir))
    run = open_run(args.run_dir)
    out = Path(args.out) if args.out else run.path / "report.html"
    ctx: dict = {}
    write_and_print(run, out, ctx)
    print_balance_table(run)
    print_targets(run)
    print_paired_checks(ctx)
    if run.manifest.get("until_decided"):
        from ..until_decided import print_sweep_decisions     # start-up: only for a run played until decided
        print()
        print_sweep_decisions(run.manifest, sys.stdout.write)
    print(f"page: {out}")
    return 0


REPORT_MARK = "<title>Balance report:"                       # in every report.html balancelab writes
STEP_MARK = "# Written by the balance report's verdict"        # the first line of every next-step config


def _starts_with(path: Path, mark: str, size: int = 4096) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return mark in fh.read(size)
    except OSError:
        return False


def check_report_targets(out: Path) -> None:
    """Refuse, before anything is computed, to overwrite a file `report` did not write: the HTML
    file itself, or a .toml in the next-steps folder beside it (the verdict's next-step configs)."""
    if out.is_dir():
        raise UserError("is a folder; give a file name for the report", file=str(out))
    if out.exists() and not _starts_with(out, REPORT_MARK):
        raise UserError("exists and is not a balance report balancelab wrote; choose another --out", file=str(out))
    steps = out.parent / "next-steps"
    if steps.exists() and not steps.is_dir():
        raise UserError("is a file, and the report writes its next-step configs in a folder of that name; "
                        "move the file or choose another --out folder", file=str(steps))
    if steps.is_dir():
        theirs = sorted(p.name for p in steps.glob("*.toml") if not _starts_with(p, STEP_MARK, 200))
        if theirs:
            raise UserError(f"holds configs balancelab did not write ({', '.join(theirs[:5])}); the report "
                            "writes its next-step configs there: move them or choose another --out folder",
                            file=str(steps))


def reference_tables(run) -> dict:
    """The reference point's ruleset tables (for the verdict's next-step configs), {} if not stored."""
    points = run.manifest.get("points", [])
    ref = run.manifest.get("reference_point", 0)
    h = next((p.get("ruleset_hash") for p in points if p.get("index") == ref), None)
    path = run.path / "rulesets" / f"{h}.json"
    try:
        return json.loads(path.read_text()).get("tables", {}) if h else {}
    except (OSError, ValueError):
        return {}


def print_balance_table(run) -> None:
    """The headline balance table of a run, one line per point (ablation points left out)."""
    from ..api import headline, points  # start-up: loaded when a report is printed, not for every --help
    head = headline(run)
    pts = points(run)
    fixed = {"point", "ablated", "base", "seed", "ruleset_hash", "ablation"}
    swept = [c for c in pts.columns if c not in fixed
             and (c not in ("players", "bots") or pts[c].n_unique() > 1)]
    head = head.filter(head["ablated"].is_null()) if "ablated" in head.columns else head
    label_w = max([len(", ".join(f"{c}={r[c]}" for c in swept)) for r in head.iter_rows(named=True)] + [5])
    print()
    print(f"{'point':<{label_w}}  {'games':>7}  {'rounds [95% CI]':>19}  {'balance [95% CI]':>20}  "
          f"{'seat 0 wins':>11}  {'fair':>5}  best / worst")
    for r in head.iter_rows(named=True):
        label = ", ".join(f"{c}={r[c]}" for c in swept) or "-"
        print(f"{label:<{label_w}}  {r['games']:>7}  {r['mean_rounds']:>6.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
              f"  {r['balance']:>6.3f} [{r['balance_low']:.3f}, {r['balance_high']:.3f}]"
              f"  {r['seat0_rate']:>11.3f}  {r['fair']:>5.3f}  {r['best']} / {r['worst']}")
    print("(fair = the fair share of wins, 1 / players)")


def print_targets(run) -> None:
    """The points ranked against the config's `[target]`, one line each (nothing without targets)."""
    from ..api import targets  # start-up: loaded when a report is printed, not for every --help
    ranked = targets(run)
    goal = run.manifest["config"].get("target") or {}
    if ranked.height == 0:
        return
    print("\ntargets (" + "; ".join(f"{k} {bound_text(k, v)}" for k, v in goal.items())
          + "): points ranked; met = the whole 95% interval inside, missed = wholly outside")
    for r in ranked.iter_rows(named=True):
        cells = [f"{k} {r[k]:.2f} [{r[k + '_low']:.2f}, {r[k + '_high']:.2f}] {r[k + '_mark']}" for k in goal]
        print(f"  {r['rank']}. {r['label']}: " + "; ".join(cells) + f"  (shortfall {r['shortfall']:.2f})")


def print_answer(ctx: dict) -> None:
    """The top of the page in the terminal: the answer to the sweep's question, then the verdict."""
    # start-up: the command's library loads when the command runs, not for every --help
    from reports.measures.verdict import lines
    if ctx["answer"]:
        print(f"\nthe answer: {ctx['answer']['question']}")
        for line in ctx["answer"]["lines"] + ctx["answer"]["never"]:
            print(f"  {line}")
    print("\nverdict (from causes only):")
    for line in lines(ctx["verdict"]):
        print(f"  {line}")


def print_paired_checks(ctx: dict) -> None:
    """One line per knockout/removal, named by its setting: the holders' paired effect, where it
    mattered, and what it may claim (the page's label)."""
    if not ctx["ablation"]:
        return
    labels = ctx["labels"]
    interval = ctx["ablation"][0].get("interval") or "interval"
    print(f"\npaired checks (effect on the {ctx['kind']}'s holders, pp, corrected 95% {interval}; "
          "mattered = games whose outcome changed)")
    for r in sorted(ctx["ablation"], key=lambda r: (r["base"], r["rank"])):
        eff = "n/a (nobody acquired it)" if r["effect"] != r["effect"] else \
            f"{r['effect'] * 100:+.1f} [{r['ci_low'] * 100:+.1f}, {r['ci_high'] * 100:+.1f}]"
        mattered = r.get("changed")
        reads = "causal" if r.get("holds") else "association only"
        print(f"  {labels[r['base']]}: {r['entity']} ({r.get('kind') or 'removal'}): {eff}, mattered in "
              f"{'n/a' if mattered is None else f'{mattered:.1%}'} of games: {reads}")
