"""`balancelab train`: fit a game's greedy weights by self-play with CMA-ES.

    train(rs, players=4, budget=20_000, seed=0) -> Trained(weights, provenance, history)

The search runs over the weights of strategies/<game>/weights/default.toml, each scaled to
[0, 1] by its bounds (integer weights are rounded when a candidate is played). CMA-ES is
the `cma` package's; its normal draws come from a numpy Generator seeded by `seed` (no
global random state), so a training run is the same given its arguments.

A candidate is scored as one seat of `greedy` with its weights against a field of
`field` (default: greedy with the default weights) in every other seat, at every seat in
turn (seat rotation), on the same game indices for every candidate of a generation (common
random numbers: the candidates are compared on the same deals); each generation plays
fresh indices. Its score is the mean of its seat's win share (fair share 1/P). The final
weights are CMA-ES's mean after the last generation, scored once more on held-out game
indices (a fifth of the budget) for the provenance. `budget` counts every game played.
"""
from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from reports.measures.stats import mean_interval
from simcore.errors import UserError
from simcore.runner import check_spec, iter_chunks
from strategies import weights as W
from strategies.registry import Bot, make_bot

from .lineup import run_spec
from .store import check_output_file, write_text

BASE = "greedy"              # the bot whose weights are trained
EVAL_SHARE = 0.2             # the budget's share kept for the held-out score
SIGMA0 = 0.25                # CMA-ES's first step, in the [0, 1]-scaled weights
CANDIDATE_GAMES = 2000       # games per candidate (over every seat), unless the budget is small


@dataclass
class Trained:
    weights: W.Weights
    provenance: dict
    history: list = field(default_factory=list)     # per generation: {"generation", "best", "mean"}


# ---------------------------------------------------------------- the optimiser

def optimise(evaluate, x0, generations: int, popsize: int, seed: int, sigma0: float = SIGMA0,
             on_generation=None) -> np.ndarray:
    """CMA-ES (package `cma`) minimising `evaluate(X, generation) -> losses` over [0, 1]^d
    from x0, `generations` x `popsize` candidates; returns the distribution's final mean."""
    import cma  # start-up: cma (over a second), only when training
    rng = np.random.default_rng(seed)
    opts = {"bounds": [0.0, 1.0], "popsize": popsize, "seed": np.nan,     # nan: cma seeds nothing
            "randn": lambda lam, n: rng.standard_normal((lam, n)),
            "verbose": -9, "verb_log": 0, "verb_disp": 0, "tolflatfitness": 10**9}
    es = cma.CMAEvolutionStrategy(list(np.asarray(x0, float)), sigma0, opts)
    for gen in range(generations):
        X = es.ask()
        losses = [float(v) for v in evaluate([np.asarray(x) for x in X], gen)]
        es.tell(X, losses)
        if on_generation is not None:
            on_generation(gen, losses)
    return np.clip(np.asarray(es.result.xfavorite, float), 0.0, 1.0)


def default_popsize(d: int) -> int:
    return 4 + int(3 * math.log(d))          # CMA-ES's own default


# ---------------------------------------------------------------- scoring a candidate

def candidate_bot(w: W.Weights, label: str = "candidate") -> Bot:
    return Bot(w.game, f"{BASE}:weights={label}", (("weights", w),), BASE)


def seat_shares(rs, cand: Bot, field_bot: Bot, players: int, seed: int, start: int, n: int,
                jobs: int = 1) -> np.ndarray:
    """(n,) the candidate's win share per game index start..start+n-1, averaged over the P
    seat rotations (it alone at seat s, the field elsewhere)."""
    total = np.zeros(n)
    for seat in range(players):
        bots = tuple(cand if s == seat else field_bot for s in range(players))
        spec = check_spec(rs, bots, players, None, seed)
        batch = max(1, math.ceil(n / jobs))
        for a, b, g, _ in iter_chunks(spec, n, batch, jobs, start):
            total[a - start:b - start] += g.sort("game")[f"s{seat}_share"].to_numpy()
    return total / players


# ---------------------------------------------------------------- training

@dataclass(frozen=True)
class Plan:
    popsize: int
    per_seat: int             # game indices per candidate (each played at every seat)
    generations: int
    eval_per_seat: int        # held-out game indices


