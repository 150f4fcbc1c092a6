"""Every game: a state holding a component the rulebook's setup returns to the box at its
player count cannot arise, so both engines' loaders refuse it (a UserError naming the rule;
exit 2 on the command line). Each game declares its removals as data (`setup_removals`)."""
import json
import subprocess
import sys

import pytest

from simcore.errors import UserError
from simcore.games import GAMES, get_game
from simcore.games.checks import Removal

from .kit import default_bots, player_counts

CASES = [(game, players, removal) for game in GAMES for players in player_counts(game)
         for removal in get_game(game).setup_removals(get_game(game).data.load(), players)]
IDS = [f"{g}-{p}-{r.kind}-{r.component}" for g, p, r in CASES]


def _fresh(game: str, players: int):
    g = get_game(game)
    rs = g.data.load()
    bots = default_bots(game, players)
    return g, rs, bots, g.new_state(rs, players, bots, 1, 0)


@pytest.mark.parametrize("game", GAMES)
def test_removals_are_declared_as_data_for_every_player_count(game):
    g = get_game(game)
    rs = g.data.load()
    for players in player_counts(game):
        removals = g.setup_removals(rs, players)
        assert all(isinstance(r, Removal) and r.component and r.rule for r in removals)
    assert g.setup_removals(rs, player_counts(game)[-1]) == []      # the most players: nothing out


def test_the_rulebooks_removals_are_declared():
    declared = {(g, p, r.kind) for g, p, r in CASES}
    assert {("capybara", 2, "colour"), ("capybara", 3, "cancel"), ("evolversi", 2, "animal"),
            ("evolversi", 2, "card"), ("evolversi", 2, "event")} <= declared


@pytest.mark.parametrize("engine", ["batch", "reference"])
@pytest.mark.parametrize("game,players,removal", CASES, ids=IDS)
def test_a_state_holding_a_removed_component_is_refused(game, players, removal, engine):
    g, rs, bots, fresh = _fresh(game, players)
    g.run_state(engine, rs, fresh, bots, 1, 0, "turn")          # the setup state itself loads
    with pytest.raises(UserError) as err:
        g.run_state(engine, rs, g.put_in_play(rs, fresh, removal), bots, 1, 0, "turn")
    assert removal.rule in str(err.value)


FIRST = {}
for _g, _p, _r in CASES:
    FIRST.setdefault(_g, (_p, _r))


@pytest.mark.parametrize("engine", ["batch", "reference"])
@pytest.mark.parametrize("game", sorted(FIRST))
def test_the_scenario_command_exits_2_with_one_line(game, engine, tmp_path):
    players, removal = FIRST[game]
    g, rs, _, fresh = _fresh(game, players)
    path = tmp_path / "removed.json"
    path.write_text(json.dumps({"ruleset": game, "until": "turn", "bots": g.default_bot,
                                "state": g.put_in_play(rs, fresh, removal)}))
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "scenario", str(path), "--engine", engine],
                          capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.strip()
    assert "\n" not in err and "Traceback" not in err and removal.rule in err
