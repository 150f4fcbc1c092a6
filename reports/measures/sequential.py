"""Decide with fewer games: a paired sequential test, checked after each chunk, up to a cap.

Every check compares two arms on the same game indices (common random numbers). Each game
gives one paired difference d = (the checked seat's or entity's result in arm B) - (in arm A),
a number in [-1, 1] (a win share; a shared win counts as its share). The question is
whether the true mean difference (the effect) matters:

    H0: |effect| <= d0   (no effect worth reporting; default d0 = 0.5 pp)
    H1: |effect| >= d1   (an effect;                 default d1 = 2 pp)

The test (`decide`) is a pair of one-sided Wald SPRTs on the normal approximation of the
mean (the generalised SPRT that chess-engine testing runs on paired games): one tests
+d0 against +d1, the other -d0 against -d1, each with the log-likelihood ratio

    LLR = n (mu1 - mu0) (2 mean - mu0 - mu1) / (2 var)

against Wald's bounds log(beta / (1 - alpha)) (accept its H0) and log((1 - beta) / alpha)
(accept its H1). The check decides "effect" (with the sign of the side) as soon as one side
accepts H1, "no effect" once both sides accepted H0, and stays "open" otherwise; at the cap
it stops open ("undecided at the cap"). alpha bounds the rate of a false "effect" when
|effect| <= d0, beta the rate of a false "no effect" when |effect| >= d1; both are
measured by simulation on planted truths (tests/reports/test_sequential_error_rates.py,
docs/metrics.md, section "Deciding with fewer games").

The test is looked at after each chunk (group-sequential): it only ever stops at a chunk's
end, which makes the stated rates slightly conservative.

An interval shown after a data-dependent stop is not a fixed-n 95% interval: `confidence_sequence`
is the asymptotic confidence sequence of Waudby-Smith et al. (2021, a normal-mixture boundary
after Howard et al.), which holds its level uniformly over every number of games, so it stays
valid whenever the test stopped.

The per-game differences are summarised by running sums (`Tally`): n, sum, sum of squares;
chunks add up, so a check never keeps its games.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Callable, Iterable

import numpy as np
import polars as pl

# The defaults of a check (docs/metrics.md, "Deciding with fewer games").
INDIFFERENCE = 0.005   # d0: an effect of at most 0.5 pp is "no effect"
EFFECT = 0.02          # d1: an effect of at least 2 pp is "an effect"
ALPHA = 0.05           # rate of a false "effect" when |effect| <= d0
BETA = 0.05            # rate of a false "no effect" when |effect| >= d1
CHUNK = 500            # games between looks
CAP = 100_000          # games per check at most
MIN_GAMES = 500        # no decision before this many games (the variance estimate must settle)
T_OPT = 5_000          # the confidence sequence is tuned (narrowest) near this many games, fixed before the data

EFFECT_UP, EFFECT_DOWN, NO_EFFECT, OPEN = "effect (up)", "effect (down)", "no effect", "open"
NOTHING = "nothing to compare"     # a ratio check whose first min_games games hold no unit (nobody held the card)


@dataclass(frozen=True)
class Design:
    """The hypotheses, error rates and schedule of a sequential check (fractions, not pp)."""

    d0: float = INDIFFERENCE
    d1: float = EFFECT
    alpha: float = ALPHA
    beta: float = BETA
    chunk: int = CHUNK
    cap: int = CAP
    min_games: int = MIN_GAMES

    def problems(self) -> list[str]:
        """What is wrong with the numbers (empty when the design is usable)."""
        out = []
        if not 0 <= self.d0 < self.d1 <= 1:
            out.append(f"needs 0 <= d0 < d1 <= 1, got d0 = {self.d0}, d1 = {self.d1}")
        for name, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < v < 0.5:
                out.append(f"{name} must be between 0 and 0.5, got {v}")
        for name, v in (("chunk", self.chunk), ("cap", self.cap), ("min_games", self.min_games)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                out.append(f"{name} must be a whole number of games >= 1, got {v!r}")
        return out

    @property
    def lower(self) -> float:
        """Wald's bound below which a side accepts its H0."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's bound above which a side accepts its H1."""
        return math.log((1 - self.beta) / self.alpha)

    def var_floor(self) -> float:
        """The smallest per-game variance used: that of a difference of mean d0 on {-1, 0, 1}.

        A difference with mean mu taking values in {-1, 0, 1} has variance >= |mu| (1 - |mu|);
        the floor keeps a few identical early games from looking like certainty.
        """
        return self.d0 * (1 - self.d0) if self.d0 > 0 else self.d1 * (1 - self.d1) / 4


@dataclass(frozen=True)
class Tally:
    """Running sums of a check's per-game paired differences.

    Plain: one difference d per game, the effect is their mean. As a ratio: per game a summed
    difference `num` over `den` units (e.g. the holders of a knocked-out card), the effect is
    sum(num) / sum(den), with the delta-method variance scaled to one game (var / n is the
    variance of the effect). A plain tally is the ratio with den = 1.
    """

    n: int = 0
    total: float = 0.0      # sum of num (of d)
    squares: float = 0.0    # sum of num^2
    weight: float = 0.0     # sum of den (n for a plain tally)
    cross: float = 0.0      # sum of num * den
    weight2: float = 0.0    # sum of den^2

    def add(self, diffs, den=None) -> "Tally":
        num = np.asarray(diffs, dtype=float).ravel()
        den = np.ones_like(num) if den is None else np.asarray(den, dtype=float).ravel()
        return Tally(self.n + num.size, self.total + float(num.sum()), self.squares + float((num * num).sum()),
                     self.weight + float(den.sum()), self.cross + float((num * den).sum()),
                     self.weight2 + float((den * den).sum()))

    @property
    def mean(self) -> float:
        return self.total / self.weight if self.weight else math.nan

    @property
    def var(self) -> float:
        """Per-game variance of the effect (n - 1 denominator); nan below two games or without units."""
        if self.n < 2 or not self.weight:
            return math.nan
        r = self.mean
        resid = max(self.squares - 2 * r * self.cross + r * r * self.weight2, 0.0)    # sum (num - r den)^2
        return resid / (self.n - 1) * (self.n / self.weight) ** 2


def llr(n, mean, var, mu0: float, mu1: float):
    """Normal-approximation log-likelihood ratio of mean mu1 against mu0 after n games; vectorised."""
    n, mean, var = (np.asarray(v, dtype=float) for v in (n, mean, var))
    return n * (mu1 - mu0) * (2 * mean - mu0 - mu1) / (2 * var)


def side_llrs(n, mean, var, design: Design):
    """(LLR of +d1 against +d0, LLR of -d1 against -d0); the variance floored (Design.var_floor)."""
    v = np.maximum(np.asarray(var, dtype=float), design.var_floor())
    return llr(n, mean, v, design.d0, design.d1), llr(n, mean, v, -design.d0, -design.d1)


def decide(n, mean, var, design: Design = Design(), up_closed=None, down_closed=None):
    """The decision after n games, vectorised: EFFECT_UP, EFFECT_DOWN, NO_EFFECT or OPEN.

    `up_closed` / `down_closed`: (optional, bool) the side already accepted its H0 at an earlier
    look; a side that accepted H0 stays closed (Wald's test stops there), so NO_EFFECT needs
    both closed, now or before. Returns (decision array, up_closed, down_closed).
    """
    n = np.asarray(n, dtype=float)
    up, down = side_llrs(n, mean, var, design)
    ready = n >= design.min_games
    up_closed = np.zeros(n.shape, bool) if up_closed is None else np.asarray(up_closed, bool)
    down_closed = np.zeros(n.shape, bool) if down_closed is None else np.asarray(down_closed, bool)
    up_h1 = ready & ~up_closed & (up >= design.upper)
    down_h1 = ready & ~down_closed & (down >= design.upper)
    up_closed = up_closed | (ready & (up <= design.lower))
    down_closed = down_closed | (ready & (down <= design.lower))
    out = np.full(n.shape, OPEN, dtype=object)
    out[up_closed & down_closed] = NO_EFFECT
    out[down_h1] = EFFECT_DOWN
    out[up_h1 & (up >= down)] = EFFECT_UP
    out[up_h1 & down_h1 & (down > up)] = EFFECT_DOWN
    return out, up_closed, down_closed


def cs_rho2(t_opt: float, alpha: float = ALPHA) -> float:
    """The mixture's tuning: the confidence sequence is narrowest near t_opt games."""
    la = -2 * math.log(alpha)
    return (la + math.log(la + 1)) / t_opt


def confidence_sequence(n, mean, var, alpha: float = ALPHA, t_opt: float = T_OPT):
    """(lo, hi): a two-sided 1 - alpha confidence sequence for the mean; vectorised.

    Valid at every n at once (so after any stopping rule), asymptotically: mean +- sd *
    sqrt(2 (n rho2 + 1) / (n^2 rho2) * log(sqrt(n rho2 + 1) / alpha)) with rho2 = cs_rho2(t_opt).
    """
    n, mean, var = (np.asarray(v, dtype=float) for v in (n, mean, var))
    rho2 = cs_rho2(t_opt, alpha)
    with np.errstate(invalid="ignore", divide="ignore"):
        half = np.sqrt(var) * np.sqrt(2 * (n * rho2 + 1) / (n * n * rho2) * np.log(np.sqrt(n * rho2 + 1) / alpha))
    return mean - half, mean + half


def anytime_interval(num, den=None, family: int = 1, alpha: float = ALPHA, t_opt: float = T_OPT):
    """(effect, lo, hi) of per-game differences (or num/den ratios, as in `Tally`), with a 1 - alpha
    confidence sequence Bonferroni-corrected over `family` checks: the interval to show for a check
    that a sequential test stopped, since it holds whatever the number of games it stopped at."""
    t = Tally().add(num, den)
    if t.n < 2 or not t.weight:
        return math.nan, math.nan, math.nan
    lo, hi = confidence_sequence(t.n, t.mean, t.var, alpha / max(int(family), 1), t_opt)
    return t.mean, float(lo), float(hi)


def anytime_rates(df: pl.DataFrame, alpha: float = ALPHA, t_opt: float = T_OPT) -> pl.DataFrame:
    """Win-rate rows (games, win_rate, ci_low, ci_high) with their intervals replaced by 1 - alpha
    confidence sequences, for a run whose length a sequential test chose. A win share lies in
    [0, 1], so its variance is at most p (1 - p); that bound is the variance used."""
    if not df.height:
        return df
    n, p = df["games"].to_numpy().astype(float), df["win_rate"].to_numpy().astype(float)
    lo, hi = confidence_sequence(n, p, p * (1 - p), alpha, t_opt)
    return df.with_columns(ci_low=pl.Series(np.clip(lo, 0.0, 1.0)), ci_high=pl.Series(np.clip(hi, 0.0, 1.0)))


def gap_sequence(n, rate, alpha: float = ALPHA, t_opt: float = T_OPT):
    """(gap, lo, hi): the best minus the worst of k win rates (the last axis) with a 1 - alpha
    confidence sequence; vectorised over the leading axes.

    Each rate's confidence sequence is taken at alpha / k (Bonferroni), so all k hold at once at
    every number of games; the gap's interval [max(0, max lo - min hi), max hi - min lo] then
    holds too, whatever the look a test stopped at. A win share lies in [0, 1]: its variance is
    bounded by p (1 - p), the variance used (as in `anytime_rates`).
    """
    n, p = np.asarray(n, dtype=float), np.asarray(rate, dtype=float)
    k = p.shape[-1]
    lo, hi = confidence_sequence(n, p, p * (1 - p), alpha / k, t_opt)
    lo, hi = np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)
    gap = p.max(axis=-1) - p.min(axis=-1)
    return gap, np.maximum(0.0, lo.max(axis=-1) - hi.min(axis=-1)), hi.max(axis=-1) - lo.min(axis=-1)


