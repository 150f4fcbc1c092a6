"""Every game's search protocol (docs/rollout.md), the part every game shares: a branch
plays the option it tests. How many decision points to try are the game's facts
(tests/data/games/<game>.toml, [search]); the determinization and the options of each game
are tested beside its engine."""
import pytest

from simcore.games import get_game
from strategies.registry import Bot, make_bots

from .kit import decision_points, facts, games_with

SEED, GAME = 4, 2


@pytest.mark.parametrize("game", games_with("search"))
def test_branch_plays_the_forced_option(game):
    """Each continuation plays the option it tests: from the same state and keys, different
    options give different games (a branch that ignored its option, as one did when the
    greedy fallback's own script rows came first, gives every option the same rows)."""
    g = get_game(game)
    rs = g.data.load()
    fact = facts(game)["search"]
    base = g.default_bot
    forcing = Bot(game, f"script:then={base}", (("choices", ()), ("then", base)), "script")
    tried = differs = 0
    for state, (seat, kind) in decision_points(game, 4, SEED, GAME):
        labels = g.legal_options(rs, state, seat, kind)
        options = [i for i, lab in enumerate(labels) if lab not in labels[:i]]
        if len(options) < fact["min_options"]:
            continue
        bots = [forcing if s == seat else make_bots(game, base, 1)[0] for s in range(4)]
        out = g.branch(rs, [state, state], seat, kind, options, bots, SEED, GAME, [11, 12])
        rows = {(tuple(out["score"][b]), tuple(out["acquired"][b].ravel())) for b in range(0, len(options) * 2, 2)}
        differs += len(rows) > 1
        tried += 1
        if tried == fact["points"]:
            break
    assert tried == fact["points"] and differs >= fact["changed_at_least"], (tried, differs)
