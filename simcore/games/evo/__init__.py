"""Evo, second edition (rulebook: Evo, second edition, Philippe Keyaerts).

Nomadic clans steer dinosaur species across an island while the climate wheel turns: bid
mutation points for genes, move and fight, lay eggs, and keep the herd alive on terrain the
climate allows; the meteorite ends the game and the most MP wins. The engine contract both
engines follow is docs/games/evo.md: the batch engine (rules.py, batch_*.py, compiled with
numba: jit.py) and the reference engine (reference*.py), written independently; the data,
its schema and the maps (maps.py) are shared bookkeeping.
"""