def fixed_games(var: float, design: Design = Design()) -> float:
    """Games a fixed-count test needs for the same error rates: reject "no effect" when
    |mean| > c, with P(reject | effect d0) = alpha and P(accept | effect d1) = beta."""
    z = NormalDist().inv_cdf
    return var * ((z(1 - design.alpha) + z(1 - design.beta)) / (design.d1 - design.d0)) ** 2


@dataclass
class Check:
    """One check's state: its tally, its open sides, its decision and the games that decided it.

    `played`: games played for the check so far; its tally may hold fewer differences (a faction
    that was not in every game). `decided_at`: the games played when it was decided.
    """

    name: str
    tally: Tally = Tally()
    played: int = 0
    up_closed: bool = False
    down_closed: bool = False
    decision: str = OPEN
    decided_at: int | None = None

    @property
    def is_open(self) -> bool:
        return self.decision == OPEN

    def look(self, diffs, design: Design, games: int | None = None) -> None:
        """Add a chunk's per-game differences (from `games` games, default one per difference) and decide.

        `diffs`: an array of differences, or (num, den) arrays for a ratio (Tally)."""
        before = self.tally.n
        self.tally = self.tally.add(*diffs) if isinstance(diffs, tuple) else self.tally.add(diffs)
        self.played += self.tally.n - before if games is None else games
        t = self.tally
        if t.n >= design.min_games and t.weight == 0:
            self.decision, self.decided_at = NOTHING, self.played
            return
        dec, up, down = decide(t.n, t.mean, t.var, design, self.up_closed, self.down_closed)
        self.up_closed, self.down_closed = bool(up), bool(down)
        if dec.item() != OPEN:
            self.decision, self.decided_at = str(dec.item()), self.played

    def row(self, design: Design, t_opt: float = T_OPT) -> dict:
        """The check as a row: decision, games that decided it, mean and its confidence sequence, and
        the games a fixed-count design with the same error rates needs at the measured variance."""
        t = self.tally
        var = max(t.var, design.var_floor()) if t.n > 1 else math.nan
        lo, hi = confidence_sequence(t.n, t.mean, var, design.alpha, t_opt)
        per_game = t.n / self.played if self.played else math.nan     # differences per game played
        decision = self.decision if self.decision != OPEN else (
            "undecided at the cap" if self.played >= design.cap else "undecided (budget spent)")
        return {"check": self.name, "decision": decision, "decided_after": self.decided_at, "games": self.played,
                "effect": t.mean, "cs_low": float(lo), "cs_high": float(hi),
                "fixed_games": math.ceil(fixed_games(var, design) / per_game) if var == var and per_game else None}


