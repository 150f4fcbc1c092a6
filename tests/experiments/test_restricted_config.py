"""A config's [restricted] table: one seat favours or avoids each entity against the
plain bot, the seat rotated, plus the all-plain reference point, all on the same games."""
from __future__ import annotations

import pytest

from experiments.config import load_config, parse_config
from experiments.grid import expand
from simcore.errors import UserError
from simcore.games import get_game

BASE = 'ruleset = "capybara"\nplayers = 4\ngames = 20\nseed = 3\n'


def _points(text):
    return expand(parse_config(text, "r.toml"))


def test_every_entity_modifier_and_seat_gets_a_point_after_the_all_plain_reference():
    points = _points(BASE + '[restricted]\nentities = "*"\n')
    names = list(dict.fromkeys(get_game("capybara").entities(get_game("capybara").data.load())))
    assert len(points) == 1 + len(names) * 2 * 4
    assert [b.name for b in points[0].spec.bots] == ["greedy"] * 4
    lineups = [[b.name for b in p.spec.bots] for p in points[1:]]
    assert lineups[:4] == [[f"greedy+favor:{names[0]}" if s == k else "greedy" for s in range(4)] for k in range(4)]
    assert {p.spec.seed for p in points} == {points[0].spec.seed}        # common random numbers


def test_listed_entities_seats_and_modifiers_narrow_the_sweep_and_keep_the_games_spelling():
    points = _points(BASE + '[restricted]\nentities = ["capybaranka"]\nmodifiers = ["avoid"]\nseats = [2]\n')
    assert [[b.name for b in p.spec.bots] for p in points] == \
        [["greedy"] * 4, ["greedy", "greedy", "greedy+avoid:Capybaranka", "greedy"]]


@pytest.mark.parametrize("body,key,text", [
    ('[restricted]\nentities = ["Capybaranca"]\n', "restricted.entities[0]", "did you mean 'Capybaranka'"),
    ('[restricted]\nmodifiers = ["prefer"]\n', "restricted.modifiers[0]", "unknown modifier"),
    ('[restricted]\nseats = [4]\n', "restricted.seats[0]", "does not exist"),
    ('[restricted]\nbot = "random"\n', "bots", "takes no +favor/+avoid"),
    ('[restricted]\nbot = "greedy+favor:Capybara"\n', "restricted.bot", "without one of its own"),
    ('[restricted]\nsees = [1]\n', "restricted.sees", ""),
    ('bots = "greedy"\n[restricted]\n', "restricted", "drop `bots`"),
])
def test_a_bad_restricted_table_is_one_error_naming_the_key(body, key, text, tmp_path):
    path = tmp_path / "r.toml"
    path.write_text(BASE + body)
    with pytest.raises(UserError) as e:
        expand(load_config(path))
    assert e.value.key == key and text in e.value.message and e.value.file == str(path)


def test_the_restricted_table_changes_the_config_digest_only_when_present():
    plain = parse_config(BASE, "a.toml")
    restricted = parse_config(BASE + "[restricted]\n", "a.toml")
    assert "restricted" not in plain.resolved()
    assert restricted.resolved()["restricted"] == {"bot": "greedy", "entities": "*", "modifiers": ["favor", "avoid"],
                                                   "seats": "rotate"}
    assert plain.digest() != restricted.digest()
