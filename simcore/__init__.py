"""simcore: the simulation core of balancelab.

Layers (bottom to top): random streams and errors -> ruleset loading -> the games
(simcore/games/<game>/) -> the runner. simcore never imports strategies' callers,
experiments, reports, pandas or matplotlib.
"""
