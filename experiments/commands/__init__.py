"""The `balancelab` subcommands, one module each.

A command module holds `register(subparsers)` (its arguments; the handler is set as `func`),
`HELP` (a description for a parser that has none, and examples that run as written) and its
handler, which reads the arguments, calls the library (experiments, reports) and prints.
experiments.cli builds the parser from COMMANDS, in this order.
"""
from __future__ import annotations

from . import (bench, compare, conformance, kingmaking, ladder, luck, map, plan, replay, report, rulesets, run,
               scenario, setup, skill, sweep, train, tune, validate, warmup)

COMMANDS = (rulesets, run, compare, replay, bench, warmup, validate, setup, scenario, conformance, tune, map,
            sweep, report, ladder, skill, luck, kingmaking, train, plan)
