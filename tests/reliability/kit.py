"""What the reliability tests share: a one-point sweep config small enough for the stand-in engine."""

ONE_POINT = 'ruleset = "evolversi"\nplayers = 3\ngames = 60\nseed = 5\nbatch_size = 20\n'
