"""The `rollout` bot: flat Monte Carlo search over the game protocol.

At a searched decision the bot tries every distinct legal option: for each it plays K
continuations to the end on the batch engine, all options x K games in one batch
(`Game.branch`), every seat played by the base policy (default: the game's default bot),
and takes the option with the best mean result: win share, then score margin (its score
against the best other seat's, in the game's `score_sense`); `rank=margin` compares the mean
margin first, then the win share. Ties go to the lowest option.

Defaults are data owned by each game's bots: strategies/<game>/rollout.toml, `[rollout]`
base / k / rank and the `source` (the measurement) behind them; without the file, the game's
default bot, K = 16, rank=win. An option the spec gives always wins (docs/rollout.md, "Defaults").

No cheating: continuation k starts from `Game.determinize(state, seat, key_k)`, the state
with what the seat cannot see re-dealt consistently with what it saw. Reproducible:
key_k = rng.key(seed, game, rng.SEARCH, n, seat, k) for the game's n-th searched decision,
derived from the decision's address (not a state field: not every game's state counts turns),
and the same k uses the same determinization and streams for every option (common random
numbers: a 16-continuation comparison is then sharp).

The compiled engines cannot call Python mid-game, so this bot is a driver, not a policy
(`plays_games = True`, protocol.BotLike): the runner hands it the whole game. It plays one
game at a time from `Game.new_state`, turn by turn with `Game.run_state(until=
Game.search_until)`; at a searched decision point (`Game.decision_point`) of a rollout
seat it forces the chosen option through a script bot that falls back to the base bot
(`script:then=BASE`); every other decision is the base bot's. docs/rollout.md.

    balancelab run capybara --bots rollout:k=16,base=greedy,greedy,greedy,greedy
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

import numpy as np

from simcore import rng
from simcore.errors import UserError
from simcore.games import GAMES, get_game
from simcore.games.protocol import missing_search as missing

from .registry import _BOTS, Bot, bot_names, register

HERE = Path(__file__).resolve().parent
RANKS = ("win", "margin")          # win: win share, then margin (the default); margin: margin first
DEFAULT_KEYS = ("base", "k", "rank", "source")


def defaults_file(game: str) -> Path:
    return HERE / game / "rollout.toml"


@lru_cache(maxsize=None)
def defaults(game: str) -> dict:
    """The game's rollout defaults, {"base", "k", "rank", "source"}: strategies/<game>/rollout.toml's
    `[rollout]` table over the built-in ones (the game's default bot, K = 16, rank=win). An
    unreadable file or an unknown key is a UserError naming the file and the key; the values
    are checked as a spec's are (Rollout.__init__)."""
    out = {"base": get_game(game).default_bot, "k": 16, "rank": "win", "source": "built-in"}
    path = defaults_file(game)
    if not path.exists():
        return out
    try:
        table = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise UserError(f"rollout defaults {path}: cannot read it ({e})", key="bots") from None
    body = table.get("rollout")
    if set(table) != {"rollout"} or not isinstance(body, dict):
        raise UserError(f"rollout defaults {path}: expected one [rollout] table, got {sorted(table)}", key="bots")
    bad = [k for k in body if k not in DEFAULT_KEYS]
    if bad:
        raise UserError(f"rollout defaults {path}: unknown key {bad[0]!r} (keys: {', '.join(DEFAULT_KEYS)})",
                        key="bots")
    out.update(body)
    return out


class Rollout:
    """Flat Monte Carlo search: `rollout:k=16,base=greedy,kinds=action,rank=win` (kinds:
    '/'-separated); an option not given comes from the game's defaults (`defaults`)."""

    plays_games = True
    game = ""                          # set by the per-game registration below

    def __init__(self, k=None, base="", kinds="", rank=""):
        g = get_game(self.game)
        table = defaults(self.game)
        k = table["k"] if k is None else k
        rank = str(rank or table["rank"])
        if rank not in RANKS:
            raise UserError(f"rollout: rank must be one of {', '.join(RANKS)}, got {rank!r}", key="bots")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise UserError(f"rollout: k (continuations per option) must be a whole number >= 1, got {k!r}",
                            key="bots")
        base = str(base or table["base"])
        script = _BOTS.get((self.game, "script"))
        able = [n for n in bot_names(self.game) if script is not None and _falls_back(script, n)]
        if base not in able:
            raise UserError(f"rollout: unknown base bot {base!r} for {self.game}; base bots: {', '.join(able)}",
                            key="bots")
        names = [x.strip() for x in str(kinds).split("/") if x.strip()] or list(g.search_kinds)
        bad = [x for x in names if x not in g.search_kinds]
        if bad:
            raise UserError(f"rollout: unknown decision kind {bad[0]!r} for {self.game}; kinds it can search: "
                            f"{', '.join(g.search_kinds)}", key="bots")
        self.k, self.base, self.kinds, self.rank = k, base, tuple(names), rank

    # the engines' faces: a rollout seat handed to an engine directly plays as its base
    def batch(self, rs):
        return Bot(self.game, self.base).batch_policy(rs)

    def reference(self, rs, seat):
        return Bot(self.game, self.base).reference_policy(rs, seat)

    def forcing(self, choices=()) -> Bot:
        """The base bot playing `choices` first (a script that falls back to it)."""
        return Bot(self.game, f"script:then={self.base}", (("choices", tuple(choices)), ("then", self.base)),
                   "script")

    def keys(self, seed, game, n, seat) -> list[int]:
        """The K continuation keys of the game's n-th searched decision (taken by `seat`)."""
        return [int(rng.key(seed, game, rng.SEARCH, n, seat, k)) for k in range(self.k)]

    def choose(self, rs, state, seat, kind, options, seed, game, n=0) -> int:
        """The index into `options` (option indices of the decision) with the best mean result;
        `n`: the decision's place among the game's searched decisions (its address)."""
        g = get_game(self.game)
        keys = self.keys(seed, game, n, seat)
        states = [g.determinize(rs, state, seat, key) for key in keys]
        P = len(state["seats"])
        bots = [self.forcing() if s == seat else Bot(self.game, self.base) for s in range(P)]
        # options that cannot have the best win share left out (exact: only where win share
        # ranks first; under rank=margin every option is played whole)
        pruned = getattr(g, "branch_pruned", None) if self.rank == "win" else None
        if pruned is not None:
            out, live = pruned(rs, states, seat, kind, options, bots, seed, game, keys)
        else:
            out, live = g.branch(rs, states, seat, kind, options, bots, seed, game, keys), None
        win, margin = result_of(out, seat, getattr(g, "score_sense", 1))
        win = win.reshape(len(options), self.k).mean(axis=1)
        margin = margin.reshape(len(options), self.k).mean(axis=1)
        if live is not None:
            win = np.where(live, win, -np.inf)
        first, second = (win, margin) if self.rank == "win" else (margin, win)
        return max(range(len(options)), key=lambda i: (round(first[i], 9), round(second[i], 9), -i))

    def play_games(self, rs, players, bots, seed, games, engine="batch", log=None) -> dict:
        return play_games(self.game, rs, players, bots, seed, games, engine, log)


def _falls_back(script, name) -> bool:
    try:
        script(then=name)
    except (UserError, TypeError):
        return False
    return True


def result_of(out, seat, sense):
    """Per row of an Outcome: the seat's win share and its score margin (own score minus the
    best other seat's, signed so that higher is better)."""
    winner = np.asarray(out["winner"], bool)
    share = np.where(winner[:, seat], 1.0 / np.maximum(winner.sum(axis=1), 1), 0.0)
    score = sense * np.asarray(out["score"], np.float64)
    others = np.delete(score, seat, axis=1)
    return share, score[:, seat] - others.max(axis=1)


def play_games(game_name, rs, players, bots, seed, games, engine="batch", log=None) -> dict:
    """Outcome (protocol.Outcome, one row per game of `games`) of games with search bots."""
    rows = [play_one(game_name, rs, players, bots, seed, int(k), engine, log) for k in np.asarray(games)]
    if not rows:
        raise UserError("no games to play", key="games")
    out = {k: np.concatenate([r[k] for r in rows]) for k in ("score", "winner", "rounds", "end_reason",
                                                             "faction", "acquired")}
    # np.ma: an extra a game cannot know (masked, protocol.Outcome) stays masked
    out["extra"] = {k: np.ma.concatenate([r["extra"][k] for r in rows]) for k in rows[0]["extra"]}
    return out


def play_one(game_name, rs, players, bots, seed, game, engine="batch", log=None) -> dict:
    """One game: searched decisions by each rollout seat, everything else by the bots."""
    g = get_game(game_name)
    searchers = [b._impl() if getattr(b, "plays_games", False) else None for b in bots]
    plain = [sr.forcing() if sr else b for sr, b in zip(searchers, bots)]
    state = g.new_state(rs, players, plain, seed, game)
    n = 0                    # searched decisions so far: each has its own continuation keys
    seat_of = getattr(g, "decision_seat", None)      # optional: decision_point's seat, cheaply
    while True:
        if seat_of is None:
            point = g.decision_point(rs, state)
        else:
            at = seat_of(rs, state)
            point = g.decision_point(rs, state) if at is not None and searchers[at] else None
        now = plain
        if point is not None and searchers[point[0]] and point[1] in searchers[point[0]].kinds:
            seat, kind = point
            sr = searchers[seat]
            labels = g.legal_options(rs, state, seat, kind)
            firsts = [i for i, lab in enumerate(labels) if lab not in labels[:i]]   # distinct moves
            best = firsts[sr.choose(rs, state, seat, kind, firsts, seed, game, n)] if len(firsts) > 1 else firsts[0]
            n += 1
            now = list(plain)
            now[seat] = sr.forcing([{"kind": kind, "option": best}])
            if log is not None:
                log.append(f"rollout seat {seat}: {kind} option {best} {labels[best]} "
                           f"(searched {len(firsts)} of {len(labels)} options x {sr.k})")
        state, raw = g.run_state(engine, rs, state, now, seed, game, g.search_until,
                                 log=log if engine == "reference" else None)
        if raw is not None:
            return g.state_outcome(rs, players, raw)


def _register() -> None:
    """`rollout` for every game whose adapter provides the search protocol."""
    for name in GAMES:
        if not missing(get_game(name)) and (name, "rollout") not in _BOTS:
            register(name, "rollout", doc="flat Monte Carlo search on the batch engine (docs/rollout.md)")(
                type(f"Rollout_{name}", (Rollout,), {"game": name}))


_register()
