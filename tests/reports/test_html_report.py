"""The HTML report is self-contained and opens in headless Chromium without errors."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from experiments import cli

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)


@pytest.fixture(scope="module")
def report(planted_run, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html") / "report.html"
    assert cli.main(["report", str(planted_run.path), "--out", str(out)]) == 0
    return out


def test_report_is_self_contained(report):
    html = report.read_text()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)     # nothing from the network
    imgs = re.findall(r'<img src="([^"]+)"', html)
    assert len(imgs) >= 6 and all(s.startswith("data:image/png;base64,") for s in imgs)
    for words in ("Findings", "Headline balance table", "Card impact", "Ablations", "default",
                  "track_length", "git revision", "Pelliccia"):
        assert words in html


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
                           "--virtual-time-budget=5000", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary here (CI installs it)")
def test_report_opens_in_headless_chromium(report, tmp_path):
    dom = _chromium(tmp_path, "--dump-dom", report.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    body = re.search(r"<body([^>]*)>", dom.stdout)
    assert body, dom.stdout[:500]
    loaded = re.search(r'data-images="(\d+)/(\d+)"', body.group(1))
    assert loaded, "the page's load handler did not run"
    assert loaded.group(1) == loaded.group(2) and int(loaded.group(2)) >= 6     # every figure decoded
    assert "data-js-errors" not in body.group(1)
    console = [line for line in dom.stderr.splitlines() if ":CONSOLE" in line]
    assert not console, console
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "balance-report.png"
    shot.unlink(missing_ok=True)
    res = _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,4000", report.as_uri())
    assert res.returncode == 0 and shot.exists() and shot.stat().st_size > 10_000
    shutil.copyfile(report, ARTIFACTS / "balance-report.html")
