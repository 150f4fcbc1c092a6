"""A damaged chunk is never trusted: --resume replays it and the rows end identical to a
clean run; `report` refuses the run with one line naming the chunk."""
from __future__ import annotations

import json

import pytest

from experiments import store
from experiments.cli import main
from experiments.sweep import run_sweep
from tests.experiments.test_store import CONFIG       # two points, three chunks each



def flip_bytes(path):
    data = bytearray(path.read_bytes())
    mid = len(data) // 2
    data[mid:mid + 200] = bytes(b ^ 0xFF for b in data[mid:mid + 200])
    path.write_bytes(bytes(data))


def truncate(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def empty(path):
    path.write_bytes(b"")


def other_point(path):
    """The same game range of the other point copied over: a valid parquet file, wrong rows."""
    point = int(path.parent.name.split("=")[1])
    path.write_bytes((path.parent.parent / f"point={1 - point:04d}" / path.name).read_bytes())


DAMAGES = [flip_bytes, truncate, empty, other_point]


def damaged_run(cfg, tmp_path, damage, point: int, start: int, stop: int):
    """A finished run with one chunk damaged: (its folder, the chunk's path)."""
    out = run_sweep(cfg, tmp_path / "run")
    victim = store.chunk_path(out, point, start, stop)
    damage(victim)
    return out, victim


@pytest.fixture
def clean(fake_engine, write_config, tmp_path):
    cfg = write_config(CONFIG)
    out = run_sweep(cfg, tmp_path / "clean")
    return cfg, store.open_run(out).games(), store.open_run(out).tallies()


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda f: f.__name__)
def test_resume_replays_a_damaged_chunk_and_rows_match_a_clean_run(clean, tmp_path, damage, capsys):
    cfg, games, tallies = clean
    out, _ = damaged_run(cfg, tmp_path, damage, 1, 20, 40)
    run = store.open_run(out)
    assert [(p, a, b) for p, a, b, _, _ in run.damaged()] == [(1, 20, 40)]
    assert run.missing() == [(1, 20, 40)]
    assert run.games().height == games.height - 20            # the damaged chunk is never read
    run_sweep(cfg, out, resume=True)
    assert "replaying chunks/point=0001/games-000000020-000000040.parquet" in capsys.readouterr().err
    again = store.open_run(out)
    assert again.damaged() == [] and again.complete
    assert again.games().equals(games)
    assert again.tallies().equals(tallies)
    assert again.manifest["sessions"][-1]["replayed"] == 1


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda f: f.__name__)
def test_report_refuses_a_damaged_chunk_naming_it(clean, tmp_path, damage, capsys):
    out, victim = damaged_run(clean[0], tmp_path, damage, 0, 40, 60)
    assert main(["report", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(victim) in err[0] and "--resume" in err[0], err
    assert not (out / "report.html").exists()


def test_an_unrecorded_chunk_is_played_again(clean, tmp_path):
    """A kill between a chunk's rename and its record: the file is not trusted, and replayed."""
    cfg, games, _ = clean
    out = run_sweep(cfg, tmp_path / "run")
    ledger = out / store.LEDGER
    lines = ledger.read_text().splitlines()
    dropped = [ln for ln in lines if json.loads(ln)["point"] == 0 and json.loads(ln)["start"] == 0]
    ledger.write_text("\n".join(ln for ln in lines if ln not in dropped) + "\n" + dropped[0][:17])   # torn line
    assert store.open_run(out).missing() == [(0, 0, 20)]
    run_sweep(cfg, out, resume=True)
    assert store.open_run(out).games().equals(games)


def test_the_record_holds_range_rows_and_hash_of_every_chunk(clean, tmp_path):
    cfg, _, _ = clean
    out = run_sweep(cfg, tmp_path / "run")
    ledger = store.read_ledger(out)
    assert sorted(ledger) == [(p, a, a + 20) for p in (0, 1) for a in (0, 20, 40)]
    for (p, a, b), r in ledger.items():
        assert r["rows"] == b - a
        assert r["sha256"] == store.file_sha256(store.chunk_path(out, p, a, b))
    assert store.open_run(out).manifest["format"] == store.FORMAT
