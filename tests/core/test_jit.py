"""The compiled-engine build every numba game shares (simcore/jit.py): the cache folder
follows every source the game compiles (simcore's shared ones included), a cold build says
so once on stderr, a warm one is silent."""
from __future__ import annotations

from simcore import jit
from simcore.games.capybara import jit as capybara_jit
from simcore.games.evo import jit as evo_jit


def test_an_edit_of_any_source_moves_the_build_to_another_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "rules.py"
    src.write_text("x = 1\n")
    before = jit.GameBuild("toy", [src], "toy: compiling").folder
    assert jit.GameBuild("toy", [src], "toy: compiling").folder == before
    src.write_text("x = 2\n")
    assert jit.GameBuild("toy", [src], "toy: compiling").folder != before
    assert before.parent == tmp_path / "cache" / "numba" and before.name.startswith("toy-")


def test_every_game_build_is_keyed_by_its_package_its_bots_and_simcores_shared_sources():
    assert {(f.parent.name, f.name) for f in jit.CORE_SOURCES} == {
        ("simcore", "jit.py"), ("simcore", "rng.py")}
    games = jit.TREE / "simcore" / "games"
    capybara = jit.python_files(games / "capybara", jit.TREE / "strategies" / "capybara")
    evo = jit.python_files(games / "evo", jit.TREE / "strategies" / "evo", skip=evo_jit._never_compiled)
    for build, sources in ((capybara_jit.BUILD, capybara), (evo_jit.BUILD, evo)):
        assert any(f.parent.parent.name == "strategies" for f in sources)       # its bots too
        assert build.folder.name == f"{build.game}-{jit.digest(sources + list(jit.CORE_SOURCES))}"
        assert build.folder.name != f"{build.game}-{jit.digest(sources)}"


def test_a_cold_build_says_so_once_and_a_warm_one_is_silent(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BALANCELAB_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "toy_rules.py"
    src.write_text("# the toy game's sources\n")
    cold = jit.GameBuild("toy", [src], "toy: compiling the batch engine")

    def double(x):
        return 2 * x

    def triple(x):
        return 3 * x

    f, g = cold.kernel(double), cold.kernel(triple)
    assert f(21) == 42 and g(2) == 6
    assert capsys.readouterr().err.count("toy: compiling the batch engine") == 1
    assert any(cold.folder.rglob("*.nbi"))             # numba's cache index, in the build's folder
    warm = jit.GameBuild("toy", [src], "toy: compiling the batch engine")
    warm.kernel(double)
    assert capsys.readouterr().err == ""
