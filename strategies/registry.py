"""The bot registry: every bot of every game is defined under strategies/ and registered here.

A bot is registered by name for one game, with two faces: the policy the game's batch
engine calls (numpy functions over the batch, or compiled code for a compiled engine) and
the policy its one-game reference engine calls. The engines never name a bot: the layer
above (experiments, the CLI, tests) turns names into `Bot` objects here and hands them to
the game adapter, which asks each for the face its engine needs.

Adding a bot is one new file under strategies/<game>/ that calls `register`: the game's
package imports every module beside it (`discover`), so nothing else changes.

    from strategies.registry import register

    @register("evolversi", "cautious", doc="greedy, but never steals")
    class Cautious:
        def batch(self, rs): ...            # what the batch engine's decision interface needs
        def reference(self, rs, seat): ...  # what the reference engine's bots offer

Users name bots by spec, `base[:key=value,...][+favor:ENTITY|+avoid:ENTITY]` (make_bot): the
options go to the class's constructor (a bad key is an error naming the keys it takes); a
modifier (restricted play: docs/restricted-play.md) goes to a class that declares
`restrictable = True` as `restriction=Restriction(mode, entity)`.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

from simcore.errors import UserError

# (game, name) -> the registered class; filled as strategies/<game>/ modules are imported
_BOTS: dict[tuple[str, str], type] = {}
_DOCS: dict[tuple[str, str], str] = {}


def register(game: str, name: str, doc: str = ""):
    """Class decorator: register a bot class (with `batch(rs)` and `reference(rs, seat)`)."""
    def wrap(cls):
        key = (game, name)
        if key in _BOTS and _BOTS[key] is not cls:
            raise ValueError(f"bot {name!r} is registered twice for {game}")
        _BOTS[key] = cls
        _DOCS[key] = doc or (cls.__doc__ or "").strip().split("\n")[0]
        return cls
    return wrap


def discover(package: str, path) -> None:
    """Import every module of a game's bot package, so each registers its bots."""
    for mod in pkgutil.iter_modules(path):
        importlib.import_module(f"{package}.{mod.name}")


def _load(game: str) -> None:
    try:
        importlib.import_module(f"strategies.{game}")
    except ModuleNotFoundError as e:
        if e.name != f"strategies.{game}":
            raise
    importlib.import_module("strategies.rollout")     # search bots, for games with the protocol


def bot_names(game: str) -> list[str]:
    """Names of the bots registered for a game, in registration order."""
    _load(game)
    return [n for (g, n) in _BOTS if g == game]


def bot_doc(game: str, name: str) -> str:
    _load(game)
    return _DOCS.get((game, name), "")


