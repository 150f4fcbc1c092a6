"""Every game and variant: outcomes pinned across versions by golden digests (golden.py)."""
import json

import pytest

from .golden import FILE, digest
from .kit import game_variants


@pytest.mark.parametrize("game,variant", game_variants())
def test_outcomes_match_the_golden_digest(game, variant):
    pinned = json.loads(FILE.read_text())
    key = f"{game}/{variant}"
    assert key in pinned, f"no golden digest for {key}: run `python -m tests.games.golden --update`"
    assert digest(game, variant) == pinned[key], (
        f"the per-game rows of {key} changed. If that is intended, run `python -m tests.games.golden "
        "--update` and say why in CHANGELOG.md")
