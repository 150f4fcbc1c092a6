"""Evo bots: each bot's batch form (batch_bots.py, with the batch engine) and one-game form
(reference_bots.py), registered by name in registered.py. Every module here is imported,
so a new file can register a bot with no other edit."""

from ..registry import discover as _discover

_discover(__name__, __path__)
