"""One writer per run folder; SIGTERM cleans up as Ctrl-C; scratch names fit any folder name;
--overwrite never deletes a file balancelab did not write."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from experiments import store
from experiments.cli import main
from experiments.sweep import run_sweep
from tests.reliability.kit import ONE_POINT

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ONE_POINT


def dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(proc.stdout)


def test_a_second_writer_is_refused_with_one_line(fake_engine, write_config, tmp_path, capsys):
    out = run_sweep(write_config(CONFIG), tmp_path / "run")
    store.chunk_path(out, 0, 20, 40).unlink()
    (out / store.LOCK).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
    assert main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--resume", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"process {os.getpid()}" in err[0] and "is writing this folder" in err[0], err
    assert not store.chunk_path(out, 0, 20, 40).exists()


def test_a_lock_from_another_host_names_the_file_to_delete(fake_engine, write_config, tmp_path):
    out = run_sweep(write_config(CONFIG), tmp_path / "run")
    (out / store.LOCK).write_text(json.dumps({"pid": 1, "host": "elsewhere.example"}))
    with pytest.raises(store.UserError, match=r"elsewhere\.example.*delete .*writer\.lock"):
        run_sweep(write_config(CONFIG), out, resume=True)


def test_a_stale_lock_is_taken_over_with_a_note(fake_engine, write_config, tmp_path, capsys):
    out = run_sweep(write_config(CONFIG), tmp_path / "run")
    store.chunk_path(out, 0, 20, 40).unlink()
    pid = dead_pid()
    (out / store.LOCK).write_text(json.dumps({"pid": pid, "host": socket.gethostname()}))
    run_sweep(write_config(CONFIG), out, resume=True)
    assert f"taking over the lock of process {pid}" in capsys.readouterr().err
    assert store.open_run(out).complete and not (out / store.LOCK).exists()


FAKE_CLI = Path(__file__).with_name("fake_cli.py")


def start_slow(args, tmp_path):
    """The command line in a subprocess, the stand-in engine taking 0.4 s per chunk."""
    env = dict(os.environ, BALANCELAB_TEST_CHUNK_SLEEP="0.4")
    return subprocess.Popen([sys.executable, str(FAKE_CLI), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path, env=env)


def wait_for(predicate, seconds=120):
    t0 = time.monotonic()
    while not predicate():
        if time.monotonic() - t0 > seconds:
            raise AssertionError("timed out")
        time.sleep(0.05)


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_keeps_finished_chunks_frees_the_folder_and_says_so_once(fake_engine, write_config, tmp_path,
                                                                         sig, code):
    cfg = write_config(CONFIG.replace("games = 60", "games = 400"))
    out = tmp_path / "run"
    proc = start_slow(["sweep", str(cfg), "--out", str(out), "--quiet"], tmp_path)
    wait_for(lambda: len(store.read_ledger(out)) >= 2)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "interrupted" in lines[0] and "--resume" in lines[0], lines
    assert not (out / store.LOCK).exists() and not list(out.rglob("*.tmp-*"))
    run_sweep(cfg, out, resume=True)
    clean = run_sweep(cfg, tmp_path / "clean")
    assert store.open_run(out).games().equals(store.open_run(clean).games())


def test_sigterm_removes_the_scratch_folder_of_run(tmp_path):
    proc = start_slow(["run", "evolversi", "--games", "400", "--batch-size", "20", "--players", "3",
                       "--out", str(tmp_path / "r")], tmp_path)
    wait_for(lambda: any(tmp_path.glob(".r.partial-*/chunks.jsonl")))
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1] == "balancelab: interrupted"
    assert not list(tmp_path.glob(".r.*")) and not (tmp_path / "r").exists()


def test_run_out_accepts_the_longest_legal_folder_name(fake_engine, tmp_path, capsys):
    out = tmp_path / ("x" * 255)
    args = ["run", "evolversi", "--games", "40", "--batch-size", "20", "--players", "3", "--out", str(out)]
    assert main(args) == 0, capsys.readouterr().err
    assert store.open_run(out).complete
    assert main(args + ["--overwrite"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == [out.name]          # no scratch left beside it


def test_overwrite_refuses_a_folder_holding_user_files_and_lists_them(fake_engine, tmp_path, capsys):
    out = tmp_path / "r"
    args = ["run", "evolversi", "--games", "40", "--batch-size", "20", "--players", "3", "--out", str(out)]
    assert main(args) == 0
    (out / "my_analysis.txt").write_text("mine")
    (out / "mydata").mkdir()
    (out / "mydata" / "x.csv").write_text("a,b\n")
    (out / "chunks" / "notes.md").write_text("mine too")
    capsys.readouterr()
    assert main(args + ["--overwrite"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and all(name in err[0] for name in ("my_analysis.txt", "mydata/x.csv", "chunks/notes.md"))
    assert (out / "my_analysis.txt").read_text() == "mine" and (out / "mydata" / "x.csv").exists()
    for extra in ("my_analysis.txt", "mydata/x.csv", "chunks/notes.md"):
        (out / extra).unlink()
    (out / "mydata").rmdir()
    assert main(args + ["--overwrite"]) == 0                      # only balancelab's files: replaced
