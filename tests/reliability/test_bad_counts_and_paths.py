"""Every command walked with out-of-range counts (10^30 included) and operating-system
failures: one line on stderr and the documented exit code (docs/reliability.md), nothing
played and nothing written first."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli import main
from tests.reliability.kit import peak_kib, with_peak

HUGE = str(10**30)
FAKE_CLI = Path(__file__).with_name("fake_cli.py")
ONE_GB_KB = 1024 * 1024          # ru_maxrss is in KiB on Linux

COUNTS = [
    ["run", "evolversi", "--games", HUGE],
    ["run", "evolversi", "--games", "0"],
    ["run", "evolversi", "--games", str(10**9), "--batch-size", "10"],      # more than MAX_CHUNKS files
    ["run", "evolversi", "--batch-size", HUGE],
    ["run", "evolversi", "--players", HUGE],
    ["run", "evolversi", "--jobs", HUGE],
    ["run", "evolversi", "--seed", HUGE],
    ["compare", "evolversi", "--games", HUGE],
    ["ladder", "evolversi", "--games", HUGE],
    ["ladder", "evolversi", "--players", "-1"],
    ["luck", "evolversi", "--games", HUGE],
    ["luck", "evolversi", "--bootstrap", HUGE],
    ["train", "evolversi", "--budget", HUGE],
    ["bench", "evolversi", "--games", HUGE],
    ["bench", "evolversi", "--scale", HUGE],
    ["replay", "evolversi", "--game", HUGE],
    ["replay", "evolversi", "--game", "-1"],
]


@pytest.mark.parametrize("argv", COUNTS, ids=lambda a: " ".join(a[:1] + a[2:]).replace(HUGE, "10^30"))
def test_an_out_of_range_count_is_one_line_and_exit_2(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert "must be" in err or "chunk files" in err
    assert list(tmp_path.iterdir()) == []


SWEEPS = {
    "games": 'games = ' + HUGE,
    "batch_size": 'batch_size = ' + HUGE,
    "seed": 'seed = ' + HUGE,
    "replicates": 'replicates = ' + HUGE,
    "grid": "\n".join(f'[[grid]]\nparam = "fourth_card_space"\nname = "a{i}"\nvalues = [{", ".join(map(str, range(1, 11)))}]'
                      for i in range(9)),                                # 10^9 points
}


@pytest.mark.parametrize("key", SWEEPS)
def test_a_sweep_config_beyond_the_limits_is_one_line_naming_the_key(key, write_config, tmp_path, capsys):
    cfg = write_config('ruleset = "evolversi"\n' + SWEEPS[key])
    out = tmp_path / "run"
    assert main(["sweep", str(cfg), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"key '{key}'" in err[0], err
    assert not out.exists()


def run_cli(argv, cwd, wrap=()):
    peak = Path(cwd) / ".peak-kib"
    proc = subprocess.run([*wrap, *with_peak([sys.executable, str(FAKE_CLI), *argv], peak)], capture_output=True,
                          text=True, cwd=cwd, timeout=300)
    if peak.exists():                   # (a process killed by the OS writes none)
        assert peak_kib(peak) < ONE_GB_KB
        peak.unlink()
    return proc


def one_line(proc, code: int) -> str:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == code and len(lines) == 1, (proc.returncode, proc.stderr[-3000:])
    return lines[0]


def test_ten_to_the_thirty_games_is_refused_at_once_with_flat_memory(tmp_path):
    assert "must be a whole number" in one_line(run_cli(["run", "evolversi", "--games", HUGE], tmp_path), 2)


WRITERS = [
    ["run", "evolversi", "--games", "40", "--players", "3", "--out", "{out}"],
    ["sweep", "{config}", "--out", "{out}", "--quiet"],
    ["compare", "evolversi", "--games", "40", "--players", "3", "--out", "{out}"],
    ["bench", "evolversi", "--games", "20", "--ref-games", "1", "--json", "{out}"],
]


def fill(argv, out, config):
    return [a.format(out=out, config=config) for a in argv]


@pytest.mark.parametrize("argv", WRITERS, ids=lambda a: a[0])
def test_a_name_too_long_is_one_line_before_any_game(argv, write_config, tmp_path):
    cfg = write_config('ruleset = "evolversi"\nplayers = 3\ngames = 40\nbatch_size = 20\n')
    line = one_line(run_cli(fill(argv, tmp_path / ("n" * 256), cfg), tmp_path), 2)
    assert "256 bytes; the file system allows 255" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["configs"]


@pytest.mark.parametrize("argv", WRITERS, ids=lambda a: a[0])
def test_a_file_on_the_way_is_one_line_before_any_game(argv, write_config, tmp_path):
    cfg = write_config('ruleset = "evolversi"\nplayers = 3\ngames = 40\nbatch_size = 20\n')
    (tmp_path / "afile").write_text("mine")
    line = one_line(run_cli(fill(argv, tmp_path / "afile" / "out", cfg), tmp_path), 2)
    assert "afile is a file, not a folder" in line
    assert (tmp_path / "afile").read_text() == "mine"


def unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0


needs_unshare = pytest.mark.skipif(not unshare_works(), reason="needs `unshare -rm` (a private mount namespace)")


@needs_unshare
@pytest.mark.parametrize("argv", WRITERS, ids=lambda a: a[0])
def test_a_read_only_folder_is_one_line_before_any_game(argv, write_config, tmp_path):
    cfg = write_config('ruleset = "evolversi"\nplayers = 3\ngames = 40\nbatch_size = 20\n')
    ro = tmp_path / "ro"
    ro.mkdir()
    cmd = " ".join(f"'{a}'" for a in [sys.executable, str(FAKE_CLI), *fill(argv, ro / "out", cfg)])
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount --bind -o ro '{ro}' '{ro}' && exec {cmd}"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert "read-only file system" in one_line(proc, 2)


@needs_unshare
def test_a_full_disk_is_one_line_exit_3_with_the_resume_hint(write_config, tmp_path):
    cfg = write_config('ruleset = "evolversi"\nplayers = 3\ngames = 4000\nbatch_size = 20\nseed = 2\n')
    disk = tmp_path / "disk"
    disk.mkdir()
    argv = [sys.executable, str(FAKE_CLI), "sweep", str(cfg), "--out", str(disk / "run"), "--quiet"]
    cmd = " ".join(f"'{a}'" for a in argv)
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=600k tmpfs '{disk}' && exec {cmd}"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    line = one_line(proc, 3)
    assert "No space left on device" in line and "--resume" in line
