"""Growing a species: "A species cannot go beyond Size 7 or Population 7" (the rulebook,
Play Cards). A grow play on a species at its cap is not a play: both engines skip it and the
card stays in hand; one below the cap grows it by one."""
import copy

import numpy as np
import pytest

from simcore.games.evolution import rules as R
from simcore.games.evolution.reference_cards import play_action
from simcore.games.evolution.reference_state import Game
from simcore.games.evolution.state import from_games, to_game

from evolution_kit import ENGINES, Table, board


def grow(engine: str, g: Game, kind: str, card: int) -> tuple[bool, Game]:
    """Seat 0 plays `card` to grow its species 0 (kind 'pop' or 'body'); (applied, game after)."""
    g = copy.deepcopy(g)
    if engine == "reference":
        return play_action(g, g.players[0], (kind, card, 0)), g
    E, st = R.Engine(g.rules, g.cards), from_games([g])
    done = R.play_action(E, st, np.zeros(1, np.int64), 0, {"pop": R.POP, "body": R.BODY}[kind], card, 0, 0)
    return bool(done[0]), to_game(st, 0, g)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", ["pop", "body"])
def test_a_grow_play_at_the_cap_is_skipped_and_the_card_stays_in_hand(engine, kind):
    t = Table()
    cap = t.rules.max_population if kind == "pop" else t.rules.max_body
    g = t.game([[t.sp(**{kind: cap})], [t.sp()]], hands={0: ["fertile"]})
    card = g.players[0].hand[0]
    done, after = grow(engine, g, kind, card)
    assert not done
    assert card in after.players[0].hand and card not in after.discard
    assert board(after, 0) == board(g, 0)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", ["pop", "body"])
def test_a_grow_play_below_the_cap_grows_by_one_and_discards_the_card(engine, kind):
    t = Table()
    cap = t.rules.max_population if kind == "pop" else t.rules.max_body
    g = t.game([[t.sp(**{kind: cap - 1})], [t.sp()]], hands={0: ["fertile"]})
    card = g.players[0].hand[0]
    done, after = grow(engine, g, kind, card)
    sp = after.players[0].species[0]
    assert done and (sp.pop if kind == "pop" else sp.body) == cap
    assert card not in after.players[0].hand and card in after.discard
