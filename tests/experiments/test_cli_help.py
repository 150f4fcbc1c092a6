"""Every command's --help says what it does and shows examples that parse as written."""
from __future__ import annotations

import argparse
import shlex

import pytest

from experiments.cli import build_parser


def subcommands() -> dict[str, argparse.ArgumentParser]:
    ap = build_parser()
    action = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


COMMANDS = subcommands()


def examples(parser: argparse.ArgumentParser) -> list[str]:
    text = parser.format_help()
    assert "examples:" in text
    return [line.strip() for line in text.split("examples:", 1)[1].splitlines() if line.strip()]


def test_the_walk_finds_every_command():
    assert {"run", "sweep", "report", "map", "warmup", "conformance", "compare", "tune"} <= set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_has_a_description_and_examples(name):
    parser = COMMANDS[name]
    text = parser.format_help()
    assert (parser.description or "").strip(), f"`balancelab {name} --help` has no description"
    assert examples(parser), f"`balancelab {name} --help` has no example"
    assert "%%" not in text and "?;" not in text and ";;" not in text


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_example_parses_as_written(name):
    for example in examples(COMMANDS[name]):
        words = shlex.split(example.split(" < ")[0])
        assert words[:2] == ["balancelab", name], example
        args = build_parser().parse_args(words[1:])      # argparse exits on an example it cannot read
        assert args.command == name
