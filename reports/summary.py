"""A streaming balance summary of one run: fed chunk by chunk, memory stays flat.

Per seat and per faction win rates (shared wins count as shares) with 95% Wilson
intervals, game length mean/spread and histogram, end reasons.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict

import numpy as np
import polars as pl

from .stats import wilson


class RunSummary:
    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.seat_wins = np.zeros(players)
        self.faction_games: Counter = Counter()
        self.faction_wins: defaultdict = defaultdict(float)
        self.bot_games: Counter = Counter()
        self.bot_wins: defaultdict = defaultdict(float)
        self.rounds_sum = 0.0
        self.rounds_sq = 0.0
        self.rounds_hist: Counter = Counter()
        self.end_reasons: Counter = Counter()

    def add(self, df: pl.DataFrame) -> None:
        """Fold one chunk of per-game rows into the summary."""
        self.games += df.height
        r = df["rounds"].to_numpy().astype(float)
        self.rounds_sum += r.sum()
        self.rounds_sq += (r * r).sum()
        self.rounds_hist.update(dict(zip(*np.unique(r.astype(int), return_counts=True))))
        self.end_reasons.update(dict(df["end_reason"].cast(pl.Utf8).value_counts().iter_rows()))
        for s in range(self.players):
            share = df[f"s{s}_share"].cast(pl.Float64)
            self.seat_wins[s] += float(share.sum())
            for col, games, wins in ((f"s{s}_faction", self.faction_games, self.faction_wins),
                                     (f"s{s}_bot", self.bot_games, self.bot_wins)):
                agg = (df.select(pl.col(col).cast(pl.Utf8).alias("k"), share.alias("w"))
                       .group_by("k").agg(pl.len().alias("n"), pl.col("w").sum()))
                for k, n, w in agg.iter_rows():
                    games[k] += n
                    wins[k] += w

    @property
    def mean_rounds(self) -> float:
        return self.rounds_sum / self.games if self.games else math.nan

    @property
    def sd_rounds(self) -> float:
        if self.games < 2:
            return math.nan
        var = (self.rounds_sq - self.rounds_sum ** 2 / self.games) / (self.games - 1)
        return math.sqrt(max(var, 0.0))

    def seat_table(self) -> list[dict]:
        p, lo, hi = wilson(self.seat_wins, self.games)
        return [{"seat": s, "games": self.games, "wins": float(self.seat_wins[s]), "win_rate": float(p[s]),
                 "ci_low": float(lo[s]), "ci_high": float(hi[s])} for s in range(self.players)]

    def _group_table(self, games, wins, key) -> list[dict]:
        rows = []
        for k in sorted(games):
            p, lo, hi = wilson(wins[k], games[k])
            rows.append({key: k, "games": games[k], "wins": float(wins[k]), "win_rate": float(p),
                         "ci_low": float(lo), "ci_high": float(hi)})
        return rows

    def faction_table(self) -> list[dict]:
        return self._group_table(self.faction_games, self.faction_wins, "faction")

    def bot_table(self) -> list[dict]:
        return self._group_table(self.bot_games, self.bot_wins, "bot")

    def balance(self) -> float:
        """1 - (largest faction win rate - smallest), over factions seen."""
        rates = [r["win_rate"] for r in self.faction_table() if r["games"] > 0]
        return 1.0 - (max(rates) - min(rates)) if rates else math.nan

    def to_dict(self) -> dict:
        return {"games": self.games, "seats": self.seat_table(), "factions": self.faction_table(),
                "bots": self.bot_table(), "mean_rounds": self.mean_rounds, "sd_rounds": self.sd_rounds,
                "rounds_histogram": {int(k): int(v) for k, v in sorted(self.rounds_hist.items())},
                "end_reasons": {str(k): int(v) for k, v in sorted(self.end_reasons.items())},
                "balance": self.balance()}
