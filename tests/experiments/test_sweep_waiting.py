"""What a sweep says while and after it plays: progress without a terminal, a resume that
played nothing, and the next command."""
from __future__ import annotations

import time

from experiments import cli, sweep

CONFIG = """
name = "waiting"
ruleset = "evolversi"
players = 3
games = 40
seed = 2
batch_size = 20
"""


def test_a_resumed_sweep_that_played_nothing_says_so_and_names_the_next_steps(fake_engine, write_config, tmp_path,
                                                                               capsys):
    out = tmp_path / "run"
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet"]) == 0
    first = capsys.readouterr().out.splitlines()
    assert any(line.startswith(f"wrote {out}/") and "40 played now" in line for line in first), first
    assert first[-1] == (f"page: {out}/report.html  (the tables in the terminal, and follow-up configs in "
                         f"{out}/next-steps/: balancelab report {out})")
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet", "--resume"]) == 0
    again = capsys.readouterr().out.splitlines()
    assert any("nothing played" in line for line in again) and not any("played now" in line for line in again)


def test_without_a_terminal_a_progress_line_comes_every_period(monkeypatch, capsys):
    monkeypatch.setattr(sweep, "PLAIN_EVERY", 0.05)
    with sweep._PlainProgress("quick", 90_000, 0, on=True) as plain:
        plain.update(30_000)
        time.sleep(0.3)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 2
    assert lines[-1].startswith("quick: 30,000 of 90,000 games (33%), ")


def test_with_a_bar_there_is_no_plain_line(monkeypatch, capsys):
    monkeypatch.setattr(sweep, "PLAIN_EVERY", 0.05)
    with sweep._PlainProgress("quick", 10, 0, on=False):
        time.sleep(0.2)
    assert capsys.readouterr().err == ""
