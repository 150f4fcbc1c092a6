"""Where a result came from: the package versions and the source revision it ran with.

Every output folder that can be recomputed (a sweep's manifest, a tuning run, a ladder's or a
luck run's JSON) records these beside its figures.
"""
from __future__ import annotations

import importlib.metadata as _md
import subprocess
import sys
from pathlib import Path

PACKAGES = ("balancelab", "numpy", "polars", "pandas", "pyarrow", "joblib", "dask", "distributed",
            "matplotlib", "jinja2", "tqdm")


def versions() -> dict:
    """Python and package versions (None for a package that is not installed)."""
    out = {"python": sys.version.split()[0]}
    for pkg in PACKAGES:
        try:
            out[pkg] = _md.version(pkg)
        except _md.PackageNotFoundError:
            out[pkg] = None
    return out


def git_revision() -> dict:
    """The source revision and whether tracked files differ from it (read-only git calls)."""
    here = Path(__file__).resolve().parent

    def git(*args):
        try:
            return subprocess.run(["git", *args], cwd=here, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
    rev = git("rev-parse", "HEAD")
    if rev is None or rev.returncode != 0:
        return {"revision": None, "dirty": None}
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"revision": rev.stdout.strip(), "dirty": bool(status and status.stdout.strip())}
