"""The layers hold: import-linter's contracts (pyproject.toml) pass, and simcore names no bot."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_are_kept():
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "import-linter is part of the test extra: pip install -e '.[test]'"
    proc = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


def test_no_module_under_simcore_imports_strategies():
    pattern = re.compile(r"^\s*(from|import)\s+strategies\b", re.M)
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "simcore").rglob("*.py") if pattern.search(p.read_text())]
    assert offenders == []
