"""An installed Rally Forge (a wheel, not this source tree) has every data
file its code reads: pyproject.toml's package data names them all, and every
module pyproject.toml names exists."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = {".json"}
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
# the engine's layers, which pyproject.toml's comments may name without
# "rallyforge.engine." ("rules.state")
LAYERS = ("analysis", "bots", "cli", "editing", "format", "model", "rules", "validation")


def _path(name: str) -> Path:
    """Where an installed name lives in the tree: setup.py maps
    rallyforge.engine to engine/ (and so on), the rest is the path."""
    first, *rest = name.split(".")
    assert first == "rallyforge", name
    return ROOT.joinpath(*rest)


def _exists(name: str) -> bool:
    return _path(name).is_dir() or _path(name).with_suffix(".py").is_file()


def test_every_data_file_of_the_packages_is_declared_package_data():
    declared = tomllib.loads(PYPROJECT)["tool"]["setuptools"]["package-data"]
    assert all(_path(package).is_dir() for package in declared), "a package that is not there"
    covered = {p for package, patterns in declared.items()
               for pattern in patterns for p in _path(package).glob(pattern)}
    data = {p for package in declared for p in _path(package).rglob("*") if p.suffix in DATA}
    assert len(data) > 30                       # the boards, courses, tilesets and schema
    assert sorted(str(p.relative_to(ROOT)) for p in data - covered) == []


def test_every_module_pyproject_names_exists():
    """The scripts, the package data, the import contracts and their comments
    name modules; a rename must take them along."""
    names = set(re.findall(r"(?<![\w.])rallyforge(?:\.\w+)+", PYPROJECT))
    layers = "|".join(LAYERS)
    names |= {f"rallyforge.engine.{short}"
              for short in re.findall(rf"(?<![\w.])(?:{layers})(?:\.\w+)+", PYPROJECT)
              if short.rsplit(".", 1)[1] not in ("md", "json", "pyi")}   # help pages: files
    assert len(names) > 10
    assert sorted(name for name in names if not _exists(name)) == []


def test_the_board_library_lives_inside_the_engine_package():
    from rallyforge.engine.editing import library
    boards = library.board_files()
    assert len(boards) >= 10
    assert all((ROOT / "engine").resolve() in p.resolve().parents for p in boards)
