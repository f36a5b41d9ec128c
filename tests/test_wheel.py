"""The wheel people install (`pipx install`, README): built from the project's
files without build isolation, it carries the one top-level package
`rallyforge` with the board library, the published courses, the schemas, the
tileset mappings and the help pages, and the two commands."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("engine", "drawing", "editor", "schema", "docs", "setup.py", "pyproject.toml",
           "README.md", "MANIFEST.in")


def build_wheel(tmp_path: Path) -> zipfile.ZipFile:
    src = tmp_path / "rallyforge-source"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
        else:
            shutil.copy2(path, src / name)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "-q", str(src), "-w", str(tmp_path / "dist")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("rallyforge-*.whl")
    return zipfile.ZipFile(wheel)


def test_the_wheel_carries_the_library_and_only_rallyforge(tmp_path):
    wheel = build_wheel(tmp_path)
    names = set(wheel.namelist())
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"rallyforge"}
    expected = {
        **{f"rallyforge/engine/editing/boards/{p.name}": p
           for p in (ROOT / "engine/editing/boards").glob("*.json")},
        **{f"rallyforge/engine/editing/published/{p.name}": p
           for p in (ROOT / "engine/editing/published").glob("*.json")},
        **{f"rallyforge/schema/{p.name}": p for p in (ROOT / "schema").glob("*.json")},
        **{f"rallyforge/engine/format/tiled/tilesets/{p.name}": p
           for p in (ROOT / "engine/format/tiled/tilesets").glob("*.json")},
        # the editor's help finds its pages beside the editor (editor/help.py)
        **{f"rallyforge/docs/{name}": ROOT / "docs" / name
           for name in ("format.md", "rules.md", "tiled-import.md")},
    }
    assert len(expected) >= 10 + 30 + 1 + 2 + 3
    missing = sorted(set(expected) - names)
    assert not missing
    for name, path in expected.items():
        assert wheel.read(name) == path.read_bytes(), name
    assert {"rallyforge/drawing/board.py", "rallyforge/editor/help.py",
            "rallyforge/engine/cli/export.py"} <= names
    (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    text = wheel.read(entry_points).decode()
    assert "rallyforge = rallyforge.engine.cli.main:main" in text
    assert "rallyforge-editor = rallyforge.editor.app:main" in text
