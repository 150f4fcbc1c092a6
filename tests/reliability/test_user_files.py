"""The user's files are never deleted or overwritten: a user file in each writer's output
place survives, and `report` refuses to overwrite a file it did not write."""
from __future__ import annotations

import pytest

from experiments.cli import main
from experiments.sweep import run_sweep

CONFIG = 'ruleset = "evolversi"\nplayers = 3\ngames = 40\nbatch_size = 20\n'
SMALL = ["--players", "3", "--games", "40"]


@pytest.fixture
def run_folder(fake_engine, write_config, tmp_path):
    return run_sweep(write_config(CONFIG), tmp_path / "run")


def test_report_refuses_to_overwrite_a_file_it_did_not_write(run_folder, tmp_path, capsys):
    mine = tmp_path / "mine.html"
    mine.write_text("<p>my notes</p>")
    assert main(["report", str(run_folder), "--out", str(mine)]) == 2
    assert "not a balance report balancelab wrote" in capsys.readouterr().err
    assert mine.read_text() == "<p>my notes</p>"


def test_report_refuses_a_next_steps_file_and_user_configs_in_next_steps(run_folder, tmp_path, capsys):
    out = tmp_path / "d"
    out.mkdir()
    (out / "next-steps").write_text("a file")
    assert main(["report", str(run_folder), "--out", str(out / "r.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "next-steps" in err[0], err
    (out / "next-steps").unlink()
    (out / "next-steps").mkdir()
    (out / "next-steps" / "mine.toml").write_text('ruleset = "evolversi"\n')
    assert main(["report", str(run_folder), "--out", str(out / "r.html")]) == 2
    assert "mine.toml" in capsys.readouterr().err
    assert (out / "next-steps" / "mine.toml").read_text() == 'ruleset = "evolversi"\n'
    assert not (out / "r.html").exists()


def test_report_replaces_its_own_report(run_folder, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", str(run_folder), "--out", str(out)]) == 0
    assert main(["report", str(run_folder), "--out", str(out)]) == 0
    assert "Balance report:" in out.read_text()


@pytest.mark.parametrize("argv", [
    ["compare", "evolversi", "--data", "{data}", *SMALL],
    ["ladder", "evolversi", "--bots", "random,greedy", "--players", "3", "--games", "60"],
    ["luck", "evolversi", *SMALL, "--bootstrap", "20", "--quiet"],
], ids=lambda a: a[0])
def test_a_user_file_in_an_output_folder_survives_overwrite(fake_engine, tmp_path, argv, capsys):
    data = tmp_path / "data"
    data.mkdir()
    (data / "params.toml").write_text("[params]\n")               # an overlay changing nothing
    out = tmp_path / "out"
    argv = [a.format(data=data) for a in argv] + ["--out", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    (out / "my_analysis.txt").write_text("mine")
    assert main(argv) == 2                                       # a non-empty folder needs --overwrite
    assert main(argv + ["--overwrite"]) == 0, capsys.readouterr().err
    assert (out / "my_analysis.txt").read_text() == "mine"


def test_compare_refuses_a_file_as_its_out_folder_before_playing(fake_engine, tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    (data / "params.toml").write_text("[params]\n")
    mine = tmp_path / "notes.txt"
    mine.write_text("mine")
    argv = ["compare", "evolversi", "--data", str(data), *SMALL, "--out", str(mine), "--overwrite"]
    assert main(argv) == 2
    err = capsys.readouterr()
    assert err.out == "" and "is a file" in err.err and mine.read_text() == "mine"


@pytest.mark.parametrize("argv,name", [
    (["map", "evo"], "board.png"),
    (["train", "evolversi", "--budget", "200", "--quiet"], "weights.toml"),
], ids=lambda a: a[0] if isinstance(a, list) else "")
def test_a_single_file_writer_replaces_only_its_own_file_and_only_with_overwrite(tmp_path, argv, name, capsys):
    """`map --out` and `train --out`: a user's file there is refused (even with --overwrite) and
    left as it was; the command's own earlier file needs --overwrite."""
    out = tmp_path / name
    out.write_bytes(b"\x89PNG\r\n\x1a\nmine" if name.endswith(".png") else b"[weights]\nmine = 1\n")
    before = out.read_bytes()
    for extra in ([], ["--overwrite"]):
        assert main(argv + ["--out", str(out), *extra]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(out) in err[0] and "balancelab wrote" in err[0], err
        assert out.read_bytes() == before
    out.unlink()
    assert main(argv + ["--out", str(out)]) == 0, capsys.readouterr().err
    ours = out.read_bytes()
    assert main(argv + ["--out", str(out)]) == 2 and "pass --overwrite" in capsys.readouterr().err
    assert out.read_bytes() == ours
    assert main(argv + ["--out", str(out), "--overwrite"]) == 0, capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]       # no scratch file left
