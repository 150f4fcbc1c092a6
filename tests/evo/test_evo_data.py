"""Evo's data: the default tables hold the rulebook's components and RULES-NOTES' defaults, uids
follow names (not rows), and each kind of bad data is one UserError naming file and row or key."""
import csv
import io

import pytest

from simcore.errors import UserError
from simcore.games.evo.schema import GAME_DATA, GENE_EFFECTS, uid_order


def _load_with(tmp_path, file, edit, **kw):
    """Load the ruleset with one data file copied into a designer folder and edited."""
    text = (GAME_DATA.data_dir / file).read_text()
    changed = edit(text)
    assert changed != text, "the edit must change the file"
    (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / file).write_text(changed)
    return GAME_DATA.load(data_dir=tmp_path, **kw)


def _row_of(file, starts):
    """1-based CSV line of the first row starting with `starts` (the header is line 1)."""
    lines = (GAME_DATA.data_dir / file).read_text().splitlines()
    return next(i for i, line in enumerate(lines, start=1) if line.startswith(starts))


def _copies(rows, **where):
    return sum(r["copies"] for r in rows if all(r[k] == v for k, v in where.items()))


def test_default_gene_bag_is_the_rulebooks_36_normal_and_12_unique():
    rs = GAME_DATA.load()
    genes = rs.tables["genes"]
    by_name = {r["name"]: r["copies"] for r in genes if r["kind"] == "normal"}
    assert by_name == {"Pair of legs": 6, "Horn": 5, "Egg": 6, "Thermoregulation layers": 7, "Fur layers": 7,
                       "Alchemical vial": 5}
    unique = [r for r in genes if r["kind"] == "unique"]
    assert len(unique) == 12 and all(r["copies"] == 1 for r in unique)
    assert rs["unique_in_bag"] == 8
    assert all(r["active"] for r in genes)


def test_default_components_and_start():
    rs = GAME_DATA.load()
    assert (rs["start_mp"], rs["start_dinosaurs"], rs["dinosaurs_per_player"]) == (6, 2, 8)
    assert (rs["base_moves"], rs["base_eggs"], rs["clan_floor"], rs["max_bid"]) == (2, 1, 2, 6)
    events = rs.tables["events"]
    assert _copies(events) == 15
    assert {r["name"] for r in events} == {"Geysers", "Prescience", "Swarm of rats", "Egg thief", "Frenzied attack"}
    climate = rs.tables["climate"]
    assert _copies(climate, kind="meteorite") == 1 and _copies(climate, kind="shift") == 12
    shifts = sorted(r["shift"] for r in climate if r["kind"] == "shift" for _ in range(r["copies"]))
    assert shifts == [-1, -1, 0, 0] + [1] * 6 + [2, 2]


def test_the_pile_puts_the_meteorite_in_rounds_10_to_12():
    rs = GAME_DATA.load()
    pile = _copies(rs.tables["climate"]) - rs["climate_discarded"]
    lowest = pile - rs["meteorite_pile"] + 1
    # The meteorite revealed in round r ends the game after r - 1 full rounds: 9 to 11.
    assert (lowest - 1, pile - 1) == (9, 11)


def test_default_die_gives_the_first_editions_odds():
    faces = [r for r in GAME_DATA.load().tables["die"] for _ in range(r["copies"])]
    assert len(faces) == 6

    def wins(diff):
        return sum(f["attack"] == "win" or (f["attack"] == "diff" and diff >= f["need"]) for f in faces)
    assert [wins(d) for d in (-3, -1, 0, 1, 2, 5)] == [1, 1, 2, 4, 5, 5]
    assert sum(f["babies"] == "win" for f in faces) == 4   # claw, claw=, claw+ x2


def test_default_wheel_follows_one_step_warmer_hot_one_colder_cold():
    rs = GAME_DATA.load()
    terrains = rs["terrains"]
    classes = {(r["sector"], r["terrain"]): r["class"] for r in rs.tables["wheel"]}
    sectors = sorted({s for s, _ in classes})
    assert len(sectors) == 6
    ideal = [next(t for t in terrains if classes[(s, t)] == "ideal") for s in sectors]
    assert ideal == ["desert", "plains", "hills", "mountains", "hills", "plains"]
    for s in sectors:
        i = terrains.index(ideal[s])
        for j, t in enumerate(terrains):
            want = {0: "ideal", -1: "hot", 1: "cold"}.get(j - i, "deadly")
            assert classes[(s, t)] == want, (s, t)
    assert ideal[rs["wheel_start"]] == "plains"


def test_every_row_and_parameter_has_a_source():
    rs = GAME_DATA.load()
    for name, rows in rs.tables.items():
        assert all(r["source"] in ("rulebook", "inferred", "default") for r in rows), name
    assert all(p.source in ("rulebook", "inferred", "default") for p in rs.specs.values())


