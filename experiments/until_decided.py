"""Play until decided: chunks of paired games until each check's sequential test decides.

The test, its defaults and its error rates are in reports.measures.sequential (docs/metrics.md,
section "Deciding with fewer games"). Here the chunks are played: `compare --until-decided`
plays game indices chunk by chunk on both sides and stops when every seat's and faction's
check is decided, or at the cap; `sweep --until-decided` does the same for a config's
knockouts/removals and grid points, each point played as long as one of its checks is open.
"""
from __future__ import annotations

from collections import Counter

import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from reports.measures import sequential as S
from reports.measures.impact import _holder_sums
from reports.measures.pairing import series_reference
from reports.measures.restricted import restricted_design
from simcore.errors import UserError

from . import store
from .config import SweepConfig, load_config
from .grid import expand
from .sweep import _check_options, _prepare_folder, _write_ruleset_data, build_manifest, execute


def compare_until_decided(play_both: Callable[[int, int], tuple[pl.DataFrame, pl.DataFrame]],
                          cap: int | None = None, design: S.Design = S.Design()):
    """Play (side A, side B) chunks until every seat and faction check is decided or at the cap.

    Returns the two frames of every game played and {"design", "rows"}: per check its decision,
    the games that decided it, the effect and its confidence sequence.
    """
    design = design if cap is None else replace(design, cap=cap)
    frames_a, frames_b = [], []

    def play(names, start, stop):
        a, b = play_both(start, stop)
        frames_a.append(a)
        frames_b.append(b)
        return S.seat_differences(a, b)
    checks = S.run_until_decided(None, play, design)
    rows = [c.row(design) for c in checks]
    return (pl.concat(frames_a).sort("game"), pl.concat(frames_b).sort("game"),
            {"design": asdict(design), "rows": rows})


def _pp(x) -> str:
    return "n/a" if x is None or x != x else f"{x * 100:+.1f}"


def print_decisions(seq: dict, w) -> None:
    """The per-check decisions as text: 'decided after N games' and the confidence sequence."""
    d = seq["design"]
    w(f"\nuntil decided: each check stops when its paired sequential test decides (no effect: |change| <= "
      f"{d['d0'] * 100:g} pp; effect: |change| >= {d['d1'] * 100:g} pp; alpha = {d['alpha']:g}, beta = {d['beta']:g}; "
      f"a look every {d['chunk']:,} games, cap {d['cap']:,})\n")
    w(f"{'check':<20}{'decision':<24}{'decided after':>14}{'change pp':>11}  {'95% confidence sequence':<25}"
      f"fixed-count games\n")
    for r in seq["rows"]:
        after = "-" if r["decided_after"] is None else f"{r['decided_after']:,} games"
        fixed = "n/a" if r["fixed_games"] is None else f"{r['fixed_games']:,}"
        w(f"{r['check']:<20}{r['decision']:<24}{after:>14}{_pp(r['effect']):>11}  "
          f"{'[' + _pp(r['cs_low']) + ', ' + _pp(r['cs_high']) + ']':<25}{fixed}\n")
    played = max((r["games"] for r in seq["rows"]), default=0)
    fixed = max((r["fixed_games"] or 0 for r in seq["rows"]), default=0)
    w(f"games played: {played:,} per side; a fixed-count design with the same error rates: {fixed:,} "
      f"(the largest check's need at the measured variance)\n")
    w("(the confidence sequence holds at any stopping time; the paired intervals above are fixed-count "
      "intervals over all games played. A decision weighs d0 against d1, so an \"effect\" may come before "
      "the sequence excludes 0)\n")


# ----------------------------------------------------------------------------- knockouts in a sweep

def _recorded_chunk(out: Path, ledger: dict, point: int, start: int, stop: int) -> pl.DataFrame | None:
    """The games of a chunk a killed run already wrote and recorded, if its file matches its record."""
    path = store.chunk_path(out, point, start, stop)
    if path.exists() and store.check_chunk(path, start, stop, ledger.get((point, start, stop))) is None:
        return pl.read_parquet(path)
    return None


