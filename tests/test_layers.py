"""The engine stays free of the GUI: no module under engine/ imports Qt or the editor."""
import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def _root(module: str) -> str:
    """A module's distribution-level name: PySide6, or rallyforge.editor for the project's own."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "rallyforge" else parts[0]


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(_root(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(_root(node.module))
    return roots


def test_engine_never_imports_qt_or_editor():
    offenders = {str(p.relative_to(ENGINE)): sorted(imported_roots(p) & {"PySide6", "rallyforge.editor"})
                 for p in ENGINE.rglob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_engine_imports_without_qt_loaded():
    import subprocess
    import sys
    code = ("import sys, importlib, pkgutil\nfrom rallyforge import engine\n"
            "for m in pkgutil.walk_packages(engine.__path__, 'rallyforge.engine.'):\n"
            "    if not m.name.endswith('__main__'):\n"
            "        importlib.import_module(m.name)\n"
            "assert not any(k.startswith('PySide6') for k in sys.modules), 'Qt was imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ENGINE.parent)
