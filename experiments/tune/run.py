"""`balancelab tune`: check everything, search, prove, write the designer's folder.

    OUT/manifest.json     the resolved config, its digest and status (a resume checks the digest)
    OUT/config.toml       the config as given
    OUT/evals/            every evaluated chunk of games (parquet, written atomically)
    OUT/evaluations.csv   one row per candidate and rung: values, games, metrics, shortfall
    OUT/trace.csv         games played -> best candidate so far
    OUT/data/             only the changed data files, ready for `--data`
    OUT/proposal.txt      the diff ("Artigli strength 2 -> 3")
    OUT/tune.json         everything above as data (the proof's intervals, the sensitivity)
    OUT/report.html       the report section
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import sys
from pathlib import Path

import polars as pl

from simcore.errors import UserError

from .. import store
from ..provenance import git_revision, versions
from ..sweep import _check_options
from .config import TuneConfig, load_tune
from .evaluate import Evaluator
from .output import data_folder, evaluation_rows, jsonable
from .proof import prove
from .search import run_search
from .space import build_space

MANIFEST = "manifest.json"


def _prepare(out: Path, cfg: TuneConfig, resume: bool) -> None:
    if out.exists() and not out.is_dir():
        raise UserError("exists and is not a folder", file=str(out))
    has = (out / MANIFEST).exists()
    if out.exists() and any(out.iterdir()):
        if not resume:
            raise UserError("output folder is not empty" + ("; add --resume to finish it" if has else "")
                            + ", or choose another --out", file=str(out))
        if not has:
            raise UserError("cannot resume: the folder holds no tuning run (no manifest.json)", file=str(out))
        old = _read(out / MANIFEST)
        if old.get("kind") != "balancelab tune" or old.get("config_digest") != cfg.digest():
            raise UserError("cannot resume: the folder holds a tuning run of a different config; use another --out",
                            file=str(out))


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _remove_partial(out: Path) -> None:
    for p in (out / "evals").rglob("*.tmp-*") if (out / "evals").is_dir() else ():
        p.unlink()


def tune(config, out, *, jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
         resume: bool = False, progress: bool = False, until_decided: bool = False) -> dict:
    """Run (or finish) a tuning search into `out`; return the summary (also OUT/tune.json).

    until_decided: the proof plays until every target is decided (as `[proof] until_decided`)."""
    cfg = config if isinstance(config, TuneConfig) else load_tune(config)
    if until_decided:
        cfg = dataclasses.replace(cfg, proof_until_decided=True)
    _check_options(jobs, backend, scheduler)
    space = build_space(cfg)
    out = Path(out)
    _prepare(out, cfg, resume)
    ev = Evaluator(space, out, jobs, backend, scheduler)
    for c in (space.current,):
        ev.spec(c, cfg.base.seed)          # bots, players, factions checked before anything is written
    out.mkdir(parents=True, exist_ok=True)
    with store.RunLock(out, note=lambda text: print(text, file=sys.stderr)):
        return _tune_locked(cfg, space, ev, out, progress)


def _tune_locked(cfg, space, ev, out: Path, progress: bool) -> dict:
    """The search, the proof and the outputs, in a folder this process alone writes."""
    _remove_partial(out)
    manifest = {"kind": "balancelab tune", "status": "running", "config_file": str(cfg.file),
                "config_digest": cfg.digest(), "config": jsonable(cfg.resolved()),
                "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                "versions": versions(), "git": git_revision()}
    store.write_json(out / MANIFEST, manifest)
    if cfg.text and not (out / "config.toml").exists():
        store.write_text(out / "config.toml", cfg.text)

    from tqdm import tqdm  # start-up: tqdm, only when a progress bar is drawn
    bar = tqdm(total=cfg.budget_games if cfg.budget_games < 10**11 else None, unit="game", unit_scale=True,
               disable=None if progress else True, file=sys.stderr, dynamic_ncols=True, desc=cfg.name)
    ev.on_games = bar.update

    def show(rec):
        diff = "; ".join(space.diff(rec.candidate)) or "no change"
        bar.set_postfix_str(f"best: {diff} (shortfall {rec.shortfall:.2f}{', met' if rec.met else ''})")

    with bar:
        outcome = run_search(space, ev, on_best=show)
        if outcome.original is None:
            raise UserError(f"{cfg.budget_games} games cannot evaluate even the current data "
                            f"({cfg.search.max_games} games); raise it", file=cfg.file, key="budget.games")
        search_games = ev.played
        proof = prove(space, ev, outcome.best.candidate)
    rows = evaluation_rows(space, outcome)
    rows.write_csv(out / "evaluations.csv.tmp")
    Path(out / "evaluations.csv.tmp").replace(out / "evaluations.csv")
    pl.DataFrame(outcome.trace).write_csv(out / "trace.csv.tmp")
    Path(out / "trace.csv.tmp").replace(out / "trace.csv")
    winner = outcome.best.candidate
    changed = data_folder(space, winner, out / "data") if winner != space.current else []
    diff = space.diff(winner)
    summary = {
        "config": cfg.name, "ruleset": cfg.base.ruleset, "verdict": proof["verdict"], "diff": diff,
        "stopped": outcome.stopped, "search_games": search_games, "played_now": ev.fresh,
        "variables": [v.describe() for v in cfg.variables], "current": list(space.current),
        "proposal": list(winner), "changed_files": changed, "targets": cfg.targets,
        "search_best": {"values": outcome.best.values, "met": outcome.best.met, "games": outcome.best.games,
                        "shortfall": outcome.best.shortfall},
        "proof": proof, "trace": outcome.trace, "candidates": len({r.candidate for r in outcome.records}),
    }
    summary = jsonable(summary)
    store.write_json(out / "tune.json", summary)
    text = proposal_text(summary)
    store.write_text(out / "proposal.txt", text + "\n")
    from reports.page.tune import write_tune_report  # start-up: the page loads matplotlib
    write_tune_report(summary, rows.to_dicts(), out / "report.html")
    manifest["status"] = "complete"
    store.write_json(out / MANIFEST, manifest)
    return summary


def proposal_text(summary: dict) -> str:
    """The short diff and the verdict, as the command prints it."""
    lines = ["; ".join(summary["diff"]) if summary["diff"] else "no change: the current data already meets the targets"
             if summary["verdict"] == "met" else "no change found that helps"]
    p = summary["proof"]
    u = p.get("until_decided")
    if u:
        from reports.page.tune import decided_headline, decided_words  # start-up: the page loads matplotlib
        lines.append(f"targets {decided_headline(p)}: {summary['verdict'].upper()}")
    else:
        lines.append(f"targets on {p['games']:,} fresh games (seed {p['seed']}): {summary['verdict'].upper()}")
    for t, target in summary["targets"].items():
        est, lo, hi = p["proposal"]["values"][t]
        o = p["original"]["values"][t]
        goal = f"in [{target[0]}, {target[1]}]" if isinstance(target, list) else f"<= {target}"
        ok = "met" if p["proposal"]["met"][t] else "NOT met"
        lines.append(f"  {t:<14} {goal:<14} proposal {est:6.2f} [{lo:.2f}, {hi:.2f}]   "
                     f"original {o[0]:6.2f} [{o[1]:.2f}, {o[2]:.2f}]   {ok}"
                     + (f"   {decided_words(u['targets'][t])}" if u else ""))
    if summary["verdict"] != "met":
        from reports.page.tune import not_met_lines  # start-up: the page loads matplotlib
        lines += not_met_lines(summary)
    lines.append(f"search: {summary['candidates']} candidates, {summary['search_games']:,} games ({summary['stopped']})")
    return "\n".join(lines)
