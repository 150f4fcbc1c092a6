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
