"""docs/config.md documents exactly the keys the sweep and tune config readers accept."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from experiments import config as sweep_config
from experiments.config import parse_config
from experiments.tune import config as tune_config
from experiments.tune.config import parse_tune
from reports.measures.targets import TARGETS
from simcore.errors import UserError

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "config.md"

# section heading in docs/config.md -> the keys its reader accepts there
SECTIONS = {
    "Sweep: top level": sweep_config.TOP_KEYS,
    "Sweep: grid axes": sweep_config.AXIS_KEYS,
    "Sweep: ablation": sweep_config.ABLATION_KEYS,
    "Sweep: restricted play": sweep_config.RESTRICTED_KEYS,
    "Targets": set(TARGETS),
    "Tune: top level": tune_config.TOP_KEYS,
    "Tune: variables": tune_config.VAR_KEYS,
    "Tune: budget": tune_config.BUDGET_KEYS,
    "Tune: search": tune_config.SEARCH_KEYS,
    "Tune: proof": tune_config.PROOF_KEYS,
}


def documented_keys(text: str) -> dict[str, set[str]]:
    """{section heading: keys in the first column of its table}."""
    out: dict[str, set[str]] = {}
    section = None
    for line in text.splitlines():
        heading = re.match(r"#{2,3} (.+)", line)
        if heading:
            section = heading.group(1).strip()
            continue
        row = re.match(r"\| `([a-z_]+)` \|", line)
        if row and section is not None:
            out.setdefault(section, set()).add(row.group(1))
    return out


DOCUMENTED = documented_keys(REFERENCE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_reference_documents_exactly_the_accepted_keys(section):
    accepted = set(SECTIONS[section])
    documented = DOCUMENTED.get(section, set())
    assert accepted - documented == set(), f"accepted but not documented in docs/config.md, {section!r}"
    assert documented - accepted == set(), f"documented in docs/config.md but not accepted, {section!r}"


def test_every_documented_table_is_checked():
    assert set(DOCUMENTED) == set(SECTIONS)


def _unknown_key_error(parse, text: str) -> str | None:
    try:
        parse(text, "probe.toml")
    except UserError as e:
        return e.render() if "unknown key" in e.render() else None
    return None


SWEEP_BASE = 'ruleset = "evolversi"\n'
TUNE_BASE = ('ruleset = "evolversi"\n[[variables]]\nparam = "track_length"\nmin = 9\nmax = 13\nstep = 1\n'
             '[targets]\nfaction_gap = 3.0\n[budget]\ngames = 1000\n')


@pytest.mark.parametrize("key", sorted(sweep_config.TOP_KEYS))
def test_sweep_reader_takes_each_documented_top_key(key):
    assert _unknown_key_error(parse_config, SWEEP_BASE + f"{key} = 1\n") is None


@pytest.mark.parametrize("parse, text", [(parse_config, SWEEP_BASE), (parse_tune, TUNE_BASE)])
def test_readers_refuse_an_undocumented_key(parse, text):
    assert "undocumented_key" in (_unknown_key_error(parse, "undocumented_key = 1\n" + text) or "")


@pytest.mark.parametrize("key", sorted(tune_config.SEARCH_KEYS))
def test_tune_reader_takes_each_documented_search_key(key):
    assert _unknown_key_error(parse_tune, TUNE_BASE + f"[search]\n{key} = 2\n") is None


def test_builtin_data_axis_plays_the_built_in_data_labelled_builtin(tmp_path):
    (tmp_path / "mine").mkdir()
    cfg = parse_config(SWEEP_BASE + '[[grid]]\ndata = ["builtin", "mine"]\n', str(tmp_path / "s.toml"))
    axis = cfg.grid[0]
    assert axis.labels == ("builtin", "mine")
    from simcore.games import get_game
    assert Path(axis.values[0]) == get_game("evolversi").data.data_dir
    assert Path(axis.values[1]) == tmp_path / "mine"


def test_builtin_data_at_top_level_is_the_built_in_data():
    assert parse_config(SWEEP_BASE + 'data = "builtin"\n').data is None


def test_a_missing_data_folder_names_the_builtin_word(tmp_path):
    with pytest.raises(UserError, match="'builtin'"):
        parse_config(SWEEP_BASE + '[[grid]]\ndata = ["nowhere"]\n', str(tmp_path / "s.toml"))