def run_until_decided(names: Iterable[str] | None, play: Callable[[list[str], int, int], dict], design: Design = Design(),
                      budget: int | None = None, cost: Callable[[list[str] | None], int] | None = None) -> list[Check]:
    """Play chunks until every check is decided, at its cap, or the shared budget is spent.

    `play(open_names, start, stop)` plays game indices start..stop-1 for the checks still open
    and returns {name: per-game differences}; names=None: the checks are the names the first
    chunk returns (`play` gets None then). `budget`: games over all checks at most (a check that
    stops early frees its games for those still open); `cost(open_names)`: the games one game
    index costs for those checks (default: one per check; None: the first look of names=None).
    Every check sees the same game indices, chunk after chunk.
    """
    cost = cost or (lambda live: len(live) if live is not None else 1)
    checks = {name: Check(name) for name in names or ()}
    spent, start = 0, 0
    while True:
        live = None if names is None and not start else \
            [c.name for c in checks.values() if c.is_open and c.played < design.cap]
        if live is not None and not live:
            break
        stop = min(start + design.chunk, design.cap)
        each = max(cost(live), 1)
        if budget is not None and spent + each * (stop - start) > budget:
            stop = start + (budget - spent) // each
            if stop <= start:
                break
        diffs = play(live, start, stop)
        if live is None:
            checks = {name: Check(name) for name in diffs}
            live = list(checks)
        for name in live:
            checks[name].look(diffs.get(name, ()), design, stop - start)
        spent += each * (stop - start)
        start = stop
    return list(checks.values())


