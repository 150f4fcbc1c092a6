"""The bot registry: every bot of every game is defined under strategies/ and registered here.

A bot is registered by name for one game, with two faces: the policy the game's batch
engine calls (numpy functions over the batch, or compiled code for a compiled engine) and
the policy its one-game reference engine calls. The engines never name a bot: the layer
above (experiments, the CLI, tests) turns names into `Bot` objects here and hands them to
the game adapter, which asks each for the face its engine needs.

Adding a bot is one new file under strategies/<game>/ that calls `register`: the game's
package imports every module beside it (`discover`), so nothing else changes.

    from strategies.registry import register

    @register("evolversi", "cautious", doc="greedy, but never steals")
    class Cautious:
        def batch(self, rs): ...            # what the batch engine's decision interface needs
        def reference(self, rs, seat): ...  # what the reference engine's bots offer
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

from simcore.errors import UserError

# (game, name) -> the registered class; filled as strategies/<game>/ modules are imported
_BOTS: dict[tuple[str, str], type] = {}
_DOCS: dict[tuple[str, str], str] = {}


def register(game: str, name: str, doc: str = ""):
    """Class decorator: register a bot class (with `batch(rs)` and `reference(rs, seat)`)."""
    def wrap(cls):
        key = (game, name)
        if key in _BOTS and _BOTS[key] is not cls:
            raise ValueError(f"bot {name!r} is registered twice for {game}")
        _BOTS[key] = cls
        _DOCS[key] = doc or (cls.__doc__ or "").strip().split("\n")[0]
        return cls
    return wrap


def discover(package: str, path) -> None:
    """Import every module of a game's bot package, so each registers its bots."""
    for mod in pkgutil.iter_modules(path):
        importlib.import_module(f"{package}.{mod.name}")


def _load(game: str) -> None:
    try:
        importlib.import_module(f"strategies.{game}")
    except ModuleNotFoundError as e:
        if e.name != f"strategies.{game}":
            raise


def bot_names(game: str) -> list[str]:
    """Names of the bots registered for a game, in registration order."""
    _load(game)
    return [n for (g, n) in _BOTS if g == game]


def bot_doc(game: str, name: str) -> str:
    _load(game)
    return _DOCS.get((game, name), "")


@dataclass(frozen=True)
class Bot:
    """One seat's bot, as the engines receive it: picklable, so it travels to workers.

    `name` is what result rows record. `batch_policy(rs)` and `reference_policy(rs, seat)`
    build the policy objects the game's two engines call (docs/games/<game>.md lists the
    decisions each must answer).
    """

    game: str
    name: str
    options: tuple = ()          # (key, value) pairs handed to the bot class, e.g. a script

    def _impl(self):
        _load(self.game)
        return _BOTS[(self.game, self.name)](**dict(self.options))

    def batch_policy(self, rs):
        return self._impl().batch(rs)

    def reference_policy(self, rs, seat: int):
        return self._impl().reference(rs, seat)

    def __str__(self) -> str:
        return self.name


def make_bot(game: str, name: str) -> Bot:
    """A Bot for `name`; UserError naming the known bots if there is no such bot."""
    if not isinstance(name, str) or not name.strip():
        raise UserError(f"a bot name must be a non-empty word, got {name!r}", key="bots")
    name = name.strip()
    known = bot_names(game)
    if name not in known:
        import difflib
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UserError(f"unknown bot {name!r} for {game}{hint}; bots for {game}: {', '.join(known)}",
                        key="bots")
    return Bot(game, name)


def make_bots(game: str, names, players: int) -> tuple[Bot, ...]:
    """Bots for every seat from one name for all or one per seat ("a,b,c" or a list)."""
    if isinstance(names, Bot):
        names = [names]
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    names = list(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UserError(f"give one bot for every seat or one for all; got {len(names)} for {players} players",
                        key="bots")
    return tuple(n if isinstance(n, Bot) else make_bot(game, n) for n in names)
