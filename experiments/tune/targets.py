"""Target metrics of one candidate's games (the measuring lives in reports.measures.targets, shared with
sweep configs' `[target]`). Rates are in percentage points; a target is met when its whole
interval is inside the target (the proof's rule); the search ranks candidates by `shortfall`.
"""
from __future__ import annotations

from reports.measures.targets import PTS, met, measure, outside, shortfall

__all__ = ["PTS", "measure", "outside", "shortfall", "met"]
