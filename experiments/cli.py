"""The `balancelab` command line: the roof that wires the layers together.

Each subcommand is a module of experiments.commands (its arguments, its --help examples and
its handler, which calls the library and prints); this module builds the parser from them,
checks the counts and output paths every command shares, and turns errors into exit codes.
Nothing imports this module. Every user mistake (a UserError) prints one line on stderr and
exits with code 2; nothing is written on disk before the input has been checked.
"""
from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
from pathlib import Path

from simcore.errors import EnvironmentFault, UserError
from simcore.runner import (MAX_BATCH, MAX_GAMES, MAX_HELD_GAMES, MAX_JOBS, MAX_PLAYERS, MAX_SEED, check_count)

from .commands import COMMANDS

EXIT_USER_ERROR = 2
MAX_BOOTSTRAP = 100_000        # bootstrap resamples (luck)
MAX_POPSIZE = 10_000           # candidates per generation (train)
OUTPUTS = ("out", "json")          # the options that name something a command writes
EXIT_ENVIRONMENT = 3          # the machine failed the work: a full disk, an I/O error, a lost scheduler
EXIT_INTERRUPTED = 130        # Ctrl-C (SIGINT)
EXIT_TERMINATED = 143         # SIGTERM
# OS errors about a path the user gave (exit 2); any other OS error is the environment's (exit 3)
USER_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT, errno.ENOTDIR, errno.EISDIR,
                         errno.ENAMETOOLONG, errno.EEXIST, errno.ENOTEMPTY, errno.ELOOP, errno.EXDEV})


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand, in the order of experiments.commands.COMMANDS; each
    command's --help carries its description and the examples of its module's HELP."""
    ap = argparse.ArgumentParser(prog="balancelab", description="Monte Carlo balance lab for tabletop games.")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
        description, examples = command.HELP
        p = sub.choices[command.__name__.rsplit(".", 1)[1]]
        p.description = p.description or description
        p.epilog = "examples:\n" + "\n".join("  " + e for e in examples)
        p.formatter_class = _ExamplesFormatter
    return ap


class _ExamplesFormatter(argparse.HelpFormatter):
    """Wraps the description as usual, and keeps each indented example line as written."""

    def _fill_text(self, text, width, indent):
        return "\n".join(line if line.startswith("  ") else super(_ExamplesFormatter, self)._fill_text(line, width, indent)
                         for line in text.splitlines())


def check_counts(args) -> None:
    """Every count given on the command line within its documented limit (docs/reliability.md),
    before any work: one line and exit 2 for --games 10^30. `run` streams its games into chunk
    files (flat memory), so it may ask for up to MAX_GAMES; the commands that hold every game's
    rows (compare, ladder, luck, train, bench) up to MAX_HELD_GAMES."""
    streamed = getattr(args.func, "__name__", "") == "cmd_run" and getattr(args, "compare", None) is None
    limits = {"games": (1, MAX_GAMES if streamed else MAX_HELD_GAMES), "budget": (1, MAX_HELD_GAMES),
              "ref_games": (1, MAX_HELD_GAMES), "scale": (0, MAX_GAMES), "fanout": (0, MAX_HELD_GAMES),
              "game": (0, MAX_GAMES - 1), "players": (1, MAX_PLAYERS), "jobs": (1, MAX_JOBS),
              "batch_size": (1, MAX_BATCH), "seed": (0, MAX_SEED), "bootstrap": (1, MAX_BOOTSTRAP),
              "popsize": (1, MAX_POPSIZE)}
    for attr, (lo, hi) in limits.items():
        value = getattr(args, attr, None)
        if isinstance(value, int) and not isinstance(value, bool):
            check_count(value, "--" + attr.replace("_", "-"), lo, hi)


def check_output_path(path: str | Path, flag: str, folder_must_exist: bool = False) -> None:
    """An output path we can create, checked before any work: every name short enough for the
    file system, and the nearest existing folder on the way a writable folder (the parent
    folder itself when `folder_must_exist`: a writer that creates no folders)."""
    path = Path(path).expanduser().absolute()
    chain = [path, *path.parents]
    existing = next(p for p in chain if _exists(p))
    limit = os.pathconf(existing if existing.is_dir() else existing.parent, "PC_NAME_MAX")
    long = next((part for part in path.parts if len(part.encode()) > limit), None)
    if long is not None:
        raise UserError(f"the name {long[:40]}... has {len(long.encode())} bytes; the file system allows {limit}",
                        file=str(path), key=flag)
    if existing != path and not existing.is_dir():
        raise UserError(f"{existing} is a file, not a folder", file=str(path), key=flag)
    if folder_must_exist and existing not in (path, path.parent):
        raise UserError(f"the folder {path.parent} does not exist", file=str(path), key=flag)
    folder = existing if existing.is_dir() else existing.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        why = "is on a read-only file system" if _read_only(folder) else "is not writable"
        raise UserError(f"the folder {folder} {why}; choose another place", file=str(path), key=flag)


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:                       # e.g. a name too long to look up
        return False


def _read_only(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the process is, so that every cleanup (scratch folders, the run
    folder's lock) runs as on Ctrl-C."""


def _on_sigterm(signum, frame):
    raise Terminated()


def os_error_line(e: OSError) -> tuple[str, int]:
    """One line for an OS error and its exit code: 2 for a path the user gave, 3 for the machine."""
    where = e.filename if e.filename is not None else ""
    what = e.strerror or str(e)
    if e.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        what += " (free some space; a sweep keeps its finished chunks: resume it with --resume)"
    line = f"{where}: {what}" if where else what
    return line, EXIT_USER_ERROR if e.errno in USER_ERRNOS else EXIT_ENVIRONMENT


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:                   # not the main thread (an embedding program): leave SIGTERM alone
        previous = None
    try:
        check_counts(args)
        for attr in OUTPUTS:
            if isinstance(getattr(args, attr, None), str):
                check_output_path(getattr(args, attr), "--" + attr, folder_must_exist=attr == "json")
        return int(args.func(args) or 0)
    except UserError as e:
        print(f"balancelab: error: {e.render()}", file=sys.stderr)
        return EXIT_USER_ERROR
    except EnvironmentFault as e:
        print(f"balancelab: error: {e.message}", file=sys.stderr)
        return EXIT_ENVIRONMENT
    except OSError as e:
        if isinstance(e, BrokenPipeError):       # the reader (e.g. `| head`) went away: stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        line, code = os_error_line(e)
        print(f"balancelab: error: {line}", file=sys.stderr)
        return code
    except KeyboardInterrupt as e:
        print(f"balancelab: {getattr(e, 'hint', None) or 'interrupted'}", file=sys.stderr)
        return EXIT_TERMINATED if isinstance(e, Terminated) else EXIT_INTERRUPTED
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
