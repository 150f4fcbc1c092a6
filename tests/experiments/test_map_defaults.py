"""`balancelab map GAME` needs no options: four players (or the nearest count the game plays), a file here."""
from __future__ import annotations

from experiments.cli import main


def test_map_without_options_draws_the_four_player_board_into_the_current_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["map", "evo"]) == 0
    out = tmp_path / "evo-board-4p.png"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "evo-board-4p.png" in capsys.readouterr().out


def test_map_players_out_of_range_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["map", "evo", "--players", "9"]) == 2
    assert "plays with" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
