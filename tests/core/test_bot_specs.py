"""Bot specs `base[:key=value,...][+favor:ENTITY|+avoid:ENTITY]` (restricted play):
parsed where bot names are parsed; a bad spec is one UserError naming it and the form."""
from __future__ import annotations

import pytest

from experiments.cli import main
from simcore.errors import UserError
from simcore.games import get_game
from simcore.runner import check_spec, run_chunk
from strategies.registry import SPEC_FORM, Bot, make_bot, make_bots, split_specs


def test_a_favor_spec_keeps_its_full_text_as_the_name_and_builds_on_the_registered_bot():
    b = make_bot("evolution", "greedy+favor:Carnivore")
    assert (b.name, b.base, b.restriction.mode, b.restriction.entity) == \
        ("greedy+favor:Carnivore", "greedy", "favor", "Carnivore")
    assert make_bot("evolution", " greedy ") == Bot("evolution", "greedy")


def test_entity_names_match_the_games_spelling_case_insensitively():
    rs = get_game("evolution").data.load()
    assert make_bot("evolution", "greedy+avoid:FAT-TISSUE").restriction.index("evolution", rs) == \
        get_game("evolution").entities(rs).index("fat-tissue")


def test_a_list_of_specs_splits_on_commas_between_specs_not_inside_options():
    assert split_specs("a,b:k=1,j=2+favor:X,c") == ["a", "b:k=1,j=2+favor:X", "c"]
    assert split_specs("greedy+favor:carnivore,greedy") == ["greedy+favor:carnivore", "greedy"]


@pytest.mark.parametrize("spec,expect", [
    ("greedy+favour:carnivore", "unknown modifier 'favour'"),
    ("greedy+favor", "+favor needs an entity"),
    ("greedy+favor:", "+favor needs an entity"),
    ("greedy+favor:dragon", "unknown trait 'dragon'"),
    ("greedy+favor:carnivore+avoid:horns", "at most one"),
    ("random:depth=3", "takes no options"),
    ("greedy:depth=3", "has no option 'depth' (its options: weights)"),
    ("greedy:depth", "is not key=value"),
    ("random+favor:carnivore", "random takes no +favor/+avoid"),
    ("greedi+favor:carnivore", "did you mean 'greedy'"),
    ("+favor:carnivore", "no bot name"),
])
def test_a_bad_spec_is_one_user_error_naming_the_spec(spec, expect):
    with pytest.raises(UserError) as e:
        make_bot("evolution", spec)
    assert expect in e.value.message
    assert spec.split("+")[0].split(":")[0] in e.value.message


def test_an_unknown_entity_is_checked_against_the_ruleset_played():
    rs = get_game("capybara").data.load()
    with pytest.raises(UserError, match="did you mean 'Capybaranka'"):
        make_bots("capybara", "greedy+favor:Capybaranca,greedy,greedy,greedy", 4, rs)


def test_result_rows_record_the_full_spec():
    rs = get_game("evolversi").data.load()
    card = get_game("evolversi").entities(rs)[-1]
    bots = make_bots("evolversi", [f"greedy+avoid:{card}", "greedy", "greedy"], 3, rs)
    games, _ = run_chunk(check_spec(rs, bots, 3, None, 1), 0, 5)
    assert games["s0_bot"].cast(str).to_list() == [f"greedy+avoid:{card}"] * 5
    assert games["s1_bot"].cast(str).to_list() == ["greedy"] * 5


@pytest.mark.parametrize("bots,expect", [
    ("greedy+favor:Nessuno", "unknown card 'Nessuno'"),
    ("greedy+like:Morso", "unknown modifier 'like'"),
    ("greedy:x=1", "has no option 'x' (its options: weights)"),
    ("random:x=1", "takes no options"),
    ("greedy:weights=no/such/file.toml", "weights file not found"),
])
def test_the_cli_prints_one_line_and_exits_2_for_a_bad_spec(bots, expect, tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["run", "evolversi", "--bots", bots, "--games", "10", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and expect in err and "Traceback" not in err
    assert not out.exists()


def test_the_expected_form_is_named_in_a_malformed_spec_error():
    with pytest.raises(UserError) as e:
        make_bot("evolversi", "greedy+avoid")
    assert SPEC_FORM in e.value.message
