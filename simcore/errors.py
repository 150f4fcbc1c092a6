"""One error type for every mistake a user can make.

The command line turns a UserError into one line on stderr and exit code 2, never a
traceback. Say what is wrong, where (file, row, key) and what would be right.
"""
from __future__ import annotations


class UserError(Exception):
    """A user's mistake: bad data file, config key, value, bot, ruleset, ..."""

    def __init__(self, message: str, *, file: str | None = None, row: int | None = None,
                 key: str | None = None):
        self.message = message
        self.file = file
        self.row = row
        self.key = key
        super().__init__(self.render())

    def render(self) -> str:
        where = []
        if self.file is not None:
            where.append(str(self.file) + (f", row {self.row}" if self.row is not None else ""))
        elif self.row is not None:
            where.append(f"row {self.row}")
        if self.key is not None:
            where.append(f"key '{self.key}'")
        prefix = ": ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message


class EnvironmentFault(Exception):
    """The machine failed the work, not the user (a full disk, a lost scheduler): the command
    line prints one line (with a resume command where chunks were kept) and exits with
    code 3 (docs/reliability.md)."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)
