"""Evo's greedy weights as data: weights/default.toml and the compiled face's
script rows agree on names and layout; a script-then-greedy seat keeps greedy's rows first."""
from simcore.games import get_game
from strategies import weights as W
from strategies.evo.batch_greedy import N_WEIGHTS, WEIGHT_NAMES
from strategies.evo.registered import Script, greedy_script
from strategies.evo.script_then import GREEDY_HEAD


def test_default_file_names_the_weights_in_the_compiled_faces_order():
    assert W.schema("evo").names == WEIGHT_NAMES and len(WEIGHT_NAMES) == N_WEIGHTS


def test_greedy_rows_are_mode_ent_then_every_weight_two_a_row():
    w = W.load("evo")
    rows = greedy_script(w, 1, 5)
    assert rows[0] == (1, 5) and len(rows) == GREEDY_HEAD
    flat = [x for r in rows[1:] for x in r]
    assert flat[:N_WEIGHTS] == list(w.values)


def test_a_script_then_greedy_seat_puts_its_choices_after_greedys_rows():
    rs = get_game("evo").data.load()
    choice = {"kind": "bid", "option": 2}
    rows = Script(choices=[choice], then="greedy").batch(rs).script
    assert rows[:GREEDY_HEAD] == greedy_script(W.load("evo")) and len(rows) == GREEDY_HEAD + 1
    assert Script(choices=[choice], then="random").batch(rs).script == rows[GREEDY_HEAD:]