def seat_differences(a, b) -> dict[str, np.ndarray]:
    """Per seat and per faction: the per-game paired differences of win share, B - A.

    a, b: per-game frames of the same game indices (reports.measures.metrics' columns: s{i}_share,
    s{i}_faction). A faction's difference in a game is its mean share at B minus at A, over the
    games it played on both sides.
    """
    a, b = a.sort("game"), b.sort("game")
    seats = sorted(int(c[1:-6]) for c in a.columns if c.startswith("s") and c.endswith("_share"))
    out: dict[str, np.ndarray] = {}
    share = {}
    for s in seats:
        xa, xb = (df[f"s{s}_share"].cast(pl.Float64).to_numpy() for df in (a, b))
        share[s] = (xa, xb)
        seated = ~(np.isnan(xa) | np.isnan(xb))
        out[f"seat {s}"] = (xb - xa)[seated]
    if seats and f"s{seats[0]}_faction" in a.columns:
        fa = {s: a[f"s{s}_faction"].cast(pl.Utf8).to_numpy() for s in seats}
        fb = {s: b[f"s{s}_faction"].cast(pl.Utf8).to_numpy() for s in seats}
        names = sorted({str(v) for f in (*fa.values(), *fb.values()) for v in f if v is not None})
        for name in names:
            xa, na, xb, nb = (np.zeros(a.height) for _ in range(4))
            for s in seats:
                ma, mb = fa[s] == name, fb[s] == name
                xa += np.where(ma, np.nan_to_num(share[s][0]), 0)
                xb += np.where(mb, np.nan_to_num(share[s][1]), 0)
                na += ma
                nb += mb
            both = (na > 0) & (nb > 0)
            out[name] = xb[both] / nb[both] - xa[both] / na[both]
    return out


