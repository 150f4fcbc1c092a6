"""`balancelab bench`: the reference engine is warmed up like the batch engine before it is
timed (a process's first reference games pay one-off costs that would flatter the ratio)."""
from __future__ import annotations

from experiments.commands import bench
from experiments.cli import main
from simcore.games import get_game


def test_bench_times_the_reference_engine_only_after_untimed_warm_up_games(capsys, monkeypatch):
    game = get_game("evolversi")
    calls = []
    play_one = type(game).play_one

    def spy(self, rs, players, bots, seed, index, *a, **k):
        calls.append((seed, index))
        return play_one(self, rs, players, bots, seed, index, *a, **k)

    monkeypatch.setattr(type(game), "play_one", spy)
    monkeypatch.setattr(bench, "REF_WARMUP_GAMES", 3)
    assert main(["bench", "evolversi", "--games", "200", "--batch-size", "100", "--ref-games", "4",
                 "--seed", "7"]) == 0
    # the warm-up games come first, on another seed; then the timed games 0..3 of the seed
    assert calls == [(8, 0), (8, 1), (8, 2), (7, 0), (7, 1), (7, 2), (7, 3)]
    out = capsys.readouterr().out
    assert "reference engine" in out and "(4 games)" in out and "ratio" in out
