"""`balancelab conformance`: answer one case of an external conformance harness (JSON on stdin,
JSON on stdout)."""
from __future__ import annotations

import sys

from simcore.errors import UserError
from strategies.registry import make_bot

HELP = ("Answer one case of Evolution's cs4500 conformance harnesses: a JSON value on stdin, the "
        "answer as JSON on stdout, on either engine.",
        ["balancelab conformance cs4500 xfeed < case.json",
         "balancelab conformance cs4500 xstep --engine reference < case.json"])


def register(subparsers) -> None:
    p = subparsers.add_parser("conformance", help="external conformance harnesses (JSON on stdin -> JSON on stdout)")
    p.add_argument("suite", help="cs4500")
    p.add_argument("harness", choices=("xattack", "xfeed", "xstep", "xstep4", "xsilly"))
    p.add_argument("--engine", choices=("batch", "reference"), default="batch")
    p.set_defaults(func=cmd_conformance)


def cmd_conformance(args) -> int:
    if args.suite != "cs4500":
        raise UserError(f"unknown conformance suite {args.suite!r}; known: cs4500", key="suite")
    from simcore.games.evolution.conformance import main as harness_main  # start-up: loads Evolution's engines
    return harness_main(args.harness, args.engine, sys.stdin, sys.stdout, make_bot("evolution", "silly"))
