"""Reports in headless Chromium at 1024, 1280 and 1400 px: no word broken inside a table cell, a
wide table scrolls inside its own box and never the page; the README's main job (quick.toml)
within its page height budget, its verdict from causes only, screenshotted for CI."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from experiments import cli
from simcore.games import get_game

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary here (.ci/run installs it "
                                                               "with apt); the width check needs a real browser")


PAGE_BUDGET = int(8.5 * 900)       # the main job's page at 1400 px: about 8 screens
EVO_SCREENS = 6                    # the Evo gene-mix page (15 points) at 1024 and 1400 px, in screens of 900 px


def check_the_main_jobs_causes(out: Path) -> None:
    """The main job's verdict names only causally checked entities, and every causal check holds
    its pairing: at least 99% of the games without the entity identical (or causal by design when
    nearly every game has it)."""
    from experiments.store import open_run
    from reports.page.html import build_context
    run = open_run(out)
    ctx = build_context(run.manifest, run.games(), run.tallies())
    checks = [r for r in ctx["ablation"] if r["kind"] == "knockout"]
    assert checks and all(r["holds"] for r in checks)
    assert all(r["identical_unused"] >= 0.99 for r in checks if r["unused_games"] >= 30), checks
    knocked = {r["entity"] for r in checks}
    for p in ctx["verdict"]["problems"]:
        assert p["what"] != ctx["kind"] or (p["name"] in knocked and p["measure"].startswith("knockout")), p


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000", *args],
                          capture_output=True, text=True, timeout=120)


def _body_at_1280(tmp_path: Path, page: Path, width: int = 1280) -> dict:
    dom = _chromium(tmp_path, f"--window-size={width},900", "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    body = re.search(r"<body([^>]*)>", dom.stdout)
    assert body and "data-wide-tables" in body.group(1), "the page's self-check did not run"
    return dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', body.group(1)))


def _reads(tmp_path: Path, page: Path, width: int) -> dict:
    """The page at `width` px: no word broken inside a cell, no sideways scroll; its self-check."""
    body = _body_at_1280(tmp_path, page, width)
    assert body["data-broken-cells"] == "0", body["data-broken-names"]
    assert body["data-page-scroll"] == "false"
    return body


@pytest.fixture(scope="module")
def report(planted_run, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("width") / "report.html"
    assert cli.main(["report", str(planted_run.path), "--out", str(out)]) == 0
    return out


@needs_chromium
def test_the_sweep_report_page_never_scrolls_sideways_at_1280px(report, tmp_path):
    body = _body_at_1280(tmp_path, report)
    assert body["data-page-scroll"] == "false" and body["data-broken-cells"] == "0", body


@needs_chromium
def test_the_width_check_catches_a_table_too_wide_for_the_page(report, tmp_path):
    wide = "<table><tr>" + "".join(f"<td>{'9' * 12}</td>" for _ in range(40)) + "</tr></table>"
    page = tmp_path / "wide.html"
    page.write_text(report.read_text().replace('<h2 id="findings">', wide + '<h2 id="findings">', 1))
    body = _body_at_1280(tmp_path, page)
    assert int(body["data-wide-tables"]) >= 1 and body["data-page-scroll"] == "false"    # it scrolls in its own box


@needs_chromium
@pytest.mark.parametrize("width", [1024, 1400])
def test_no_word_is_broken_inside_and_the_page_never_scrolls_sideways(report, tmp_path, width):
    _reads(tmp_path, report, width)


@needs_chromium
def test_the_word_check_catches_a_header_broken_inside_a_word(report, tmp_path):
    narrow = '<table><tr><th style="width: 30px; overflow-wrap: anywhere">Platypusplatypus</th></tr></table>'
    page = tmp_path / "narrow.html"
    page.write_text(report.read_text().replace('<h2 id="findings">', narrow + '<h2 id="findings">', 1))
    body = _body_at_1280(tmp_path, page, 1400)
    assert int(body["data-broken-cells"]) >= 1 and "Platypusplatypus" in body["data-broken-names"]


@needs_chromium
def test_the_compare_report_page_never_scrolls_sideways_at_1280px(tmp_path):
    data = tmp_path / "copy"
    shutil.copytree(Path(get_game("evolversi").data.data_dir), data)
    text = (data / "cards.csv").read_text().replace("Mutazione,evolution,,2,1,1,0,gain_points,2,",
                                                    "Mutazione,evolution,,2,1,1,0,gain_points,5,", 1)
    (data / "cards.csv").write_text(text)
    assert cli.main(["compare", "evolversi", "--data", str(data), "--games", "400", "--seed", "2",
                     "--out", str(tmp_path / "cmp")]) == 0
    body = _body_at_1280(tmp_path, tmp_path / "cmp" / "compare.html")
    assert body["data-broken-cells"] == "0", body.get("data-broken-names")
    assert body["data-page-scroll"] == "false" and body["data-images"].split("/")[0] == body["data-images"].split("/")[1]


@pytest.mark.slow
@needs_chromium
def test_the_main_jobs_report_opens_with_its_verdict(tmp_path):
    """The README's first command (quick.toml), then its report's verdict as the reader sees it."""
    out = tmp_path / "quick"
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "sweep", str(REPO / "experiments/configs/quick.toml"),
                           "--out", str(out), "--jobs", "2", "--until-decided", "--quiet"], capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert cli.main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    verdict = re.search(r'<section id="verdict".*?</section>', html, re.S).group(0)
    assert "(red)" in verdict and "(blue)" in verdict and "percentage points" in verdict
    assert re.search(r'<li class="(strong|weak)">', verdict)
    assert "95% confidence sequence" in verdict and 'id="until-decided"' in html     # played until decided
    for step in re.findall(r'data-config="([^"]+)"', verdict):
        assert Path(step).is_file()
    body = _body_at_1280(tmp_path, out / "report.html")
    assert body["data-page-scroll"] == "false"
    for width in (1024, 1400):
        body = _body_at_1280(tmp_path, out / "report.html", width)
        assert body["data-broken-cells"] == "0" and body["data-page-scroll"] == "false", body
        if width == 1400:                     # about 8 screens of 900 px, the detail folded
            assert int(body["data-page-height"]) <= PAGE_BUDGET, body["data-page-height"]
    check_the_main_jobs_causes(out)
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "quick-verdict.png"
    shot.unlink(missing_ok=True)
    res = _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1400,900", (out / "report.html").as_uri())
    assert res.returncode == 0 and shot.exists() and shot.stat().st_size > 10_000
    shutil.copyfile(out / "report.html", ARTIFACTS / "quick-report.html")


@pytest.fixture(scope="module")
def evo_gene_mix_report(shipped_small, tmp_path_factory) -> Path:
    """The Evo gene-mix sweep (15 points, a board) at a small size, its report as the user gets it."""
    run = shipped_small(REPO / "experiments/configs/evo_gene_mix.toml")
    out = tmp_path_factory.mktemp("evo") / "report.html"
    assert cli.main(["report", str(run.path), "--out", str(out)]) == 0
    return out


@needs_chromium
@pytest.mark.parametrize("width", [1024, 1400])
def test_the_evo_gene_mix_page_reads_within_its_height_budget(evo_gene_mix_report, tmp_path, width):
    body = _reads(tmp_path, evo_gene_mix_report, width)
    assert int(body["data-page-height"]) <= EVO_SCREENS * 900, body["data-page-height"]
    assert body["data-images"].split("/")[0] == body["data-images"].split("/")[1]


def test_the_evo_gene_mix_page_folds_its_per_point_detail(evo_gene_mix_report):
    """Nothing repeats per point in the open page: one board, one figure of each kind open, and
    the per-point lines, tables and the rulesets folded."""
    html = evo_gene_mix_report.read_text()
    open_part = re.sub(r"<details[ >].*?</details>", "", html, flags=re.S)
    titles = re.findall(r"<figcaption>([^<]*)</figcaption>", open_part)
    assert len(titles) == len(set(titles)) and sum(t.startswith("The board") for t in titles) == 1, titles
    assert "<details open" not in html
    assert open_part.count("bot greedy</b>") <= 1          # one coverage line open: the reference setting's
