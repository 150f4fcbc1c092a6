"""Every case of the external cs4500 suite, through the harness, on both engines.

The cases are discovered from the course's suite folder beside the repository (SUITE below);
none is listed here. Answers are compared as parsed JSON.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from simcore.errors import UserError
from simcore.games.evolution.conformance import HARNESSES, main as harness_main
from strategies.registry import make_bot

SILLY = make_bot("evolution", "silly")


def main(harness, engine, stdin, stdout):
    return harness_main(harness, engine, stdin, stdout, SILLY)

SUITE = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "evolution-cs4500"

# Cases we believe contradict the course's rules: {(harness, case): reason}. Empty: none.
CONTRADICTING: dict = {}


def _cases():
    found = []
    for harness_dir in sorted(p for p in SUITE.glob("*/") if p.is_dir()):
        for inp in sorted(harness_dir.glob("*-in.json")):
            out = inp.with_name(inp.name[: -len("-in.json")] + "-out.json")
            found.append((harness_dir.name, inp, out))
    return found


CASES = _cases()


def test_suite_is_present():
    assert SUITE.is_dir(), f"conformance suite not found at {SUITE}"
    assert {h for h, _, _ in CASES} == set(HARNESSES)


@pytest.mark.parametrize("engine", ["reference", "batch"])
@pytest.mark.parametrize("harness,inp,out", CASES,
                         ids=[f"{h}/{i.name[:-8]}" for h, i, _ in CASES])
def test_case(engine, harness, inp, out, request):
    case = inp.name[: -len("-in.json")]
    if (harness, case) in CONTRADICTING:
        request.applymarker(pytest.mark.xfail(reason=CONTRADICTING[(harness, case)], strict=True))
    stdout = io.StringIO()
    assert main(harness, engine, io.StringIO(inp.read_text()), stdout) == 0
    assert json.loads(stdout.getvalue()) == json.loads(out.read_text())


@pytest.mark.parametrize("harness,text,needle", [
    ("xattack", "[1, 2", "not valid JSON"),
    ("xattack", "[1, 2, 3, 4]", "expected a Species"),
    ("xfeed", '[[["id",1],["species",[]],["bag",0]], 0, []]', "WateringHole"),
    ("xstep", '[[[["id",1],["species",[[["food",0],["body",9],["population",1],["traits",[]]]]],'
              '["bag",0]]], 0, []]', "body"),
    ("xsilly", '[[["id",1],["species",[]],["bag",0],["cards",[[9,"horns"]]]],[],[]]', "FoodValue"),
    ("xstep", '[[[["id",1],["species",[[["food",0],["body",1],["population",1],'
              '["traits",["wings"]]]]],["bag",0]]], 0, []]', "Trait"),
])
@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_bad_input_is_a_user_error(engine, harness, text, needle):
    with pytest.raises(UserError, match=needle):
        main(harness, engine, io.StringIO(text), io.StringIO())


def test_grow_actions_accept_both_encodings():
    step4 = json.loads((SUITE / "xstep4" / "0067-2657-3-in.json").read_text())
    tagged = json.loads(json.dumps(step4))
    for a4 in tagged[1]:
        a4[1] = [["population"] + gp for gp in a4[1]]
        a4[2] = [["body"] + gb for gb in a4[2]]
    answers = []
    for value in (step4, tagged):
        out = io.StringIO()
        main("xstep4", "reference", io.StringIO(json.dumps(value)), out)
        answers.append(json.loads(out.getvalue()))
    assert answers[0] == answers[1]


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_feeding_stops_when_watering_hole_empty_so_a_step_there_changes_nothing(engine):
    """cs4500 ends feeding once the Watering Hole is empty: one xstep there leaves the
    configuration as it was, although the first player's carnivore could attack."""
    carnivore = [["food", 0], ["body", 3], ["population", 2], ["traits", ["carnivore"]]]
    prey = [["food", 0], ["body", 1], ["population", 2], ["traits", []]]
    config = [[[["id", 1], ["species", [carnivore]], ["bag", 0]],
               [["id", 2], ["species", [prey]], ["bag", 0]],
               [["id", 3], ["species", [prey]], ["bag", 0]]], 0, []]
    out = io.StringIO()
    assert main("xstep", engine, io.StringIO(json.dumps(config)), out) == 0
    assert json.loads(out.getvalue()) == config
    fed = json.loads(json.dumps(config))
    fed[1] = 1                                      # with food left, the same step attacks
    out = io.StringIO()
    main("xstep", engine, io.StringIO(json.dumps(fed)), out)
    after = json.loads(out.getvalue())
    assert after[0][1][1][1][0][2] == ["population", 1] or after[0][2][1][1][0][2] == ["population", 1]
