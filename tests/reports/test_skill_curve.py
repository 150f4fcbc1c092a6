"""Balance across skill: planted knockouts whose effect changes sign between a weak and a strong
bot are flagged in words; effects of one sign, or an interval that includes 0, are not."""
from __future__ import annotations

import numpy as np
import polars as pl

from experiments.commands.skill import write_outputs
from reports.measures import skill_curve as S
from reports.page import skill as page

PLAYERS = 4


def paired_games(n: int, p_base: float, p_off: float, seed: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """n games of 4 seats; seat 0 holds entity 0 in half of them and wins with probability p_base
    (p_off with its effect knocked out) from the same uniform draw, so both arms are the same games;
    the other games come out identical in both arms."""
    rng = np.random.default_rng(seed)
    holds = rng.random(n) < 0.5
    u = rng.random(n)
    other = rng.integers(1, PLAYERS, n)                      # who wins when seat 0 does not

    def frame(p: float) -> pl.DataFrame:
        winner = np.where(holds & (u < p), 0, np.where(holds, other, rng_free_winner))
        cols = {"game": np.arange(n), "players": np.full(n, PLAYERS, np.int8)}
        for s in range(PLAYERS):
            cols[f"s{s}_share"] = (winner == s).astype(np.float32)
            cols[f"s{s}_score"] = (winner == s).astype(np.int16)
            cols[f"s{s}_has_0"] = holds if s == 0 else np.zeros(n, bool)
            cols[f"s{s}_bot"] = ["planted"] * n
        return pl.DataFrame(cols)

    rng_free_winner = rng.integers(0, PLAYERS, n)            # games without the entity: the same winner in both
    return frame(p_base), frame(p_off)


def curve(effects: dict[str, tuple[float, float]], ratings: dict[str, float], n: int = 4000) -> pl.DataFrame:
    rows = []
    for k, (bot, (p_base, p_off)) in enumerate(effects.items()):
        base, off = paired_games(n, p_base, p_off, seed=k)
        r = ratings[bot]
        rows += S.knockout_rows(base, {"Decoy": off}, {"Decoy": [0]}, "card", bot, (r, r - 0.1, r + 0.1), 1.96)
    return S.table(rows)


def test_an_effect_that_helps_the_weak_bot_and_hurts_the_strong_one_is_flagged_a_trap():
    c = curve({"weak": (0.6, 0.3), "strong": (0.2, 0.5)}, {"weak": -1.0, "strong": 1.0})
    weak, strong = (c.filter(pl.col("bot") == b).row(0, named=True) for b in ("weak", "strong"))
    assert weak["ci_low"] > 0.2 and weak["effect"] < 0.4          # planted +30 pp
    assert strong["ci_high"] < -0.2 and strong["effect"] > -0.4   # planted -30 pp
    assert weak["holds"] and strong["holds"]                       # games without it are identical
    flags = S.sign_changes(c)
    assert flags.height == 1
    f = flags.row(0, named=True)
    assert (f["trend"], f["weaker"], f["stronger"]) == (S.TRAP, "weak", "strong")
    assert "helps weak bots, hurts strong ones: a trap" in f["text"]
    assert f["text"].startswith("Card Decoy:") and "weak (rating -1.00)" in f["text"]


def test_the_reverse_is_an_experts_card_and_the_line_names_the_bots_either_side_of_the_turn():
    c = curve({"random": (0.1, 0.4), "middle": (0.15, 0.35), "best": (0.7, 0.3)},
              {"random": -2.0, "middle": 0.0, "best": 1.5})
    f = S.sign_changes(c).row(0, named=True)
    assert (f["trend"], f["weaker"], f["stronger"]) == (S.EXPERT, "middle", "best")
    assert "an expert's card" in f["text"] and not f["ratings_overlap"]


def test_effects_of_one_sign_are_not_flagged():
    c = curve({"weak": (0.7, 0.3), "strong": (0.5, 0.3)}, {"weak": -1.0, "strong": 1.0})
    assert (c["sign"] == 1).all()
    assert S.sign_changes(c).height == 0


def test_no_sign_change_is_called_when_one_end_includes_zero():
    c = curve({"weak": (0.6, 0.3), "strong": (0.4, 0.4)}, {"weak": -1.0, "strong": 1.0})
    assert c.filter(pl.col("bot") == "strong")["sign"][0] == 0
    assert S.sign_changes(c).height == 0


def test_a_verdict_line_says_whether_stronger_bots_agree():
    c = curve({"weak": (0.6, 0.3), "mid": (0.5, 0.3), "strong": (0.2, 0.5)},
              {"weak": -1.0, "mid": 0.0, "strong": 1.0})
    assert S.agreement(c, "decoy", "weak", "strong").startswith("stronger bots disagree: mid +")
    assert S.agreement(c, "Decoy", "strong", "weak").startswith("strong is the strongest bot")
    agree = curve({"weak": (0.6, 0.3), "strong": (0.5, 0.2)}, {"weak": -1.0, "strong": 1.0})
    assert S.agreement(agree, "Decoy", "weak", "strong").startswith("stronger bots agree in sign: strong +")
    assert S.agreement(agree, "Other", "weak", "strong") is None


def test_the_report_section_renders_every_row_and_the_flag(tmp_path):
    c = curve({"weak": (0.6, 0.3), "strong": (0.2, 0.5)}, {"weak": -1.0, "strong": 1.0})
    manifest = {"ruleset": "test", "variant": "default", "ruleset_hash": "0", "players": PLAYERS, "seed": 0,
                "games": 4000, "ratings": {"weak": [-1.0, -1.1, -0.9], "strong": [1.0, 0.9, 1.1]},
                "ratings_from": "ladder"}
    write_outputs(tmp_path, manifest, c, S.sign_changes(c))
    m, again = page.read(tmp_path)
    assert again.select("bot", "effect").equals(c.select("bot", "effect"))
    sec = page.section(m, again)
    assert sec["bots"] == ["weak", "strong"] and len(sec["rows"]) == 1
    assert len(sec["flags"]) == 1 and "a trap" in sec["flags"][0]
    assert sec["figure"].startswith("data:image/png;base64,")
    assert (tmp_path / "skill_curve.png").read_bytes()[:4] == b"\x89PNG"


def test_verdict_lines_are_checked_only_against_a_curve_of_the_same_rules():
    from reports.page.html import skill_context
    c = curve({"weak": (0.6, 0.3), "strong": (0.2, 0.5)}, {"weak": -1.0, "strong": 1.0})
    m = {"ruleset": "test", "variant": "default", "ruleset_hash": "aaaa", "players": PLAYERS, "seed": 0,
         "games": 4000, "ratings": {"weak": [-1.0, -1.1, -0.9], "strong": [1.0, 0.9, 1.1]}, "ratings_from": "ladder",
         "entity_kind": "card"}
    for hash_, expect in (("aaaa", "stronger bots disagree: strong -"), ("bbbb", None)):
        verdict = {"problems": [{"name": "Decoy", "bot": "weak", "direction": "strong"}]}
        run = {"points": [{"index": 0, "ruleset_hash": hash_}], "_skill": (m, c)}
        sec = skill_context(run, 0, verdict)
        assert len(sec["flags"]) == 1                       # the section shows whichever rules it played
        said = verdict["problems"][0].get("skill")
        assert said == expect if expect is None else said.startswith(expect), said


def faction_games(n: int, p_first: float, seed: int) -> pl.DataFrame:
    """n games of 4 seats, factions dealt at random; faction "Mole" wins with probability p_first."""
    rng = np.random.default_rng(seed)
    dealt = np.argsort(rng.random((n, PLAYERS)), axis=1)                # (n, seats) faction index per seat
    names = np.array(["Mole", "Owl", "Hare", "Crab"])
    mole_seat = np.argmax(dealt == 0, axis=1)
    others = (mole_seat + rng.integers(1, PLAYERS, n)) % PLAYERS
    winner = np.where(rng.random(n) < p_first, mole_seat, others)
    cols = {"game": np.arange(n), "players": np.full(n, PLAYERS, np.int8)}
    for s in range(PLAYERS):
        cols[f"s{s}_faction"] = names[dealt[:, s]].tolist()
        cols[f"s{s}_share"] = (winner == s).astype(np.float32)
    return pl.DataFrame(cols)


def test_a_faction_that_wins_with_weak_bots_and_loses_with_strong_ones_is_flagged():
    rows = S.faction_rows(faction_games(4000, 0.40, 1), "animal", "weak", (-1.0, -1.1, -0.9))
    rows += S.faction_rows(faction_games(4000, 0.12, 2), "animal", "strong", (1.0, 0.9, 1.1))
    c = S.table(rows)
    mole = c.filter(pl.col("entity") == "Mole").sort("rating")
    assert mole["sign"].to_list() == [1, -1]
    assert abs(mole["effect"][0] - 0.15) < 0.03 and abs(mole["effect"][1] + 0.13) < 0.03   # planted 40% and 12%
    # the other three share what Mole leaves: about 20% each with weak bots, 29% with strong ones
    flags = {r["entity"]: r for r in S.sign_changes(c).iter_rows(named=True)}
    assert sorted(flags) == ["Crab", "Hare", "Mole", "Owl"]
    assert flags["Mole"]["trend"] == S.TRAP and flags["Owl"]["trend"] == S.EXPERT
    assert "wins more than its share with weak bots, less with strong ones: a trap" in flags["Mole"]["text"]
    assert "an expert's pick" in flags["Owl"]["text"]
