"""Reports at 1280 px in headless Chromium: no table needs a horizontal scroll, the page does not
either; and the verdict of the README's main job (quick.toml), screenshotted for CI."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from experiments import cli

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary here (.ci/run installs it "
                                                               "with apt); the width check needs a real browser")


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000", *args],
                          capture_output=True, text=True, timeout=120)


def _body_at_1280(tmp_path: Path, page: Path) -> dict:
    dom = _chromium(tmp_path, "--window-size=1280,2000", "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    body = re.search(r"<body([^>]*)>", dom.stdout)
    assert body and "data-wide-tables" in body.group(1), "the page's self-check did not run"
    return dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', body.group(1)))


@pytest.fixture(scope="module")
def report(planted_run, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("width") / "report.html"
    assert cli.main(["report", str(planted_run.path), "--out", str(out)]) == 0
    return out


@needs_chromium
def test_no_table_of_the_sweep_report_scrolls_sideways_at_1280px(report, tmp_path):
    body = _body_at_1280(tmp_path, report)
    assert body["data-wide-tables"] == "0", body.get("data-wide-names")
    assert body["data-page-scroll"] == "false"


@needs_chromium
def test_the_width_check_catches_a_table_too_wide_for_the_page(report, tmp_path):
    wide = "<table><tr>" + "".join(f"<td>{'9' * 12}</td>" for _ in range(40)) + "</tr></table>"
    page = tmp_path / "wide.html"
    page.write_text(report.read_text().replace('<h2 id="findings">', wide + '<h2 id="findings">', 1))
    assert int(_body_at_1280(tmp_path, page)["data-wide-tables"]) >= 1


@needs_chromium
def test_no_table_of_the_compare_report_scrolls_sideways_at_1280px(tmp_path):
    data = tmp_path / "copy"
    shutil.copytree(Path(cli.get_game("evolversi").data.data_dir), data)
    text = (data / "cards.csv").read_text().replace("Mutazione,evolution,,2,1,1,0,gain_points,2,",
                                                    "Mutazione,evolution,,2,1,1,0,gain_points,5,", 1)
    (data / "cards.csv").write_text(text)
    assert cli.main(["compare", "evolversi", "--data", str(data), "--games", "400", "--seed", "2",
                     "--out", str(tmp_path / "cmp")]) == 0
    body = _body_at_1280(tmp_path, tmp_path / "cmp" / "compare.html")
    assert body["data-wide-tables"] == "0", body.get("data-wide-names")
    assert body["data-page-scroll"] == "false" and body["data-images"].split("/")[0] == body["data-images"].split("/")[1]


@pytest.mark.slow
@needs_chromium
def test_the_main_jobs_report_opens_with_its_verdict(tmp_path):
    """The README's first command (quick.toml), then its report's verdict as the reader sees it."""
    out = tmp_path / "quick"
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "sweep", str(REPO / "experiments/configs/quick.toml"),
                           "--out", str(out), "--jobs", "2", "--quiet"], capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert cli.main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    verdict = re.search(r'<section id="verdict".*?</section>', html, re.S).group(0)
    assert "(red)" in verdict and "(blue)" in verdict and "percentage points" in verdict
    assert re.search(r'<li class="(strong|weak)">', verdict)
    for step in re.findall(r'data-config="([^"]+)"', verdict):
        assert Path(step).is_file()
    body = _body_at_1280(tmp_path, out / "report.html")
    assert body["data-wide-tables"] == "0" and body["data-page-scroll"] == "false"
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "quick-verdict.png"
    shot.unlink(missing_ok=True)
    res = _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,1500", (out / "report.html").as_uri())
    assert res.returncode == 0 and shot.exists() and shot.stat().st_size > 10_000
    shutil.copyfile(out / "report.html", ARTIFACTS / "quick-report.html")
