"""How the batch engine's compiled kernels are built and cached (simcore/jit.py).

The engine is numpy (the bots are numpy policies, decisions.py); the decision-free steps
that loop per game (phase 1's draws with the own-deck reshuffle, phase 4's discards and
market refill with the Evolution reshuffle) are numba kernels (kernels.py). Their cache
folder is keyed by every source file of this package, as Capybara's and Evo's.
"""
from __future__ import annotations

from pathlib import Path

from ...jit import GameBuild, python_files

BUILD = GameBuild("evolversi", python_files(Path(__file__).resolve().parent),
                  "evolversi: compiling the batch engine's kernels (once per source version, about 6 s of CPU)")
CACHE_DIR = BUILD.folder
kernel = BUILD.kernel

__all__ = ["BUILD", "CACHE_DIR", "kernel"]
