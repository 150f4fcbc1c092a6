"""The run folder: atomic chunk files, temp files never read, resume safety checks."""
from __future__ import annotations

import polars as pl
import pytest

from experiments import store
from experiments.sweep import run_sweep
from simcore.errors import UserError

CONFIG = """
ruleset = "evolversi"
players = 3
games = 60
seed = 5
batch_size = 20
[[grid]]
param = "fourth_card_space"
values = [3, 5]
"""


def test_chunk_round_trip_keeps_rows_and_tallies(tmp_path):
    games = pl.DataFrame({"game": [0, 1], "s0_faction": pl.Series(["Panda", "Orca"], dtype=pl.Categorical)})
    tallies = pl.DataFrame({"entity_kind": ["card"], "entity": ["Ali"], "entity_id": [3], "seat": [1],
                            "games": [2], "count": [3], "wins": [0.5]}, schema=store.TALLY_SCHEMA)
    path = store.chunk_path(tmp_path, 2, 0, 2)
    store.write_chunk(path, games, tallies)
    assert path.name == "games-000000000-000000002.parquet" and path.parent.name == "point=0002"
    assert pl.read_parquet(path).equals(games)
    assert store.read_chunk_tallies(path).equals(tallies)
    assert list(store.finished_chunks(tmp_path, 2)) == [(0, 2)]
    assert not list(path.parent.glob("*.tmp-*"))


def test_failed_write_leaves_no_file(tmp_path):
    path = store.chunk_path(tmp_path, 0, 0, 10)

    def explode(tmp):
        open(tmp, "wb").write(b"half a parq")
        raise RuntimeError("killed")
    with pytest.raises(RuntimeError):
        store._atomic_write(path, explode)
    assert not path.exists() and not list(path.parent.iterdir())


def test_resume_ignores_and_removes_partial_files(fake_engine, write_config, tmp_path):
    cfg = write_config(CONFIG)
    out = tmp_path / "run"
    run_sweep(cfg, out)
    full = store.open_run(out).games()
    victim = store.chunk_path(out, 1, 20, 40)
    victim.unlink()
    (victim.parent / (victim.name + ".tmp-abc")).write_bytes(b"PAR1 garbage")   # a half-written chunk
    run = store.open_run(out)
    assert run.missing() == [(1, 20, 40)]
    assert run.games().height == full.height - 20                  # the temp file is never read
    run_sweep(cfg, out, resume=True)
    assert not list(out.rglob("*.tmp-*"))
    assert store.open_run(out).games().equals(full)
    assert store.open_run(out).manifest["status"] == "complete"
    assert len(store.open_run(out).manifest["sessions"]) == 2


def test_resume_refuses_a_different_config(fake_engine, write_config, tmp_path):
    out = tmp_path / "run"
    run_sweep(write_config(CONFIG), out)
    other = write_config(CONFIG.replace("seed = 5", "seed = 6"), "other.toml")
    with pytest.raises(UserError, match="different config"):
        run_sweep(other, out, resume=True)
    with pytest.raises(UserError, match="not empty"):
        run_sweep(write_config(CONFIG), out)


def test_manifest_records_what_was_run(fake_engine, write_config, tmp_path):
    out = tmp_path / "run"
    run_sweep(write_config(CONFIG), out)
    m = store.open_run(out).manifest
    assert m["config"]["grid"][0]["values"] == [3, 5]
    assert len(m["points"]) == 2 and len(m["rulesets"]) == 2
    assert set(m["versions"]) >= {"python", "numpy", "polars", "joblib", "dask"}
    assert "revision" in m["git"]
    assert all((out / "rulesets" / f"{h}.json").exists() for h in m["rulesets"])
    assert "track_length" in next(iter(m["rulesets"].values()))["defaults_used"]
    assert (out / "config.toml").read_text() == write_config(CONFIG).read_text()
