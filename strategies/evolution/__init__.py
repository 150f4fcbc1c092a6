"""Evolution bots. Each bot has a one-game form (methods the reference engine calls) and a
batch form (functions over the batch state) that make the same choices game by game."""

from ..registry import discover as _discover

_discover(__name__, __path__)
