"""Barbascura X: Evolversi Male (rulebook: Barbascura X, Evolversi Male).

A deck-building race: play cards above (Strength, tokens) or below (effects, Fury) your
animal board, buy from a sliding market, first pawn to the last track space wins.
The engine contract both engines follow is docs/games/evolversi.md.
"""
