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


def _module_name(path: Path, top: Path) -> str:
    """The installed name of a module in folder `top`'s parent (engine/ is rallyforge.engine)."""
    parts = list(path.relative_to(top.parent).with_suffix("").parts)
    return ".".join(["rallyforge", *(parts[:-1] if parts[-1] == "__init__" else parts)])


def _imports(path: Path, name: str) -> set[str]:
    """Every name `path` imports, at its top, in a function or under
    TYPE_CHECKING alike (``from a import b`` names both a and a.b)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = parts[:len(parts) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def sibling_circles(root: Path) -> dict[str, list[str]]:
    """Import circles among the children of each package under `root`
    (rallyforge.engine, rallyforge.editor): a child imports a sibling when
    any module in it imports any module in the sibling. One circle per
    package, named by its members."""
    from graphlib import CycleError, TopologicalSorter
    paths = {_module_name(p, root): p for p in root.rglob("*.py")}
    edges: dict[str, dict[str, set[str]]] = {}
    for name, path in paths.items():
        for imported in _imports(path, name) & paths.keys():
            parts, other = name.split("."), imported.split(".")
            shared = next((i for i, (a, b) in enumerate(zip(parts, other)) if a != b), None)
            if shared is None or shared >= len(parts) or shared >= len(other):
                continue            # a module and its own package
            parent = ".".join(parts[:shared])
            edges.setdefault(parent, {}).setdefault(parts[shared], set()).add(other[shared])
    circles = {}
    for parent, graph in edges.items():
        try:
            TopologicalSorter(graph).prepare()
        except CycleError as error:
            circles[parent] = error.args[1]
    return circles


def test_no_import_circle_among_siblings_counting_type_only_imports():
    for package in (ENGINE, ENGINE.parent / "editor"):
        assert sibling_circles(package) == {}


def test_a_type_only_import_back_makes_a_circle(tmp_path):
    """The check sees an import under TYPE_CHECKING, in a subpackage too."""
    (tmp_path / "engine" / "rules" / "parts").mkdir(parents=True)
    (tmp_path / "engine" / "__init__.py").write_text("")
    (tmp_path / "engine" / "rules" / "__init__.py").write_text("")
    (tmp_path / "engine" / "rules" / "parts" / "__init__.py").write_text("")
    (tmp_path / "engine" / "rules" / "state.py").write_text("X = 1\n")
    (tmp_path / "engine" / "rules" / "parts" / "teams.py").write_text(
        "from rallyforge.engine.rules.state import X\n")
    assert sibling_circles(tmp_path / "engine") == {}
    (tmp_path / "engine" / "rules" / "state.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from rallyforge.engine.rules.parts import teams\n")
    circles = sibling_circles(tmp_path / "engine")
    assert set(circles["rallyforge.engine.rules"]) == {"state", "parts"}