@dataclass(frozen=True)
class Restriction:
    """Restricted play: `favor` prefers, at every decision where some option
    acquires, plays or uses `entity`, an option that does (its usual choice among those);
    `avoid` never takes such an option unless every option does."""

    mode: str            # "favor" | "avoid"
    entity: str          # as the spec wrote it (matched to the game's names case-insensitively)

    def ids(self, game: str, rs) -> list[int]:
        """The game's entity ids (adapter.entities(rs) positions) named `entity`."""
        from simcore.games import get_game
        names = get_game(game).entities(rs)
        ids = [i for i, n in enumerate(names) if str(n).casefold() == self.entity.casefold()]
        if not ids:
            import difflib
            close = difflib.get_close_matches(self.entity, [str(n) for n in names], n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            kind = get_game(game).entity_kind
            raise UserError(f"unknown {kind} {self.entity!r} for {game}{hint} ({kind}s: "
                            f"{', '.join(dict.fromkeys(map(str, names)))})", key="bots")
        return ids

    def index(self, game: str, rs) -> int:
        """The entity's id, for games whose entity names are unique (compiled bots read it)."""
        return self.ids(game, rs)[0]


MODIFIERS = ("favor", "avoid")
SPEC_FORM = "base[:key=value,...][+favor:ENTITY|+avoid:ENTITY]"


@dataclass(frozen=True)
class Bot:
    """One seat's bot, as the engines receive it: picklable, so it travels to workers.

    `name` is what result rows record: the full spec (e.g. "greedy+favor:carnivore").
    `base` is the registered bot it builds on ("" = `name`); `restriction` its +favor/+avoid
    modifier, handed to the bot class as `restriction=`. `batch_policy(rs)` and
    `reference_policy(rs, seat)` build the policy objects the game's two engines call
    (docs/games/<game>.md lists the decisions each must answer).
    """

    game: str
    name: str
    options: tuple = ()          # (key, value) pairs handed to the bot class, e.g. a script
    base: str = ""
    restriction: Restriction | None = None

    def _impl(self):
        _load(self.game)
        opts = dict(self.options)
        if self.restriction is not None:
            opts["restriction"] = self.restriction
        return _BOTS[(self.game, self.base or self.name)](**opts)

    def batch_policy(self, rs):
        return self._impl().batch(rs)

    def reference_policy(self, rs, seat: int):
        return self._impl().reference(rs, seat)

    @property
    def plays_games(self) -> bool:
        """A search bot (strategies/rollout.py) plays whole games itself (protocol.BotLike)."""
        _load(self.game)
        return bool(getattr(_BOTS.get((self.game, self.base or self.name)), "plays_games", False))

    def play_games(self, rs, players: int, bots, seed: int, games, engine: str = "batch", log=None):
        return self._impl().play_games(rs, players, bots, seed, games, engine, log)

    def __str__(self) -> str:
        return self.name


def _bad(spec: str, why: str) -> UserError:
    return UserError(f"bad bot spec {spec!r}: {why}; expected {SPEC_FORM}", key="bots")


def _value(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def _option_keys(cls) -> list[str]:
    import inspect
    params = inspect.signature(cls.__init__).parameters
    return [k for k, p in params.items() if k not in ("self", "restriction")
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _default_ruleset(game: str):
    from simcore.games import get_game
    return get_game(game).data.load("default")


def make_bot(game: str, name: str, rs=None) -> Bot:
    """A Bot for one spec `base[:key=value,...][+favor:ENTITY|+avoid:ENTITY]`; one UserError
    naming the spec and what is expected if it is malformed, names an unknown bot, option,
    modifier or entity (checked against `rs`, else the game's default data)."""
    if not isinstance(name, str) or not name.strip():
        raise UserError(f"a bot name must be a non-empty word, got {name!r}; expected {SPEC_FORM}", key="bots")
    spec = name.strip()
    head, *mods = [part.strip() for part in spec.split("+")]
    base, _, opt_text = head.partition(":")
    base = base.strip()
    if not base:
        raise _bad(spec, "no bot name before ':' or '+'")
    known = bot_names(game)
    if base == "rollout" and base not in known:
        from simcore.games import get_game
        from simcore.games.protocol import missing_search as missing
        raise UserError(f"bot 'rollout' needs the search protocol, which {game} does not provide yet "
                        f"(missing: {', '.join(missing(get_game(game)))}; docs/rollout.md)", key="bots")
    if base not in known:
        import difflib
        close = difflib.get_close_matches(base, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        where = f" (in spec {spec!r})" if spec != base else ""
        raise UserError(f"unknown bot {base!r} for {game}{where}; bots for {game}: {', '.join(known)}{hint}",
                        key="bots")
    cls = _BOTS[(game, base)]
    options = []
    if ":" in head:
        keys = _option_keys(cls)
        for item in opt_text.split(","):
            key, eq, value = (x.strip() for x in item.partition("="))
            if not eq or not key or not value:
                raise _bad(spec, f"option {item.strip()!r} is not key=value")
            if key not in keys:
                takes = f"its options: {', '.join(keys)}" if keys else "it takes no options"
                raise _bad(spec, f"{base} has no option {key!r} ({takes})")
            options.append((key, _value(value)))
    restriction = None
    if len(mods) > 1:
        raise _bad(spec, "at most one +favor/+avoid modifier")
    if mods:
        mode, colon, entity = (x.strip() for x in mods[0].partition(":"))
        if mode not in MODIFIERS:
            raise _bad(spec, f"unknown modifier {mode!r} (modifiers: {', '.join(MODIFIERS)})")
        if not colon or not entity:
            raise _bad(spec, f"+{mode} needs an entity, e.g. +{mode}:NAME")
        if not getattr(cls, "restrictable", False):
            able = [n for n in known if getattr(_BOTS[(game, n)], "restrictable", False)]
            raise _bad(spec, f"{base} takes no +favor/+avoid (bots that do: {', '.join(able) or 'none'})")
        restriction = Restriction(mode, entity)
        try:
            restriction.ids(game, rs if rs is not None else _default_ruleset(game))
        except UserError as e:
            raise _bad(spec, e.message) from None
    check = getattr(cls, "check_options", None)
    if check is not None and options:      # e.g. a weights file: read it now, before any game
        check(dict(options))
    if getattr(cls, "plays_games", False):
        cls(**dict(options))               # a search bot checks its options now (k, base, kinds)
    if not options and restriction is None:
        return Bot(game, base)
    return Bot(game, spec, tuple(options), base, restriction)


def split_specs(text: str) -> list[str]:
    """"a,b:k=1,j=2+favor:X,c" -> ["a", "b:k=1,j=2+favor:X", "c"]: a comma piece that is a
    bare key=value continues the options of the spec before it."""
    out: list[str] = []
    for piece in text.split(","):
        key = piece.split("=", 1)[0]
        if out and "=" in piece and ":" not in key and "+" not in key and ":" in out[-1].split("+")[0]:
            out[-1] += "," + piece
        else:
            out.append(piece.strip())
    return out


def make_bots(game: str, names, players: int, rs=None) -> tuple[Bot, ...]:
    """Bots for every seat from one spec for all or one per seat ("a,b,c" or a list)."""
    if isinstance(names, Bot):
        names = [names]
    if isinstance(names, str):
        names = split_specs(names)
    names = list(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UserError(f"give one bot for every seat or one for all; got {len(names)} for {players} players",
                        key="bots")
    made: dict = {}
    out = []
    for n in names:
        if isinstance(n, Bot):
            out.append(n)
        else:
            if n not in made:
                made[n] = make_bot(game, n, rs)
            out.append(made[n])
    return tuple(out)
