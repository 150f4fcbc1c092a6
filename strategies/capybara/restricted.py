"""Restricted play for Capybara's greedy: `greedy+favor:CARD`, `greedy+avoid:CARD`.

The decisions that play a card of a name (strategies/restrict.py's rule): ACTION (play u),
NEXT_CARD (play u) and CANCEL (yes: answer with the lowest-uid Capybaranka in hand). The
batch form is batch_greedy.greedy_policy, whose data (mode, name id) ride in the seat's first
script row; the reference form below makes the same choices.
"""
from __future__ import annotations

from ..restrict import allowed
from .reference_bots import E, GreedyBot

MODES = {"favor": 1, "avoid": 2}        # batch_greedy.FAVOR, AVOID


def _argmin_allowed(scores, ok) -> int:
    best = None
    for i, (x, o) in enumerate(zip(scores, ok)):
        if o and (best is None or x < scores[best]):
            best = i
    return best


class RestrictedGreedyBot(GreedyBot):
    """The reference greedy with one card name favoured or avoided."""

    def __init__(self, rs, mode: str, ent: int, weights=None):
        super().__init__(rs, weights)
        self.mode, self.ent = mode, ent

    def _named(self, view, u) -> bool:
        return u is not None and view.comps.names.index(view.comps.card_name[u]) == self.ent

    def _action(self, d, view):
        ok = allowed([verb == "play" and self._named(view, u) for verb, u in d.options], self.mode)
        return _argmin_allowed(self.action_scores(d, view), ok)

    def _next_card(self, d, view):
        """Stop unless an allowed card beats the board now; a favouring bot must play one."""
        ok = allowed([k > 0 and self._named(view, u) for k, u in enumerate(d.options)], self.mode)
        s, board = d.seat, view.board()
        best, arg = E(board, s) - self.weight(view.P, "next_card_margin"), (0 if ok[0] else None)
        for k in range(1, len(d.options)):
            if not ok[k]:
                continue
            e = self.best_card(view, board, s, d.options[k])
            if arg is None or e < best:
                best, arg = e, k
        return arg if arg is not None else 0

    def _cancel(self, d, view):
        cancels = [u for u in view.hands[d.seat] if view.comps.card_effect[u] == "cancel"]
        hit = bool(cancels) and self._named(view, min(cancels))
        ok = allowed([False, hit], self.mode)
        if ok == [True, True]:
            return super()._cancel(d, view)
        return 1 if ok[1] else 0
