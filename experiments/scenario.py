"""Scenario files: a game state, scripted choices, how far to play, what to expect.

The format is documented in docs/scenarios.md (and, for Evolversi, section 10 of
docs/games/evolversi.md). `run_scenario` runs one on either engine.
"""
from __future__ import annotations

from simcore.errors import UserError
from simcore.games import GAMES, get_game
from strategies.registry import Bot, make_bot


def _expect(doc: dict, key: str, kind, what: str, file: str) -> None:
    if key in doc and not isinstance(doc[key], kind):
        raise UserError(f"must be {what}, got {doc[key]!r}", file=file, key=key)


def _matches(expected, actual, path="") -> list[str]:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        out = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing")
            else:
                out += _matches(v, actual[k], f"{path}.{k}")
        return out
    if isinstance(expected, list) and isinstance(actual, list) and expected and isinstance(expected[0], dict):
        if len(expected) != len(actual):
            return [f"{path}: expected {len(expected)} items, got {len(actual)}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += _matches(e, a, f"{path}[{i}]")
        return out
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def _distinct_factions(ruleset, seats, file: str) -> None:
    """A game with factions seats each at most once (as `run --animals` requires)."""
    if ruleset not in GAMES or not isinstance(seats, list):
        return                                   # an unknown ruleset is reported where it is loaded
    game = get_game(ruleset)
    if not game.has_factions:
        return
    label, seen = game.faction_label, {}
    for i, seat in enumerate(seats):
        name = seat.get(label) if isinstance(seat, dict) else None
        if name is None:
            continue
        if name in seen:
            raise UserError(f"seats {seen[name]} and {i} are both the {label} {name!r}; each {label} can be "
                            "seated only once", file=file, key=f"state.seats[{i}].{label}")
        seen[name] = i


def run_scenario(doc: dict, engine: str, file: str = "scenario"):
    """Run one scenario dict; return (result dict, list of expectation mismatches)."""
    allowed = {"ruleset", "variant", "set", "players", "seed", "game", "bots", "choices", "until",
               "state", "expect", "description", "title"}
    bad = set(doc) - allowed
    if bad:
        raise UserError(f"unknown key(s) {sorted(bad)}; expected some of {sorted(allowed)}", file=file,
                        key=sorted(bad)[0])
    setup = doc.get("until") == "setup"
    for k in ("ruleset", "players") if setup else ("ruleset", "state"):
        if k not in doc:
            raise UserError("missing key" + (" (until setup plays a setup for this many players)" if k == "players"
                                             else ""), file=file, key=k)
    if setup and "state" in doc:
        raise UserError("until setup starts from the setup itself, not from a state", file=file, key="state")
    _expect(doc, "state", dict, "a table (the game state)", file)
    _expect(doc, "set", dict, "a table of parameter = value", file)
    _expect(doc, "choices", dict, 'a table {"seat": [{"kind": ..., "option": ...}, ...]}', file)
    _expect(doc, "expect", dict, "a table (partial state and/or outcome)", file)
    for k in ("seed", "game") + (("players",) if setup else ()):
        v = doc.get(k, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise UserError(f"must be a non-negative whole number, got {v!r}", file=file, key=k)
    _distinct_factions(doc.get("ruleset"), (doc.get("state") or {}).get("seats", []), file)
    try:
        game = get_game(doc["ruleset"])
        rs = game.data.load(doc.get("variant", "default"), overrides=doc.get("set", {}))
        players = doc["players"] if setup else len(doc["state"].get("seats", []))
        bots = doc.get("bots", "script")
        bots = [bots] * players if isinstance(bots, str) else list(bots)
        choices = {}
        for seat, items in doc.get("choices", {}).items():
            if not str(seat).isdigit() or not isinstance(items, list) or not all(isinstance(c, dict) for c in items):
                raise UserError('must map a seat number to a list of {"kind", "option"} tables', key=f"choices.{seat}")
            choices[int(seat)] = list(items)
        until = doc.get("until", "phase")
        if until not in ("setup", "turn", "phase", "round", "end"):
            raise UserError("must be setup, turn, phase, round or end", key="until")
        # a seat played by `script` replays its choices: they travel inside its bot
        bots = [Bot(game.name, "script", (("choices", tuple(choices.get(seat, ()))),)) if name == "script"
                else make_bot(game.name, name) for seat, name in enumerate(bots)]
        if setup:
            state, outcome = game.new_state(rs, players, bots, doc.get("seed", 0), doc.get("game", 0),
                                            engine=engine), None
        else:
            state, outcome = game.run_state(engine, rs, doc["state"], bots, doc.get("seed", 0),
                                            doc.get("game", 0), until)
    except UserError as e:
        if e.file is None:
            raise UserError(e.message, file=file, row=e.row, key=e.key) from None
        raise
    result = {"state": state, "outcome": outcome}
    return result, _matches(doc.get("expect", {}), result, "")


