"""Every game and variant: the readable log of a few seeded games is pinned (playthroughs.py);
a change names the first line that moved."""
import pytest

from .kit import game_variants
from .playthroughs import first_difference, path, playthrough


@pytest.mark.parametrize("game,variant", game_variants())
def test_playthrough_matches_the_golden_log(game, variant):
    f = path(game, variant)
    assert f.exists(), f"no golden playthrough for {game}/{variant}: run `python -m tests.games.playthroughs --update`"
    moved = first_difference(f.read_text().splitlines(), playthrough(game, variant))
    assert moved is None, (f"{game}/{variant}'s playthrough changed at {moved}\nIf that is intended, run "
                           "`python -m tests.games.playthroughs --update`, read the diff and say why in CHANGELOG.md")


def test_first_difference_names_the_first_moved_line_and_a_length_change():
    assert first_difference(["a", "b", "c"], ["a", "b", "c"]) is None
    assert first_difference(["a", "b", "c"], ["a", "x", "c"]).startswith("line 2:")
    assert first_difference(["a", "b"], ["a", "b", "c"]).startswith("line 3:")
