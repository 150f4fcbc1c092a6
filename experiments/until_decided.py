"""Play until decided: chunks of paired games until each check's sequential test decides.

The test, its defaults and its error rates are in reports.sequential (docs/metrics.md,
section "Deciding with fewer games"). Here the chunks are played: `compare --until-decided`
plays game indices chunk by chunk on both sides and stops when every seat's and faction's
check is decided, or at the cap.
"""
from __future__ import annotations

from dataclasses import asdict, replace
from typing import Callable

import polars as pl

from reports import sequential as S


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