# ----------------------------------------------------------------------------- planted truths

def paired_outcomes(base: float, effect: float, corr: float) -> tuple[float, float]:
    """P(d = +1), P(d = -1) for the difference of two correlated wins: A ~ Bernoulli(base),
    B ~ Bernoulli(base + effect), Pearson correlation `corr` between A and B."""
    pa, pb = base, base + effect
    both = pa * pb + corr * math.sqrt(pa * (1 - pa) * pb * (1 - pb))
    up, down = pb - both, pa - both
    if not (0 <= both <= min(pa, pb) and up >= 0 and down >= 0 and up + down <= 1):
        raise ValueError(f"no paired Bernoulli law with base {base}, effect {effect}, correlation {corr}")
    return up, down


def sparse_outcomes(changed: float, effect: float) -> tuple[float, float]:
    """P(d = +1), P(d = -1) when a share `changed` of the games change result (a knockout of a
    rarely decisive card): the changed games split so that the mean is `effect`."""
    if not 0 <= abs(effect) <= changed <= 1:
        raise ValueError(f"an effect of {effect} needs at least that share of changed games, got {changed}")
    return (changed + effect) / 2, (changed - effect) / 2


def simulate(effect: float, design: Design = Design(), base: float = 0.25, corr: float = 0.5, reps: int = 1000,
             seed: int = 0, changed: float | None = None) -> dict:
    """Run the sequential check `reps` times on planted paired win/loss games; vectorised.

    The games: correlated wins (`base`, `corr`: paired_outcomes), or with `changed` a share of
    changed games and identical others (sparse_outcomes).

    Returns the decision shares (EFFECT_UP, EFFECT_DOWN, NO_EFFECT, OPEN at the cap), the mean
    and quantiles of the games each run took, and the fixed-count design's games for the same
    error rates at the true per-game variance.
    """
    up_p, down_p = paired_outcomes(base, effect, corr) if changed is None else sparse_outcomes(changed, effect)
    rng = np.random.default_rng(seed)
    n = np.zeros(reps)
    total = np.zeros(reps)
    squares = np.zeros(reps)
    up_closed = np.zeros(reps, bool)
    down_closed = np.zeros(reps, bool)
    decision = np.full(reps, OPEN, dtype=object)
    games = np.zeros(reps)
    while True:
        live = (decision == OPEN) & (n < design.cap)
        if not live.any():
            break
        size = int(min(design.chunk, design.cap - n[live].max()))
        counts = rng.multinomial(size, [up_p, down_p, 1 - up_p - down_p], size=int(live.sum()))
        n[live] += size
        total[live] += counts[:, 0] - counts[:, 1]
        squares[live] += counts[:, 0] + counts[:, 1]
        mean = total[live] / n[live]
        var = (squares[live] - total[live] ** 2 / n[live]) / (n[live] - 1)
        dec, up_closed[live], down_closed[live] = decide(n[live], mean, var, design, up_closed[live], down_closed[live])
        decision[live] = dec
        games[live] = n[live]
    true_var = up_p + down_p - effect ** 2
    shares = {k: float(np.mean(decision == k)) for k in (EFFECT_UP, EFFECT_DOWN, NO_EFFECT, OPEN)}
    return {"effect": effect, "reps": reps, **shares, "mean_games": float(games.mean()),
            "median_games": float(np.median(games)), "p95_games": float(np.quantile(games, 0.95)),
            "fixed_games": fixed_games(true_var, design), "var": true_var}


