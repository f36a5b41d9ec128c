"""Packages and the one compiled part.

The repository keeps engine/, drawing/, editor/ and schema/ at its top; installed,
they are rallyforge.engine, rallyforge.drawing, rallyforge.editor and
rallyforge.schema, so that the project takes one top-level import name
(rallyforge, a namespace of those four). docs/ is rallyforge.docs, data only:
the pages the editor's help shows (editor/help.py finds them beside the editor,
in the checkout as installed).

The compiled part, two extensions: the race rules' compiled copy
(engine/rules/compiled/_race.c) that balance runs race in, and the search
bot's inner loop with its bot for those races (engine/bots/_play.c,
_search_race.c). Optional: where it cannot be built (no C compiler), the
install goes on, the bot uses its numpy version and balance runs the Python
engine, with the same results."""
from setuptools import Extension, find_namespace_packages, setup

FOLDERS = ("engine", "drawing", "editor", "schema")
# the compiled race's headers: its limits, its bots' interface, its spec reader
RULES_HEADERS = [f"engine/rules/compiled/{name}.h" for name in ("_limits", "_race_bot", "_spec")]
PACKAGE_DIR = {f"rallyforge.{folder}": folder for folder in FOLDERS} | {"rallyforge.docs": "docs"}
PACKAGES = [name for folder in FOLDERS
            for name in [f"rallyforge.{folder}"]
            + [f"rallyforge.{folder}.{sub}" for sub in find_namespace_packages(folder, exclude=["*__pycache__*"])]]
PACKAGES.append("rallyforge.docs")

setup(package_dir=PACKAGE_DIR, packages=PACKAGES,
      ext_modules=[Extension("rallyforge.engine.rules.compiled._race",
                             ["engine/rules/compiled/_race.c"], depends=RULES_HEADERS,
                             optional=True, extra_compile_args=["-O2"]),
                   Extension("rallyforge.engine.bots._play",
                             ["engine/bots/_play.c", "engine/bots/_search_race.c"],
                             depends=["engine/bots/_play.h", *RULES_HEADERS], optional=True,
                             extra_compile_args=["-O2"])])