def sweep_until_decided(config, out, design: S.Design = S.Design(), budget: int | None = None, jobs: int = 1,
                        progress: bool = False, resume: bool = False):
    """Run a config's paired checks until each is decided: a run folder like `sweep`'s.

    The checks: every knockout/removal against its base point (the holders' paired effect), and
    every grid point against the reference point (each seat's and faction's win rate, as
    `compare`), and every restricted point against its plain line-up (the restricted seat's win
    share against the plain bot's in that seat, game by game). Every look plays the next chunk of game indices at the points that an open check
    needs; a decided check is played no further (its games go to the checks still open;
    `budget`: games played at most, over all points). The config's
    `games` is the cap per point. Points hold different numbers of games, always 0..N-1, so each
    knockout stays paired with its base game by game. The manifest's `until_decided` holds the
    design and one row per check (decision, games that decided it, effect, confidence sequence).
    """
    cfg = config if isinstance(config, SweepConfig) else load_config(config)
    _check_options(jobs, "loky", None)
    points = expand(cfg)
    knockouts = {str(p.index): p for p in points if p.ablated is not None}
    problems = S.Design(**{**design.__dict__, "cap": cfg.games}).problems()
    if problems:
        raise UserError("; ".join(problems), key="--until-decided")
    design = replace(design, cap=cfg.games)
    if budget is not None and budget < 1:
        raise UserError(f"must be at least 1 game, got {budget}", key="--budget")
    out = Path(out)
    manifest = build_manifest(cfg, points, "sweep --until-decided")
    grid = [a["name"] for a in manifest["config"].get("grid", [])]
    series = series_reference(manifest["points"], manifest["reference_point"], grid)   # point -> reference
    mods, refs = restricted_design(manifest["points"])
    restricted = {f"point {m['point']} against {refs[(m['setting'], m['base'])]}: seat {m['seat']} "
                  f"{m['base']}+{m['modifier']}:{m['entity']}": (m, refs[(m["setting"], m["base"])])
                  for m in mods if (m["setting"], m["base"]) in refs}
    series = {i: j for i, j in series.items() if i not in {m["point"] for m, _ in restricted.values()}}
    if not knockouts and not series and not restricted:
        raise UserError("--until-decided decides paired checks: the config has no [ablation], no [restricted] and "
                        "no grid point to compare with the reference point", file=str(cfg.file))
    manifest = _prepare_folder(out, manifest, resume)
    out.mkdir(parents=True, exist_ok=True)
    with store.RunLock(out, note=lambda text: print(text, file=sys.stderr)):
        return _until_decided_locked(cfg, out, manifest, points, knockouts, series, restricted, design, budget,
                                     jobs, progress)


