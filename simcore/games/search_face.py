"""The three search-protocol members every game delegates to its own search.py
(docs/rollout.md): a game adapter that provides the protocol inherits them and adds
`search_kinds`, `search_until`, `score_sense`, `branch` and `state_outcome` itself.

search.py is imported lazily, at the first search: plain runs never load it."""
from __future__ import annotations

from importlib import import_module


class SearchFace:
    """decision_point, legal_options and determinize from `<the adapter's package>.search`."""

    def _search(self):
        return import_module(".search", type(self).__module__.rpartition(".")[0])

    def decision_point(self, rs, state):
        return self._search().decision_point(rs, state)

    def legal_options(self, rs, state, seat, kind) -> list:
        return self._search().legal_options(rs, state, seat, kind)

    def determinize(self, rs, state, seat, key) -> dict:
        return self._search().determinize(rs, state, seat, key)
