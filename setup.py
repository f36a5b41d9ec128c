"""Packages and the one compiled part.

The repository keeps engine/, drawing/, editor/ and schema/ at its top; installed,
they are rallyforge.engine, rallyforge.drawing, rallyforge.editor and
rallyforge.schema, so that the project takes one top-level import name
(rallyforge, a namespace of those four). docs/ is rallyforge.docs, data only:
the pages the editor's help shows (editor/help.py finds them beside the editor,
in the checkout as installed).

The compiled part: the search bot's inner loop (engine/bots/_play.c) and the
balance runs' races of search bots (engine/bots/_race.c). Optional: where it
cannot be built (no C compiler), the install goes on, the bot uses its numpy
version and balance runs the Python engine, with the same results."""
from setuptools import Extension, find_namespace_packages, setup

FOLDERS = ("engine", "drawing", "editor", "schema")
PACKAGE_DIR = {f"rallyforge.{folder}": folder for folder in FOLDERS} | {"rallyforge.docs": "docs"}
PACKAGES = [name for folder in FOLDERS
            for name in [f"rallyforge.{folder}"]
            + [f"rallyforge.{folder}.{sub}" for sub in find_namespace_packages(folder, exclude=["*__pycache__*"])]]
PACKAGES.append("rallyforge.docs")

setup(package_dir=PACKAGE_DIR, packages=PACKAGES,
      ext_modules=[Extension("rallyforge.engine.bots._play",
                             ["engine/bots/_play.c", "engine/bots/_race.c"],
                             depends=["engine/bots/_play.h", "engine/bots/_limits.h"], optional=True,
                             extra_compile_args=["-O2"])])
