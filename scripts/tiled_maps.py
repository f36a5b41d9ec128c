"""Import every published Tiled map of the open-source projects of this game
found in the fetched snapshots (/work/.mirror) and report, per map, its
squares, walls, lasers, warnings, unmapped tiles and whether the course
validates.

    python -m scripts.tiled_maps

The maps are copied to a temporary folder for the import and then dropped;
nothing of theirs is kept in the project.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from rallyforge.engine.format.loader import dumps
from rallyforge.engine.format.tiled.convert import import_map
from rallyforge.engine.validation.validator import validate_data

PROJECTS = (("inf112-v19/Blodige-roboter", "/work/.mirror/inf112-v19+Blodige-roboter/repo",
             "assets/maps/", ".tmx"),
            ("PyLadiesCZ/roboprojekt", "/work/.mirror/PyLadiesCZ+roboprojekt/repo/.git",
             "maps/", ".json"))


def maps(git: str, folder: str, ext: str, target: Path) -> list[Path]:
    names = subprocess.run(["git", "--git-dir", git, "ls-tree", "--name-only", "HEAD", folder],
                           capture_output=True, text=True, check=True).stdout.split()
    out = []
    for name in names:
        if name.endswith(ext) and "tileset" not in name:
            path = target / Path(name).name
            path.write_bytes(subprocess.run(["git", "--git-dir", git, "show", f"HEAD:{name}"],
                                            capture_output=True, check=True).stdout)
            out.append(path)
    return out


def main() -> int:
    total = valid = 0
    for project, git, folder, ext in PROJECTS:
        if not Path(git).exists():
            print(f"{project}: no snapshot in /work/.mirror", file=sys.stderr)
            continue
        with tempfile.TemporaryDirectory() as tmp:
            for path in maps(git, folder, ext, Path(tmp)):
                result = import_map(path)
                s, b = result.scenario, result.scenario.board
                errors = [p.code for p in validate_data(json.loads(dumps(s))) if p.is_error]
                unmapped = sum("left empty" in w.message for w in result.warnings)
                total += 1
                valid += not errors and not unmapped
                print(f"{project} {path.name}: {b.width}x{b.height} squares, {len(b.tiles)} "
                      f"elements, {len(b.walls)} walls, {len(b.lasers)} lasers, "
                      f"{len(b.pushers)} pushers, {len(s.flags)} flags, {len(s.docks)} docks; "
                      f"{len(result.warnings)} warnings, {unmapped} unmapped; "
                      + ("validates" if not errors else "errors " + " ".join(sorted(set(errors)))))
    print(f"{total} maps, {valid} imported with no unmapped tile and validate")
    return 0 if valid >= 20 else 1


if __name__ == "__main__":
    sys.exit(main())
