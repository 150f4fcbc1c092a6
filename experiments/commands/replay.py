"""`balancelab replay`: the readable log of one game from the reference engine, checked
against the batch engine (exit code 1 when they differ)."""
from __future__ import annotations

import numpy as np

from simcore.errors import UserError
from simcore.runner import driver, play

from .options import add_ruleset_options, spec_of

HELP = ("Print the readable log of one game from the reference engine, then check that the batch engine "
        "played the same game (exit code 1 if not).",
        ["balancelab replay evolversi --seed 0 --game 3",
         "balancelab replay evo --bots rollout:k=8,greedy,greedy,greedy --game 0"])


def register(subparsers) -> None:
    p = subparsers.add_parser("replay", help="the readable log of one game (reference engine), checked against the batch engine")
    add_ruleset_options(p, games=False)
    p.add_argument("--game", type=int, required=True, help="game index K")
    p.set_defaults(func=cmd_replay)


def cmd_replay(args) -> int:
    game, rs, spec = spec_of(args)
    if args.game < 0:
        raise UserError(f"must be >= 0, got {args.game}", key="--game")
    log: list[str] = []
    fac = None if spec.factions is None else list(spec.factions)
    ref = play(game, rs, spec.players, list(spec.bots), spec.seed, [args.game], fac, "reference", log)
    if driver(spec.bots) is not None:               # a search bot's game: rows of one game
        ref = {k: v[0] for k, v in ref.items() if k != "extra"}
    for line in log:
        print(line)
    batch = play(game, rs, spec.players, list(spec.bots), spec.seed, np.array([args.game]), fac)
    same = (list(np.asarray(batch["score"][0])) == list(ref["score"])
            and list(np.asarray(batch["winner"][0])) == list(ref["winner"])
            and int(batch["rounds"][0]) == int(ref["rounds"]))
    names = game.factions(rs)
    winners = [f"seat {s} ({names[int(ref['faction'][s])]})" for s in range(spec.players) if ref["winner"][s]]
    print()
    print(f"Result (reference engine): {', '.join(winners) or 'no winner'}; "
          f"{game.score_label}s {list(map(int, ref['score']))}; rounds {int(ref['rounds'])}; "
          f"end {game.end_reasons[int(ref['end_reason'])]}")
    print(f"Batch engine, game {args.game}: {game.score_label}s {list(map(int, batch['score'][0]))}; "
          f"rounds {int(batch['rounds'][0])} -> {'the same result' if same else 'A DIFFERENT RESULT'}")
    return 0 if same else 1
