"""The reference engine's replay log reads like a game record: round by round, with card
and trait names (never internal tuples), rounds numbered from 1 as in the result line."""
from __future__ import annotations

from simcore.games.evolution import reference as ref
from simcore.games.evolution.schema import rules_for
from strategies.evolution.greedy import Greedy
from strategies.evolution.random_bot import RandomBot
from strategies.evolution.silly import Silly


def test_replay_log_is_readable():
    rules, cards = rules_for("default")
    bots = [RandomBot(), Silly(), Greedy()]
    log: list[str] = []
    out = ref.play_one(rules, cards, 3, bots, 1, 3, log=log)
    # logging changes nothing: the same game without a log
    plain = ref.play_one(rules, cards, 3, bots, 1, 3)
    assert (out["score"], out["rounds"], out["end_reason"]) == \
        (plain["score"], plain["rounds"], plain["end_reason"])

    round1 = [line for line in log if line.startswith("Round 1 · ")]
    assert any(line.startswith("Round 1 · Deal: P") and " gets " in line for line in round1)
    assert any(line.startswith("Round 1 · Food cards: P") and " gives " in line
               and "-> Watering Hole " in line for line in round1)
    assert any(line.startswith("Round 1 · Play: P")
               and ("creates a new species" in line or " adds " in line or " grows " in line)
               for line in round1)
    assert any(line.startswith("Round 1 · Feeding: P") for line in round1)
    assert any(line.startswith("Round 1 · End of feeding: P") for line in round1)
    assert not any(line.startswith("Round 0") for line in log)
    # rounds are numbered as the result counts them, and the last one is in the log
    assert any(line.startswith(f"Round {out['rounds']} · ") for line in log)
    assert not any(line.startswith(f"Round {out['rounds'] + 1} · Play") for line in log)
    # names, not tuples or lists
    assert not [line for line in log if "('" in line or "[" in line]
    # card names such as "Carnivore (3)", and the final scores
    assert any("(" in line and ")" in line for line in round1 if "Deal: P" in line)
    assert sum(line.startswith("Final score: P") for line in log) == 3
