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

    Computed as P D(s) - sum of every D, strike by strike (_strike_terms): the greedy asks
    this for every option of every decision, the reference engine's hot spot."""
    mine = 2 * board.taken_fatigue[s]          # D(s)
    total = 2 * sum(board.taken_fatigue)       # the sum of every D
    for t, f in zip(board.tokens, board.fatigue):
        m, n = _strike_terms(t, f, s)
        mine += m
        total += n
    return board.P * mine - total


def _strike_terms(t, f, s: int) -> tuple[int, int]:
    """One strike's part of E's two sums: (its part of D(s), its part of the sum of every D)."""
    if f is None:
        return 0, 0
    top = max(t)
    if top < 1:
        return 0, 0
    n = t.count(top)
    lead = 2 * f if n == 1 else f              # a sole leader's lead, or each tied leader's
    return (lead if t[s] == top else 0), n * lead


def placing_scores(board, s: int, options, tokens_on) -> list:
    """E(s) after each placing option (x, i): seat x places tokens_on(i) tokens on slot i
    (limited by its supply, Board.place). A placing changes one strike only, so each score
    is E now with that strike's terms replaced: no board copy per option."""
    now = E(board, s)
    P = board.P
    before = {}                                # slot -> its terms now (options share slots)
    out = []
    for x, i in options:
        t, f = board.tokens[i], board.fatigue[i]
        k = min(tokens_on(i), board.supply[x])
        if i not in before:
            before[i] = _strike_terms(t, f, s)
        mine, total = before[i]
        after = list(t)
        after[x] += k
        mine2, total2 = _strike_terms(after, f, s)
        out.append(now + P * (mine2 - mine) - (total2 - total))
    return out


def option_scores(board, s: int, effect: str, amount: int, colour: str, actor: int, options) -> list:
    """E(s) after each option, on the board Board.apply gives. An option changes a few
    strikes at most: the strikes it leaves as they were keep the terms they have now."""
    P = board.P
    terms = [_strike_terms(t, f, s) for t, f in zip(board.tokens, board.fatigue)]
    out = []
    for o in options:
        after = board.apply(effect, amount, colour, actor, o)
        mine, total = 2 * after.taken_fatigue[s], 2 * sum(after.taken_fatigue)
        for i, (t, f) in enumerate(zip(after.tokens, after.fatigue)):
            m, n = terms[i] if t == board.tokens[i] and f == board.fatigue[i] else _strike_terms(t, f, s)
            mine += m
            total += n
        out.append(P * mine - total)
    return out


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
        if effect == "place":            # Board.apply's "place": amount, doubled on a doubling slot
            scores = placing_scores(board, s, options,
                                    lambda i: amount * (board.factor if board.doubled[i] else 1))
        else:
            scores = option_scores(board, s, effect, amount, colour, s, options)
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
        return min(placing_scores(board, s, options, lambda i: k))

    # -- one method per remaining kind -----------------------------------------------
    def _opening(self, d, view):
        board, s, k = view.board(), d.seat, self.p["opening_tokens"]
        return _argmin(placing_scores(board, s, [(s, i) for i in d.options], lambda i: k))

    def _discard_place(self, d, view):
        board, k = view.board(), self.p["discard_place_tokens"]
        return _argmin(placing_scores(board, d.seat, d.options, lambda i: k))

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
