"""`sweep --until-decided`: each knockout/removal played in chunks until its sequential check decides."""
from __future__ import annotations

import polars as pl

from experiments import cli, store
from reports.measures.metrics import ablation_effects

CONFIG = """
name = "until-decided"
ruleset = "evolversi"
players = 4
bots = "greedy"
games = 4000
seed = 1
batch_size = 2000
[[grid]]
param = "fourth_card_space"
values = [3, 6]
[ablation]
kind = "removal"
entities = ["Vampirismo", "Mutazione"]
set = { copies = 0 }
"""


def test_each_removal_stops_when_decided_and_the_run_folder_is_complete(write_config, tmp_path, capsys):
    out = tmp_path / "run"
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet", "--until-decided"]) == 0
    assert "paired checks: " in capsys.readouterr().out           # the sweep counts the decisions
    assert cli.main(["report", str(out)]) == 0                    # the report lists each one
    printed = capsys.readouterr().out
    run = store.open_run(out)
    seq = run.manifest["until_decided"]
    removals = [r for r in seq["rows"] if r["entity"] is not None]
    grid_checks = [r for r in seq["rows"] if r["entity"] is None]
    assert len(removals) == 4 and not run.missing() and run.manifest["status"] == "complete"
    assert {r["measure"] for r in grid_checks} >= {f"seat {s}" for s in range(4)}     # point 1 against point 0
    assert all((r["point"], r["base"]) == (1, 0) for r in grid_checks)
    games = run.games()
    counts = dict(games.group_by("point").len().iter_rows())
    effects = {r["point"]: r for r in ablation_effects(games, run.points).iter_rows(named=True)}
    for r in removals:
        played = counts[r["point"]]
        assert played == r["games"] <= 4000 and counts[r["base"]] >= played
        if r["decided_after"] is not None:
            assert r["decided_after"] == played and f"{r['entity']}: {r['decision']} after {played:,}" in printed
            assert effects[r["point"]]["games"] == played          # the report pairs the games played
            assert abs(effects[r["point"]]["effect"] - r["effect"]) < 1e-9
        else:
            assert played == 4000
    assert seq["games_played"] == games.height < seq["games_fixed"] == 6 * 4000
    assert games.filter(pl.col("point") == 0)["game"].to_list() == list(range(counts[0]))


def test_a_shared_budget_caps_the_games_played(write_config, tmp_path):
    out = tmp_path / "run"
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet", "--until-decided",
                     "--budget", "1000"]) == 0
    run = store.open_run(out)
    assert run.manifest["until_decided"]["games_played"] == run.games().height <= 1000


def test_until_decided_without_a_paired_check_is_one_clear_line(write_config, tmp_path, capsys):
    plain = CONFIG.split("[[grid]]")[0]
    assert cli.main(["sweep", str(write_config(plain)), "--out", str(tmp_path / "r"), "--until-decided"]) == 2
    assert "no [ablation], no [restricted] and no grid point" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_the_report_says_after_how_many_games_each_check_was_decided(write_config, tmp_path):
    out = tmp_path / "run"
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet", "--until-decided"]) == 0
    assert cli.main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="until-decided"' in html
    for r in store.open_run(out).manifest["until_decided"]["rows"]:
        if r["decided_after"] is not None:
            assert f"<td>{r['decided_after']:,}</td>" in html


RESTRICTED = """
name = "restricted-until-decided"
ruleset = "evolversi"
players = 4
games = 3000
seed = 3
batch_size = 1000
[restricted]
bot = "greedy"
entities = ["Vampirismo", "Mutazione"]
seats = [0]
"""


def test_restricted_play_checks_stop_when_decided_paired_with_the_plain_line_up(write_config, tmp_path, capsys):
    out = tmp_path / "run"
    assert cli.main(["sweep", str(write_config(RESTRICTED)), "--out", str(out), "--quiet", "--until-decided"]) == 0
    assert cli.main(["report", str(out)]) == 0
    printed = capsys.readouterr().out
    run = store.open_run(out)
    rows = run.manifest["until_decided"]["rows"]
    assert sorted(r["measure"] for r in rows) == sorted(f"seat 0 {m} {e}" for m in ("favor", "avoid")
                                                        for e in ("Vampirismo", "Mutazione"))
    games = run.games()
    counts = dict(games.group_by("point").len().iter_rows())
    assert counts[0] == max(counts.values())             # the plain line-up: as long as any check is open
    for r in rows:
        assert r["base"] == 0 and counts[r["point"]] == r["games"] <= 3000
        if r["decided_after"] is None:
            assert r["games"] == 3000
            continue
        assert f"{r['check']}: {r['decision']} after {r['decided_after']:,}" in printed
        mine = games.filter(pl.col("point") == r["point"]).sort("game")["s0_share"].cast(pl.Float64)
        plain = games.filter((pl.col("point") == 0) & (pl.col("game") < r["games"])).sort("game")["s0_share"]
        assert abs((mine - plain.cast(pl.Float64)).mean() - r["effect"]) < 1e-9   # the effect is the paired mean