def _until_decided_locked(cfg, out: Path, manifest: dict, points, knockouts, series, restricted, design, budget,
                          jobs, progress) -> Path:
    """The looks of `sweep_until_decided`, in a folder this process holds. A resumed run replays
    the same looks: a chunk already written and recorded is read back instead of played (the
    decisions depend on the games only, so they come out the same)."""
    store.remove_partial(out)
    _write_ruleset_data(out, points)
    manifest["status"] = "running"
    store.write_json(out / store.MANIFEST, manifest)      # a killed run can be resumed from here
    ledger = store.read_ledger(out)
    by_index = {p.index: p for p in points}
    restricted_points = {m["point"] for m, _ in restricted.values()}
    played = {p.index: [] for p in points}
    t0 = time.perf_counter()
    owner: dict[str, tuple[int, int]] = {}          # check name -> (point played for it, its pair)
    played_now = [0]                                 # games played by this process (not read back)

    def pairs_of(names) -> set[tuple[int, int]]:
        """(point, the point it is paired with) of the open checks (None: the first look, every check)."""
        if names is None:
            return ({(p.index, p.base) for p in knockouts.values()} | set(series.items())
                    | {(m["point"], ref) for m, ref in restricted.values()})
        return {(knockouts[n].index, knockouts[n].base) if n in knockouts else
                (restricted[n][0]["point"], restricted[n][1]) if n in restricted else owner[n] for n in names}

    def points_of(names) -> int:
        return len({i for pair in pairs_of(names) for i in pair})

    def play(names, start, stop):
        pairs = pairs_of(names)
        wanted = sorted({i for pair in pairs for i in pair})
        frames = {i: df for i in wanted if (df := _recorded_chunk(out, ledger, i, start, stop)) is not None}
        for i in frames:
            played[i].append([start, stop])
        tasks = [(i, by_index[i].spec, start, stop, by_index[i].track) for i in wanted if i not in frames]
        for point, a, b, games, tallies in execute(tasks, jobs):
            store.record_chunk(out, point, a, b, store.write_chunk(store.chunk_path(out, point, a, b), games, tallies))
            played[point].append([a, b])
            played_now[0] += b - a
            frames[point] = games
        diffs = {}
        for name, (m, ref) in restricted.items():
            if (m["point"], ref) in pairs and (names is None or name in names):
                share = f"s{m['seat']}_share"      # the restricted seat against the plain bot in that seat
                diffs[name] = (frames[m["point"]][share].cast(pl.Float64).to_numpy()
                               - frames[ref][share].cast(pl.Float64).to_numpy())
        for i, j in sorted(pairs):
            if i in restricted_points:
                continue
            if str(i) in knockouts:
                p = knockouts[str(i)]
                sums = _holder_sums(frames[j], frames[i], p.tracked.get(p.ablated, []), None)
                diffs[str(i)] = sums if sums is not None else (np.zeros(stop - start), np.zeros(stop - start))
                continue
            for label, d in S.seat_differences(frames[j], frames[i]).items():
                name = f"point {i} against {j}: {label}"
                owner[name] = (i, j)
                diffs[name] = d
        if progress:
            print(f"  games {stop:,}: {len(diffs if names is None else names)} checks open", file=sys.stderr)
        return diffs

    checks = S.run_until_decided(None, play, design, budget, cost=points_of)
    rows = []
    for c in checks:
        p = knockouts.get(c.name)
        if p is not None:
            rows.append({"point": p.index, "base": p.base, "entity": p.ablated, "measure": None, **c.row(design)})
        elif c.name in restricted:
            m, ref = restricted[c.name]
            rows.append({"point": m["point"], "base": ref, "entity": None,
                         "measure": f"seat {m['seat']} {m['modifier']} {m['entity']}", **c.row(design)})
        else:
            i, j = owner[c.name]
            rows.append({"point": i, "base": j, "entity": None, "measure": c.name.split(": ", 1)[1], **c.row(design)})
    manifest["chunks"] = [sorted(played[p.index]) for p in points]
    manifest["until_decided"] = {"design": asdict(design), "budget": budget, "rows": rows,
                                 "games_played": sum(b - a for ch in played.values() for a, b in ch),
                                 "games_fixed": cfg.games * len(points)}
    manifest["status"] = "complete"
    manifest["sessions"] = [{"jobs": jobs, "backend": "loky", "seconds": round(time.perf_counter() - t0, 3),
                             "games": manifest["until_decided"]["games_played"], "played_now": played_now[0]}]
    store.write_json(out / store.MANIFEST, manifest)
    return out


def print_sweep_decisions(manifest: dict, w) -> None:
    """Each check's decision as text, one line each, and the games played against a fixed count."""
    seq = manifest["until_decided"]
    d = seq["design"]
    w(f"until decided (paired checks; no effect |effect| <= {d['d0'] * 100:g} pp, effect >= {d['d1'] * 100:g} pp, "
      f"alpha = {d['alpha']:g}, beta = {d['beta']:g}, a look every {d['chunk']:,} games, cap {d['cap']:,}; "
      f"a knockout's effect is on its holders):\n")
    for r in sorted(seq["rows"], key=lambda r: (r["entity"] is None, r["base"], r["point"], r["check"])):
        after = f"after {r['decided_after'] if r['decided_after'] is not None else r['games']:,} games"
        what = f"point {r['base']}: {r['entity']}" if r["entity"] is not None else r["check"]
        w(f"  {what}: {r['decision']} {after}: {_pp(r['effect'])} pp "
          f"[{_pp(r['cs_low'])}, {_pp(r['cs_high'])}] (confidence sequence)\n")
    w(f"games played: {seq['games_played']:,}, against {seq['games_fixed']:,} for every point at the config's "
      f"count\n")


def print_decision_summary(manifest: dict, w) -> None:
    """The checks' decisions counted, and the games played against the config's fixed count (the
    per-check rows are on the page, in `balancelab report` and in the manifest)."""
    seq = manifest["until_decided"]
    counts = Counter(r["decision"] for r in seq["rows"])
    parts = ", ".join(f"{n} {decision}" for decision, n in counts.most_common())
    w(f"until decided: {len(seq['rows'])} paired checks: {parts}\n")
    w(f"games played: {seq['games_played']:,}, against {seq['games_fixed']:,} for every point at the config's "
      f"count\n")
