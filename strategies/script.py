"""Scripted players, shared by every game: a scenario file lists each seat's choices."""
from __future__ import annotations

from simcore.errors import UserError


def take_scripted(seat: int, items: list, kind: str, n: int) -> int:
    """The next scripted option of `seat` for a `kind` decision with n options (popped)."""
    if not items:
        raise UserError(f"the script of seat {seat} ran out of choices at a {kind} decision "
                        f"({n} options)", key=f"choices.{seat}")
    item = items.pop(0)
    said = str(item.get("kind", "")).upper() if isinstance(item, dict) else "?"
    if said != kind:
        raise UserError(f"the script of seat {seat} gives a {said or '?'} choice, but the game asks a "
                        f"{kind} decision ({n} options)", key=f"choices.{seat}")
    option = item.get("option")
    if isinstance(option, bool) or not isinstance(option, int) or not 0 <= option < n:
        raise UserError(f"option {option!r} of seat {seat}'s {kind} choice must be a whole number in "
                        f"0..{n - 1}", key=f"choices.{seat}")
    return option


class ScriptBot:
    """The `script` bot's one-game face: plays the choices a scenario lists for its seat, in
    order, checking each kind (decisions with `kind` and `options`)."""

    name = "script"

    def __init__(self, seat: int, choices=()):
        self.seat = seat
        self.items = list(choices or [])

    def choose(self, decision, view) -> int:
        return take_scripted(self.seat, self.items, decision.kind, len(decision.options))


class ScriptThenBot:
    """Reference face: the scripted choices (checked as a plain script's), then `then`."""

    name = "script"

    def __init__(self, seat: int, choices, then):
        self.seat = seat
        self.items = list(choices or [])
        self.then = then

    def choose(self, decision, view) -> int:
        if self.items:
            return take_scripted(self.seat, self.items, decision.kind, len(decision.options))
        return self.then.choose(decision, view)
