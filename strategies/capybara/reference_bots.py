"""Ernesto Capybara bots for the reference engine (docs/games/capybara.md section 13).

A bot answers one decision at a time: `choose(decision, view) -> option index`, with the
decision and view of simcore/games/capybara/reference_decisions.py.

- `random`: below(h, number of options), the draw the batch engine makes too.
- `greedy`: one-step look-ahead on the engine's `Board` (E(s), lower is better); ties
  go to the lowest option index.
- `script`: replays a list of {"kind", "option"} items (scenarios and tests).

`reference_policy(name, rs, seat, **options)` builds one of them.
"""
from __future__ import annotations

from ..script import ScriptBot
from ..uniform import RandomBot

from simcore.errors import UserError



def _argmin(scores) -> int:
    """Index of the lowest score; the lowest index among equals."""
    best = 0
    for i, s in enumerate(scores):
        if s < scores[best]:
            best = i
    return best


def E(board, s: int) -> int:
    """The greedy's evaluation of the board for seat s (lower is better for s): contract 13's
    (P - 1) D(s) - sum of the others' D, where D(x) = 2 x fatigue taken + the sum over strikes
    of fatigue x lead (2 if x alone has the most tokens, at least 1; 1 if tied for the most).

    One pass over the strikes (each strike's top count found once, not once per seat): the
    greedy asks this for every option of every decision, the reference engine's hot spot."""
    d = [2 * f for f in board.taken_fatigue]
    for t, f in zip(board.tokens, board.fatigue):
        if f is None:
            continue
        top = max(t)
        if top < 1:
            continue
        if t.count(top) == 1:            # a sole leader (the common case: no list built)
            d[t.index(top)] += 2 * f
        else:
            for x, n in enumerate(t):
                if n == top:
                    d[x] += f
    return (board.P - 1) * d[s] - (sum(d) - d[s])


class GreedyBot:
    """Deterministic one-step greedy player (contract section 13)."""

    name = "greedy"

    def __init__(self, rs, weights=None):
        from ..weights import load
        self.p = rs.params
        self.w = weights if weights is not None else load("capybara")

    def weight(self, P: int, name: str) -> int:
        """A weight (fatigue per opponent) in E's units at P players, as batch_greedy.weight."""
        return 2 * (P - 1) * self.w[name]

    def choose(self, decision, view) -> int:
        kind = decision.kind
        if kind in ("PLACE", "PLACE_OTHERS", "COMPLETE", "GATHER", "COPY_TOKENS"):
            i = decision.info
            return self.best_effect(view.board(), decision.seat, i["effect"], i["amount"], i["colour"],
                                    decision.options)[0]
        return getattr(self, "_" + kind.lower())(decision, view)

    # -- evaluation helpers ----------------------------------------------------------
    def best_effect(self, board, s, effect, amount, colour, options):
        """(index, E) of the option with the lowest E(s) after it; (None, E now) if no options."""
        if not options:
            return None, E(board, s)
        scores = [E(board.apply(effect, amount, colour, s, o), s) for o in options]
        k = _argmin(scores)
        return k, scores[k]

    def best_card(self, view, board, s, u):
        """The lowest E(s) over card u's effective effect options (E now if none)."""
        effect, amount = view.effective(u)
        colour = view.comps.card_colour[u]
        options = view.effect_options(s, effect, amount, colour)
        return self.best_effect(board, s, effect, amount, colour, options)[1]

    def best_placing(self, board, s, options, k):
        if not options:
            return E(board, s)
        scores = []
        for x, i in options:
            b = board.copy()
            b.place(x, i, k)
            scores.append(E(b, s))
        return min(scores)

    # -- one method per remaining kind -----------------------------------------------
    def _opening(self, d, view):
        board, s, k = view.board(), d.seat, self.p["opening_tokens"]
        scores = []
        for i in d.options:
            b = board.copy()
            b.place(s, i, k)
            scores.append(E(b, s))
        return _argmin(scores)

    def _discard_place(self, d, view):
        board, k = view.board(), self.p["discard_place_tokens"]
        scores = []
        for x, i in d.options:
            b = board.copy()
            b.place(x, i, k)
            scores.append(E(b, d.seat))
        return _argmin(scores)

    def _lock(self, d, view):
        board, s = view.board(), d.seat
        led = [(board.fatigue[i], -k) for k, i in enumerate(d.options)
               if board.leader(i) is not None and board.leader(i) != s]
        return -max(led)[1] if led else 0

    def _action(self, d, view):
        return _argmin(self.action_scores(d, view))

    def action_scores(self, d, view) -> list:
        """E(s) after each ACTION option (a discard: after its best placing, plus the cost
        of giving up a Capybaranka)."""
        s, board = d.seat, view.board()
        penalty = self.weight(view.P, "keep_cancel")
        place_now = self.best_placing(board, s, view.discard_place_options(s), self.p["discard_place_tokens"])
        scores = []
        for verb, u in d.options:
            if verb == "play":
                scores.append(self.best_card(view, board, s, u))
            else:
                keep = penalty if view.comps.card_effect[u] == "cancel" else 0
                scores.append(place_now + keep)
        return scores

    def _next_card(self, d, view):
        s, board = d.seat, view.board()
        now = E(board, s)
        scores = [self.best_card(view, board, s, u) for u in d.options[1:]]
        if not scores:
            return 0
        k = _argmin(scores)
        return k + 1 if scores[k] < now - self.weight(view.P, "next_card_margin") else 0

    def _cancel(self, d, view):
        s, base = d.seat, d.info["base"]
        board = view.board()
        value = 0
        if base["option"] is not None:
            after = board.apply(base["effect"], base["amount"], base["colour"], base["actor"], base["option"])
            value = E(after, s) - E(board, s)
        hurt = value if d.info["depth"] % 2 == 0 else -value
        return 1 if hurt >= self.weight(view.P, "cancel_fatigue") else 0

    def _double(self, d, view):
        i, s = d.info, d.seat
        board = view.board()
        options = view.effect_options(s, i["effect"], i["amount"], i["colour"])
        _, best = self.best_effect(board, s, i["effect"], i["amount"], i["colour"], options)
        return 1 if options and best < E(board, s) - self.weight(view.P, "double_margin") else 0

    def _crown_complete(self, d, view):
        board, s, i = view.board(), d.seat, d.info["slot"]
        after = board.copy()
        after.take(i)
        for j in (i - 1, i + 1):
            if 0 <= j < len(after.tokens) and after.fatigue[j] is not None and after.leader(j) is not None:
                after.take(j)
        return 1 if E(after, s) < E(board, s) - self.weight(view.P, "crown_margin") else 0

    def _peek(self, d, view):
        board, s, k = view.board(), d.seat, d.info["k"]
        mine = sum(f for i, f in enumerate(board.fatigue) if f is not None and board.leader(i) == s)
        theirs = sum(f for i, f in enumerate(board.fatigue)
                     if f is not None and board.leader(i) is not None and board.leader(i) != s)
        good = theirs > (view.P - 1) * mine
        revs = [j for j in range(k) if view.comps.is_revolution(view.deck[j])]
        others = [j for j in range(k) if j not in revs]
        return d.options.index(tuple(revs + others if good else others + revs))


def reference_policy(name: str, rs, seat: int, **options):
    """The reference form of bot `name` for one seat ("random", "greedy", "script")."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot(rs)
    if name == "script":
        return ScriptBot(seat, options.get("choices", ()))
    raise UserError(f"unknown capybara bot {name!r}; expected random, greedy or script", key="bots")
