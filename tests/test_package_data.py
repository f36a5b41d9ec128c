"""An installed Rally Forge (a wheel, not this source tree) has every data
file its code reads: pyproject.toml's package data names them all."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = {".json"}


def test_every_data_file_of_the_packages_is_declared_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    declared = config["package-data"]
    missing = []
    for package in declared:
        folder = ROOT / package
        covered = {p for pattern in declared[package] for p in folder.glob(pattern)}
        missing += [p.relative_to(ROOT) for p in folder.rglob("*")
                    if p.suffix in DATA and p not in covered]
    assert missing == []


def test_the_board_library_lives_inside_the_engine_package():
    from rallyforge.engine.editing import library
    boards = library.board_files()
    assert len(boards) >= 10
    assert all((ROOT / "engine").resolve() in p.resolve().parents for p in boards)
