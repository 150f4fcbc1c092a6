"""Rapina: "Steal an Evolution token from another animal. You may also steal 1 more" (rulebook,
Fury Example card). The second steal is a MORE decision of the actor, asked after the first
steal, on both engines; the greedy bot takes it."""
import pytest

from evolversi_kit import batch_run_state, ref_run_state
from simcore.errors import UserError
from simcore.games.evolversi.schema import DATA_DIR, GAME_DATA

RS = GAME_DATA.load()
RUN = {"batch": batch_run_state, "reference": ref_run_state}


def _state(mantis_tokens):
    return {"round": 1, "phase": "actions", "order": [0, 1], "turn": 0, "totem": 1,
            "market": ["Ali", "Branchie", "Zanne"],
            "seats": [{"animal": "Panda", "tokens": 0, "above": ["Occhiaie"], "below": ["Rapina"]},
                      {"animal": "Mantis", "tokens": mantis_tokens, "above": ["Artigli"], "below": ["Istinto"]}]}


@pytest.mark.parametrize("engine", ["batch", "reference"])
@pytest.mark.parametrize("more,mantis_before,stolen", [(0, 3, 1), (1, 3, 2), (1, 1, 1), (0, 0, 0), (1, 0, 0)])
def test_rapina_steals_one_then_one_more_only_if_the_actor_chooses(engine, more, mantis_before, stolen):
    choices = {0: [{"kind": "TARGET", "option": 0}, {"kind": "MORE", "option": more}, {"kind": "BUY", "option": 0}]}
    after, _ = RUN[engine](RS, _state(mantis_before), None, 1, 0, "turn", choices)
    panda, mantis = after["seats"]
    assert (panda["tokens"], mantis["tokens"]) == (stolen, mantis_before - stolen)
    assert choices[0] == []            # the MORE decision was asked, even with nothing left to steal


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_the_more_decision_comes_after_the_target_and_before_the_purchase(engine):
    choices = {0: [{"kind": "TARGET", "option": 0}, {"kind": "BUY", "option": 0}]}
    with pytest.raises(UserError, match="gives a BUY choice, but the game asks a MORE decision"):
        RUN[engine](RS, _state(3), None, 1, 0, "turn", choices)


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_the_greedy_bot_takes_the_second_steal(engine):
    after, _ = RUN[engine](RS, _state(3), "greedy", 1, 0, "turn")
    assert after["seats"][1]["tokens"] == 1


def test_more_is_only_allowed_on_a_single_target_amount(tmp_path):
    text = (DATA_DIR / "cards.csv").read_text().splitlines()
    header = text[0].split(",")
    i = next(k for k, line in enumerate(text) if line.startswith("Pigrizia,"))
    cells = text[i].split(",")
    cells[header.index("more")] = "1"                    # swap_market cannot take "1 more"
    text[i] = ",".join(cells)
    (tmp_path / "cards.csv").write_text("\n".join(text) + "\n")
    with pytest.raises(UserError, match="more = 1 needs an own_turn card"):
        GAME_DATA.load(data_dir=tmp_path)