def wrong_rate(result: dict, design: Design = Design()) -> float:
    """The share of wrong decisions for the planted effect: "effect" when |effect| <= d0,
    "no effect" or the wrong sign when |effect| >= d1 (nan in between, where both are right)."""
    e = result["effect"]
    if abs(e) <= design.d0:
        return result[EFFECT_UP] + result[EFFECT_DOWN]
    if abs(e) >= design.d1:
        return result[NO_EFFECT] + result[EFFECT_DOWN if e > 0 else EFFECT_UP]
    return math.nan


PLANTED = (0.0, INDIFFERENCE, (INDIFFERENCE + EFFECT) / 2, EFFECT, -EFFECT, 0.05)


def error_rates(design: Design = Design(), effects=PLANTED, reps: int = 2000, base: float = 0.25, corr: float = 0.5,
                seed: int = 0, changed: float | None = None) -> list[dict]:
    """One `simulate` row per planted effect, with its wrong-decision rate and the Monte Carlo error.

    `python -c "from reports.measures.sequential import error_rates, table; print(table(error_rates()))"`
    prints the table of docs/metrics.md, section "Deciding with fewer games".
    """
    rows = []
    for i, e in enumerate(effects):
        r = simulate(e, design, base, corr, reps, seed + i, changed)
        w = wrong_rate(r, design)
        rows.append({**r, "wrong": w, "mc_error": math.sqrt(w * (1 - w) / reps) if w == w else math.nan})
    return rows


def table(rows: list[dict]) -> str:
    """The rows as a Markdown table (effects and rates in pp / %)."""
    out = ["| planted effect | runs | wrong decisions | effect / no effect / open | games: mean (median, 95th pct) "
           "| fixed-count games | fixed / mean |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        wrong = "n/a (between d0 and d1)" if r["wrong"] != r["wrong"] else f"{r['wrong']:.1%} +- {r['mc_error']:.1%}"
        out.append(f"| {r['effect'] * 100:+.2f} pp | {r['reps']:,} | {wrong} | "
                   f"{r[EFFECT_UP] + r[EFFECT_DOWN]:.1%} / {r[NO_EFFECT]:.1%} / {r[OPEN]:.1%} | "
                   f"{r['mean_games']:,.0f} ({r['median_games']:,.0f}, {r['p95_games']:,.0f}) | "
                   f"{r['fixed_games']:,.0f} | {r['fixed_games'] / r['mean_games']:.1f}x |")
    return "\n".join(out)