def plan(d: int, players: int, budget: int, popsize: int | None = None,
         candidate_games: int | None = None) -> Plan:
    """How the budget is spent: generations x popsize candidates x per_seat x P games, then the
    held-out score; UserError if the budget cannot pay one generation."""
    pop = popsize or default_popsize(d)
    eval_per_seat = max(1, int(budget * EVAL_SHARE) // players)
    train = budget - eval_per_seat * players
    per_cand = candidate_games or min(CANDIDATE_GAMES, train // (pop * 4) or train // pop)
    per_seat = max(1, per_cand // players)
    generations = train // (pop * per_seat * players)
    if generations < 1:
        need = pop * players + players
        raise UserError(f"a budget of {budget} games cannot pay one generation of {pop} candidates x "
                        f"{players} seats (at least {need}, plus a fifth for the held-out score)",
                        key="--budget")
    return Plan(pop, per_seat, generations, eval_per_seat)


def check(rs, players: int, budget: int, seed: int, field_spec: str, out, overwrite: bool = False) -> Bot:
    """Every input check before a game is played; the field's Bot."""
    game = rs.game
    if not (W.weights_dir(game) / "default.toml").is_file():
        raise UserError(f"{game}'s greedy has no weights to train (no strategies/{game}/weights/default.toml)",
                        key="ruleset")
    W.schema(game)
    if not isinstance(budget, int) or budget < 1:
        raise UserError(f"must be a positive number of games, got {budget!r}", key="--budget")
    spec = run_spec(rs, field_spec, players, None, seed)          # player count, seed, field spec
    if out is not None:
        out = Path(out)
        if not out.parent.is_dir():
            raise UserError("its folder does not exist", file=str(out))
        check_output_file(out, overwrite, trained_file, "trained weights file")
    return spec.bots[0]


def trained_file(path: Path) -> bool:
    """Whether `path` holds weights this command wrote (its provenance names the optimiser)."""
    try:
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    prov = doc.get("provenance")
    return (isinstance(prov, dict) and str(prov.get("optimiser", "")).startswith("CMA-ES")
            and "eval_win_share" in prov and isinstance(doc.get("weights"), dict))


def train(rs, players: int = 4, budget: int = 20_000, seed: int = 0, field: str = BASE, jobs: int = 1,
          popsize: int | None = None, candidate_games: int | None = None, progress: bool = False) -> Trained:
    """Fit rs.game's greedy weights (module docstring); nothing is written."""
    game = rs.game
    field_bot = check(rs, players, budget, seed, field, None)
    schema = W.schema(game)
    lo = np.array([b[0] for b in schema.bounds], float)
    span = np.array([b[1] - b[0] for b in schema.bounds], float)
    p = plan(len(schema.names), players, budget, popsize, candidate_games)
    bar = None
    if progress:
        from tqdm import tqdm  # start-up: tqdm, only when a progress bar is drawn
        bar = tqdm(total=budget, unit="game", desc=f"train {game}", leave=False)
    played = [0]

    def weights_of(x) -> W.Weights:
        return W.from_vector(game, lo + np.asarray(x) * span, "candidate")

    def score(w: W.Weights, start: int, n: int) -> np.ndarray:
        y = seat_shares(rs, candidate_bot(w), field_bot, players, seed, start, n, jobs)
        played[0] += n * players
        return y

    history = []

    def evaluate(X, gen):
        start = gen * p.per_seat                     # fresh indices each generation, shared within it
        seen: dict = {}                              # rounded weights -> share (same games: same result)
        out = []
        for x in X:
            w = weights_of(x)
            if w.values not in seen:
                seen[w.values] = float(score(w, start, p.per_seat).mean())
            if bar is not None:
                bar.update(p.per_seat * players)
            out.append(-seen[w.values])
        history.append({"generation": gen, "best": -min(out), "mean": -float(np.mean(out))})
        if bar is not None:
            bar.set_postfix(best=f"{-min(out):.3f}", fair=f"{1 / players:.3f}")
        return out

    x0 = (np.array(schema.defaults, float) - lo) / span
    x = optimise(evaluate, x0, p.generations, p.popsize, seed)
    best = weights_of(x)
    held_start = p.generations * p.per_seat
    y = score(best, held_start, p.eval_per_seat)
    if bar is not None:
        bar.update(p.eval_per_seat * players)
        bar.close()
    _, lo95, hi95 = mean_interval(y)          # indices are independent deals
    provenance = {
        "game": game, "variant": rs.variant, "ruleset_hash": rs.hash, "players": players,
        "budget": budget, "games_played": played[0], "seed": seed, "field": field_bot.name,
        "optimiser": "CMA-ES (cma)", "popsize": p.popsize, "generations": p.generations,
        "games_per_candidate": p.per_seat * players,
        "eval_games": p.eval_per_seat * players,
        "eval_game_indices": [held_start, held_start + p.eval_per_seat],
        "eval_win_share": round(float(y.mean()), 6), "eval_interval_95": [round(lo95, 6), round(hi95, 6)],
        "fair_share": round(1 / players, 6),
    }
    return Trained(W.Weights(game, best.names, best.values, "trained"), provenance, history)


def write(trained: Trained, out) -> Path:
    """Write the weights TOML atomically: a temporary file beside `out`, then a rename."""
    out = Path(out)
    text = W.to_toml(trained.weights, trained.provenance, W.comments(trained.weights.game))
    write_text(out, text)
    W.load(trained.weights.game, out)          # what was written reads back as valid weights
    return out


def default_out(game: str) -> Path:
    return Path(f"trained-{game}.toml")


__all__ = ["train", "write", "optimise", "plan", "seat_shares", "candidate_bot", "Trained", "make_bot"]
