"""The --out folder: never overwritten without --resume, and a resume only finishes the same config."""
from __future__ import annotations

import json

from .kit import BASE, ONE_VAR, SMALL, run, write

CONFIG = BASE + ONE_VAR + "\n[targets]\nrounds = [8, 15]\n" + SMALL


def test_a_non_empty_out_folder_is_refused_without_resume(tmp_path, capsys):
    cfg = write(tmp_path, CONFIG)
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("keep")
    code, _, err = run([cfg, "--out", out, "--quiet"], capsys)
    assert code == 2 and "not empty" in err and sorted(p.name for p in out.iterdir()) == ["mine.txt"]


def test_resume_refuses_a_folder_of_another_config(tmp_path, capsys):
    cfg = write(tmp_path, CONFIG)
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps({"kind": "balancelab tune", "config_digest": "0" * 16}))
    code, _, err = run([cfg, "--out", out, "--quiet", "--resume"], capsys)
    assert code == 2 and "different config" in err
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json"]


def test_resume_replays_a_damaged_chunk_and_proposes_the_same(tmp_path, capsys):
    cfg = write(tmp_path, CONFIG)
    whole = tmp_path / "whole"
    code, _, _ = run([cfg, "--out", whole, "--quiet"], capsys)
    assert code == 0
    chunk = sorted((whole / "evals").rglob("games-*.parquet"))[0]
    chunk.write_bytes(chunk.read_bytes()[:-10])                   # torn by a crash, or edited by hand
    code, _, err = run([cfg, "--out", whole, "--quiet", "--resume"], capsys)
    assert code == 0 and f"note: replaying {chunk}: its bytes do not match the recorded sha256" in err
    again = tmp_path / "again"
    assert run([cfg, "--out", again, "--quiet"], capsys)[0] == 0
    first, second = (json.loads((d / "tune.json").read_text()) for d in (whole, again))
    assert first["proposal"] == second["proposal"] and first["proof"] == second["proof"]


def test_a_second_tune_writer_on_the_same_folder_is_refused_by_name(tmp_path, capsys):
    import os
    import socket
    cfg = write(tmp_path, CONFIG)
    out = tmp_path / "out"
    assert run([cfg, "--out", out, "--quiet"], capsys)[0] == 0
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    holder = os.getppid()                                          # a live process on this host
    (out / "writer.lock").write_text(json.dumps({"pid": holder, "host": socket.gethostname()}))
    code, _, err = run([cfg, "--out", out, "--quiet", "--resume"], capsys)
    assert code == 2 and f"another balancelab run (process {holder} on" in err
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.name != "writer.lock"} == before
