"""`balancelab validate`: check a designer's data folder and report every problem."""
from __future__ import annotations


HELP = ("Check a designer's data folder (params.toml, card tables, variants) against the ruleset's "
        "schema and print every problem with its file, row and column; exit code 2 if there is one.",
        ["balancelab validate my-cards/ --ruleset evolversi"])


def register(subparsers) -> None:
    p = subparsers.add_parser("validate", help="check a designer's data folder and report every problem")
    p.add_argument("dir")
    p.add_argument("--ruleset", default=None, help="which ruleset the folder is for (default: params.toml [game] name)")
    p.set_defaults(func=cmd_validate)


def cmd_validate(args) -> int:
    """Check a designer's data folder: every problem of every file (experiments.validate)."""
    # start-up: the command's library loads when the command runs, not for every --help
    from ..validate import validate_folder
    return validate_folder(args.dir, args.ruleset)