@pytest.mark.parametrize("variant", GAME_DATA.variant_names())
def test_every_variant_loads_and_changes_one_reading(variant):
    rs = GAME_DATA.load(variant)
    changed = {k for k in rs.params if rs.params[k] != GAME_DATA.load().params[k]}
    assert (variant == "default") == (not changed)


def test_uids_follow_name_and_copy_not_row_position():
    rows = GAME_DATA.load().tables["genes"]
    order = uid_order(rows)
    assert order == uid_order(tuple(reversed(rows)))
    assert len(order) == 48 and order[0] == ("Adrenaline rush", 0)
    assert order.index(("Egg", 5)) + 1 == order.index(("Flippers", 0))


def test_knocking_out_a_gene_keeps_the_bag():
    base = GAME_DATA.load()
    out = GAME_DATA.load(edits=[{"table": "genes", "where": {"name": "Wings"}, "set": {"active": 0}}])
    assert uid_order(out.tables["genes"]) == uid_order(base.tables["genes"])
    assert [r["name"] for r in out.tables["genes"] if not r["active"]] == ["Wings"]
    assert out.hash != base.hash


def test_a_designers_genes_file_without_active_is_all_active(tmp_path):
    def drop_active(text):
        rows = list(csv.reader(io.StringIO(text)))
        k = rows[0].index("active")
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([r[:k] + r[k + 1:] for r in rows])
        return buf.getvalue()
    rs = _load_with(tmp_path, "genes.csv", drop_active)
    assert all(r["active"] for r in rs.tables["genes"])


def test_unknown_gene_effect_names_file_and_row(tmp_path):
    row = _row_of("genes.csv", "Wings,")
    with pytest.raises(UserError, match=r"genes\.csv, row %d: .*unknown value 'hover'" % row):
        _load_with(tmp_path, "genes.csv", lambda t: t.replace("Wings,unique,wings", "Wings,unique,hover"))
    assert "wings" in GENE_EFFECTS


def test_a_flag_gene_with_an_amount_names_file_and_row(tmp_path):
    row = _row_of("genes.csv", "Sixth sense,")
    with pytest.raises(UserError, match=r"genes\.csv, row %d: effect 'sixth_sense' is on or off" % row):
        _load_with(tmp_path, "genes.csv", lambda t: t.replace("sixth_sense,1,", "sixth_sense,2,"))


def test_too_few_unique_genes_for_the_bag_names_the_key(tmp_path):
    with pytest.raises(UserError, match=r"unique_in_bag"):
        GAME_DATA.load(overrides={"unique_in_bag": 13})


def test_an_event_amount_where_none_is_used_names_file_and_row(tmp_path):
    row = _row_of("events.csv", "Geysers,")
    with pytest.raises(UserError, match=r"events\.csv, row %d: effect 'geysers' takes no amount" % row):
        _load_with(tmp_path, "events.csv", lambda t: t.replace("Geysers,geysers,0,", "Geysers,geysers,1,"))


def test_two_meteorites_name_the_file(tmp_path):
    row = _row_of("climate.csv", "Meteorite,")
    with pytest.raises(UserError, match=r"climate\.csv, row %d: needs exactly one meteorite token" % row):
        _load_with(tmp_path, "climate.csv", lambda t: t.replace("Meteorite,meteorite,0,1,", "Meteorite,meteorite,0,2,"))


def test_a_wheel_with_an_unknown_terrain_names_file_and_row(tmp_path):
    row = _row_of("wheel.csv", "3,hills,")
    with pytest.raises(UserError, match=r"wheel\.csv, row %d: unknown terrain 'swamp'" % row):
        _load_with(tmp_path, "wheel.csv", lambda t: t.replace("3,hills,", "3,swamp,", 1))


def test_a_wheel_sector_missing_a_terrain_names_it(tmp_path):
    def drop(text):
        lines = text.splitlines(keepends=True)
        return "".join(l for l in lines if not l.startswith("2,desert,"))
    with pytest.raises(UserError, match=r"wheel\.csv: sector 2 does not say the class of terrain\(s\) desert"):
        _load_with(tmp_path, "wheel.csv", drop)


def test_a_start_sector_off_the_wheel_names_the_key():
    with pytest.raises(UserError, match=r"key 'wheel_start': the wheel has 6 sectors"):
        GAME_DATA.load(overrides={"wheel_start": 6})


def test_every_parameter_the_contract_names_exists_and_every_parameter_is_in_the_contract():
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "games" / "evo.md").read_text()
    named = set(re.findall(r"(?<![\w.])p\.([a-z_]+)", text)) - {"name"}   # `p.name`: the notation itself
    params = set(GAME_DATA.load().params)
    assert named - params == set()
    assert params - named == set()