def _killed_copy(run_dir, to):
    """A copy of a finished run folder as a kill would leave it: the last look's chunks missing,
    one earlier chunk's bytes damaged, the manifest still running with no decisions."""
    import json
    import shutil
    shutil.copytree(run_dir, to)
    ledger = [json.loads(line) for line in (to / store.LEDGER).read_text().splitlines()]
    last = max(r["stop"] for r in ledger)
    for r in ledger:
        if r["stop"] == last:
            store.chunk_path(to, r["point"], r["start"], r["stop"]).unlink()
    kept = [r for r in ledger if r["stop"] != last]
    (to / store.LEDGER).write_text("".join(json.dumps(r) + "\n" for r in kept))
    damaged = store.chunk_path(to, kept[-1]["point"], kept[-1]["start"], kept[-1]["stop"])
    damaged.write_bytes(damaged.read_bytes()[:-10])
    manifest = json.loads((to / store.MANIFEST).read_text())
    manifest.pop("until_decided")
    manifest["status"] = "running"
    (to / store.MANIFEST).write_text(json.dumps(manifest))
    return last


def test_a_killed_until_decided_run_resumes_to_the_same_decisions_and_games(write_config, tmp_path):
    cfg = write_config(CONFIG)
    whole = tmp_path / "whole"
    assert cli.main(["sweep", str(cfg), "--out", str(whole), "--quiet", "--until-decided"]) == 0
    killed = tmp_path / "killed"
    last = _killed_copy(whole, killed)
    assert last > 500                           # the kill came after the first look
    first = [store.chunk_path(killed, p, 0, 500) for p in (0, 1)]     # recorded, undamaged
    stamps = [f.stat().st_mtime_ns for f in first]
    assert cli.main(["sweep", str(cfg), "--out", str(killed), "--quiet", "--until-decided", "--resume"]) == 0
    a, b = store.open_run(whole), store.open_run(killed)
    assert b.manifest["status"] == "complete" and not b.missing() and not b.damaged()
    assert b.manifest["until_decided"]["rows"] == a.manifest["until_decided"]["rows"]
    assert b.games().sort(["point", "game"]).equals(a.games().sort(["point", "game"]))
    assert [f.stat().st_mtime_ns for f in first] == stamps     # recorded chunks are read back, not replayed
    replayed = b.manifest["sessions"][-1]["played_now"]
    assert 0 < replayed < b.manifest["until_decided"]["games_played"]    # only the lost look is played again


def test_a_finished_until_decided_run_pasted_again_plays_nothing_and_says_so(write_config, tmp_path, capsys):
    cfg, out = write_config(CONFIG), tmp_path / "run"
    assert cli.main(["sweep", str(cfg), "--out", str(out), "--quiet", "--until-decided", "--resume"]) == 0
    assert "games played now" in capsys.readouterr().out
    assert cli.main(["sweep", str(cfg), "--out", str(out), "--quiet", "--until-decided", "--resume"]) == 0
    assert "nothing played, each look read back" in capsys.readouterr().out
    assert store.open_run(out).manifest["sessions"][-1]["played_now"] == 0


def test_a_fixed_count_folder_is_not_resumed_until_decided(write_config, tmp_path, capsys):
    cfg = write_config(CONFIG.replace("games = 4000", "games = 600").replace("batch_size = 2000", "batch_size = 600"))
    out = tmp_path / "run"
    assert cli.main(["sweep", str(cfg), "--out", str(out), "--quiet"]) == 0
    before = sorted(p.name for p in out.rglob("*"))
    assert cli.main(["sweep", str(cfg), "--out", str(out), "--quiet", "--until-decided", "--resume"]) == 2
    assert "cannot resume: the folder holds a run of `sweep`, not `sweep --until-decided`" in capsys.readouterr().err
    assert sorted(p.name for p in out.rglob("*")) == before
