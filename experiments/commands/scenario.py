"""`balancelab scenario`: run a scenario file (a game state and scripted choices) on one engine
and check its expected result (exit code 1 when an expectation fails)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from simcore.errors import UserError


HELP = ("Load a game state from a scenario file, play it forward with the scripted choices on one "
        "engine and check the expected result (docs/scenarios.md).",
        ["balancelab scenario tests/scenarios/evo/meteorite_tie_on_mp_and_dinosaurs_is_a_shared_win.json",
         "balancelab scenario tests/scenarios/evo/meteorite_tie_on_mp_and_dinosaurs_is_a_shared_win.json "
         "--engine reference"])


def register(subparsers) -> None:
    p = subparsers.add_parser("scenario", help="run a scenario file (a game state, scripted choices) and print the result")
    p.add_argument("file")
    p.add_argument("--engine", choices=("batch", "reference"), default="batch")
    p.set_defaults(func=cmd_scenario)


def cmd_scenario(args) -> int:
    # start-up: the command's library loads when the command runs, not for every --help
    from ..scenario import run_scenario
    path = Path(args.file)
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        raise UserError("no such file", file=str(path)) from None
    except json.JSONDecodeError as e:
        raise UserError(f"is not valid JSON: {e}", file=str(path)) from None
    result, mismatches = run_scenario(doc, args.engine, str(path))

    def plain(o):
        if isinstance(o, np.generic):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
        return str(o)
    print(json.dumps(result, indent=2, default=plain))
    for m in mismatches:
        print(f"expectation failed: {m}", file=sys.stderr)
    return 1 if mismatches else 0
