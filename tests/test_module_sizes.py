"""Every module of the engines and the bots stays small enough to read whole: no .py file
under simcore/ or strategies/ is over MAX_LINES lines (a longer one is split by role, as
the games' reference and batch engines are)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600
GAMES = ("capybara", "evo", "evolution", "evolversi")


def test_no_module_under_simcore_or_strategies_is_over_600_lines():
    files = sorted(f for top in ("simcore", "strategies") for f in (ROOT / top).rglob("*.py"))
    folders = {f.parent for f in files}
    for game in GAMES:                           # every game's engines and bots were read
        assert ROOT / "simcore" / "games" / game in folders and ROOT / "strategies" / game in folders
    long = {str(f.relative_to(ROOT)): n for f in files if (n := len(f.read_text().splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines: {long}"
