"""The documentation cannot fall behind the code: links lead somewhere, the
format page names every key, tile type and problem code the code has, its
example is a valid course, and the README's commands parse."""
from __future__ import annotations

import ast
import io
import json
import re
import shlex
import tokenize
from pathlib import Path

import pytest

from rallyforge.editor.app import build_parser as editor_parser
from rallyforge.engine.analysis.scenario_checks import run_checks
from rallyforge.engine.cli.main import COMMANDS, build_parser
from rallyforge.engine.format.loader import load_dict
from rallyforge.engine.format.schema import SCHEMA
from rallyforge.engine.validation.validator import validate_data

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FORMAT = ROOT / "docs" / "format.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _prose(text: str) -> str:
    """The page without its fenced code blocks (a `[x](y)` in code is no link)."""
    return FENCE.sub("", text)


def _slug(heading: str) -> str:
    """The anchor a Markdown heading gets on GitHub (and most renderers)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for line in _prose(page.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"#{1,6}\s+(.*)", line)
        if match:
            slug = _slug(match.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def _links(page: Path) -> list[str]:
    return LINK.findall(_prose(page.read_text(encoding="utf-8")))


def _broken_links(page: Path, root: Path = ROOT) -> list[str]:
    broken = []
    for target in _links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):        # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.is_relative_to(root) or not resolved.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
            broken.append(f"{target} (no heading #{anchor} in {resolved.name})")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_relative_link_leads_to_a_file_of_the_repository(page):
    assert _links(page), f"{page.name} links nowhere at all"
    assert _broken_links(page) == []


def test_a_link_to_a_missing_file_or_heading_is_caught(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# Here it is\n", encoding="utf-8")
    page.write_text("[a](there.md#here-it-is) [b](gone.md) [c](there.md#nowhere) "
                    "[d](https://example.org/x.md)\n```\n[e](in-code.md)\n```\n",
                    encoding="utf-8")
    assert _broken_links(page, tmp_path) == [
        "gone.md (no such file)", "there.md#nowhere (no heading #nowhere in there.md)"]


def test_the_readme_and_the_schema_point_at_the_pages():
    assert any(link.startswith("docs/format.md") for link in _links(README))
    assert any(link.startswith("docs/rules.md") for link in _links(README))
    assert "docs/format.md" in SCHEMA["description"]
    assert "docs/rules.md" in SCHEMA["description"]


def _descriptions(node: object) -> list[str]:
    if isinstance(node, dict):
        return [text for key, value in node.items()
                for text in ([value] if key == "description" and isinstance(value, str)
                             else _descriptions(value))]
    if isinstance(node, list):
        return [text for value in node for text in _descriptions(value)]
    return []


def test_the_schema_cites_only_pages_and_sections_the_repository_has():
    """Its descriptions are the editor's hover help: a page they cite must ship."""
    texts = _descriptions(SCHEMA)
    assert len(texts) > 100
    assert sum(len(_citations(text)) for text in texts) > 20       # the scan finds them at all
    assert [bad for text in texts for bad in _bad_citations(text)] == []


# ---------------------------------------------------------------- citations in the code

# A page cited by its path ("docs/rules.md 4.1", "docs/format.md, `checks`"),
# then a section: numbers (a list or range of them), or a heading's name in
# quotes or backticks. "rules 4.1" is short for docs/rules.md 4.1.
PAGE = r"(?<![\w./-])(?P<page>[\w./-]*\w\.md)\b"
NUMBERS = r"(?P<numbers>\d+(?:\.\d+)*(?:\s*(?:-|–|,|and)\s*\d+(?:\.\d+)*)*)"
NAME = r"(?:\"(?P<quoted>[^\"]+)\"|`(?P<code>[^`]+)`)"
CITATION = re.compile(PAGE + r"(?:[\s,(]*(?:section\s+|§\s*)?(?:" + NUMBERS + "|" + NAME + "))?")
SHORT = re.compile(r"(?<![\w./-])[Rr]ules?\s+(?P<numbers>\d+\.\d+(?:\s*(?:-|–)\s*\d+\.\d+)?)")
CODE_FOLDERS = ("engine", "editor", "bench", "scripts", "tests")
SOURCES = sorted(path for folder in CODE_FOLDERS for path in (ROOT / folder).rglob("*.py"))


def _sections(page: Path) -> set[str]:
    """The numbers a page's sections go by: "3" for a heading "## 3. Moving
    by cards", "3.4" for the fourth numbered item under it (or for a
    paragraph that starts "**3.4"); a heading with no number ends the
    numbered section, unless it is a subheading (###) inside it."""
    numbers: set[str] = set()
    section = None
    for line in _prose(page.read_text(encoding="utf-8")).splitlines():
        heading = re.match(r"(#{1,6})\s+(?:(\d+)\.?\s)?", line)
        if heading:
            if heading.group(2):
                section = heading.group(2)
                numbers.add(section)
            elif len(heading.group(1)) <= 2:
                section = None
        elif section and (item := re.match(r"(\d+)\. ", line)):
            numbers.add(f"{section}.{item.group(1)}")
        elif bold := re.match(r"\*\*(\d+\.\d+)\b", line):
            numbers.add(bold.group(1))
    return numbers


def _headings(page: Path) -> list[str]:
    return [line.lstrip("#").strip().replace("`", "")
            for line in _prose(page.read_text(encoding="utf-8")).splitlines()
            if re.match(r"#{1,6}\s", line)]


def _file_names_in_code() -> set[str]:
    """The names of the .md files the code reads or writes (report.md, a
    folder's README.md), which prose may name without a path: every string
    constant that is a bare .md name, but a page of docs/ (cite those by path)."""
    pages = {page.name for page in (ROOT / "docs").glob("*.md")}
    names = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"[\w.-]+\.md", node.value):
                names.add(node.value)
    return names - pages


FILE_NAMES = _file_names_in_code()


def _citations(text: str) -> list[tuple[str, list[str], str | None]]:
    """Each page `text` cites, with the section numbers and the heading name
    it cites there (none or None when it cites the whole page)."""
    found = []
    for match in CITATION.finditer(text):
        numbers = re.findall(r"\d+(?:\.\d+)*", match.group("numbers") or "")
        found.append((match.group("page"), numbers, match.group("quoted") or match.group("code")))
    for match in SHORT.finditer(text):
        found.append(("docs/rules.md", re.findall(r"\d+(?:\.\d+)*", match.group("numbers")), None))
    return found


def _bad_citations(text: str, root: Path = ROOT) -> list[str]:
    bad = []
    for name, numbers, heading in _citations(text):
        page = root / name
        if not page.is_file():
            if numbers or heading or name not in FILE_NAMES:
                bad.append(f"{name} (no such page)")
            continue
        sections = _sections(page)
        bad += [f"{name} {number} (no such section)" for number in numbers
                if number not in sections]
        if heading and not any(heading.replace("`", "") in h for h in _headings(page)):
            bad.append(f'{name} "{heading}" (no such heading)')
    return bad


def _comments_and_docstrings(source: str) -> list[str]:
    """The docstrings of a module, and its comments (lines of comments in a
    row as one text, since a citation may run on to the next line)."""
    texts = [doc for node in ast.walk(ast.parse(source))
             if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
             and (doc := ast.get_docstring(node, clean=False))]
    block: list[str] = []
    last = -1
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        if token.start[0] != last + 1 and block:
            texts.append(" ".join(block))
            block = []
        block.append(token.string.lstrip("#").strip())
        last = token.start[0]
    return texts + [" ".join(block)] * bool(block)


def test_a_citation_of_a_missing_page_or_section_is_caught(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text(
        "# Rules\n## 1. Set-up\n1. Docks.\n2. Deck.\n### More\n3. Chance.\n"
        "## Flag difficulty\n1. Not numbered.\n## 13. Teams\n**13.1 Seats.** Who.\n",
        encoding="utf-8")
    text = ("docs/rules.md 1.2, rules 1.3, (docs/rules.md\n    13.1), docs/rules.md, section 13; "
            "docs/rules.md, \"Flag difficulty\"; docs/rules.md 1.4; docs/rules.md 1.1-1.5; "
            "rules 14.1; docs/rules.md 2; levels.md 4.2; options.md; docs/gone.md; "
            "docs/rules.md `Seats`")
    assert _bad_citations(text, tmp_path) == [
        "docs/rules.md 1.4 (no such section)", "docs/rules.md 1.5 (no such section)",
        "docs/rules.md 2 (no such section)", "levels.md (no such page)", "options.md (no such page)",
        "docs/gone.md (no such page)", 'docs/rules.md "Seats" (no such heading)',
        "docs/rules.md 14.1 (no such section)"]
    assert _sections(tmp_path / "docs" / "rules.md") == {"1", "1.1", "1.2", "1.3", "13", "13.1"}


# Where the rules code cites docs/rules.md by bare numbers: "(7.4)", "(2.5 C)",
# "# 2.2", "step 3 of 10.7" (never "0.5", a number of its own).
BARE_FOLDERS = ("engine/rules", "engine/bots", "engine/model", "engine/validation")
BARE = re.compile(r"(?:(?<=\()|(?<=, )|(?<=# )|(?<=^)|(?<= of ))([1-9]\d?\.\d{1,2})"
                  r"(?:\s[A-E]\b)?(?=[),:;]|\s|$)", re.M)


def _bare_sections(text: str) -> list[str]:
    return BARE.findall(text)


def test_a_bare_section_number_is_read_as_one_of_the_rules_page():
    text = "(7.4) (2.5 C), 10.7: # 2.2\nstep 3 of 6.8; (0.5 s) 2.0 and (12.10) (1.5x)"
    assert _bare_sections(text) == ["7.4", "2.5", "10.7", "2.2", "6.8", "12.10"]


def test_the_rules_code_cites_rules_by_numbers_the_rules_page_has():
    """The rules code cites docs/rules.md by bare numbers ("(7.4)"): a number
    left from another document, whose sections go by other numbers, fails here."""
    sections = _sections(ROOT / "docs" / "rules.md")
    cited = []
    for folder in BARE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            cited += [(str(path.relative_to(ROOT)), number)
                      for text in _comments_and_docstrings(path.read_text(encoding="utf-8"))
                      for number in _bare_sections(text)]
    assert len(cited) > 50
    assert [(path, number) for path, number in cited if number not in sections] == []


def test_comments_and_docstrings_cite_only_pages_and_sections_the_repository_has():
    """Code cites the project's own pages (docs/rules.md, docs/format.md), by
    sections they have, never documents that do not ship with it."""
    assert len(SOURCES) > 200 and "report.md" in FILE_NAMES
    cited = 0
    bad = []
    for path in SOURCES:
        for text in _comments_and_docstrings(path.read_text(encoding="utf-8")):
            cited += len(_citations(text))
            bad += [f"{path.relative_to(ROOT)}: {b}" for b in _bad_citations(text)]
    assert cited > 100                       # the scan finds the citations at all
    assert bad == []


# ---------------------------------------------------------------- the format page and the code

def _format_page() -> str:
    return FORMAT.read_text(encoding="utf-8")


def _table_rows(text: str, heading: str) -> list[str]:
    """The first cell of every table row in the section under `heading`."""
    section = text.split(heading, 1)[1]
    section = re.split(r"^#{1,3} ", section, maxsplit=1, flags=re.M)[0]
    return [cells[1].strip() for line in section.splitlines()
            if line.startswith("|") and len(cells := line.split("|")) > 2]


def _schema_keys(node: object) -> set[str]:
    """Every property name anywhere in the schema (objects' keys, tiles' keys)."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                found |= set(value)
            found |= _schema_keys(value)
    elif isinstance(node, list):
        for value in node:
            found |= _schema_keys(value)
    return found


def _engine_codes() -> set[str]:
    """Every problem code the engine can report: the string constants E000,
    W401, I501... in engine/."""
    codes = set()
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"[EWI]\d{3}", node.value):
                codes.add(node.value)
    return codes


def test_every_tile_type_of_the_schema_has_a_row_in_the_tiles_table():
    types = SCHEMA["$defs"]["tile"]["properties"]["type"]["enum"]
    rows = _table_rows(_format_page(), "### Tiles")
    assert [f"`{t}`" for t in types if f"`{t}`" not in rows] == []
    brief = README.read_text(encoding="utf-8").split("## The file format in brief", 1)[1]
    assert [f"`{t}`" for t in types if f"`{t}`" not in brief] == [], "the README's brief"


def _schema_names(node: object) -> set[str]:
    """Every text value the schema allows by name (its string enums and constants)."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "enum" and isinstance(value, list):
                found |= {v for v in value if isinstance(v, str)}
            elif key == "const" and isinstance(value, str):
                found.add(value)
            else:
                found |= _schema_names(value)
    elif isinstance(node, list):
        for value in node:
            found |= _schema_names(value)
    return found


def test_every_named_value_of_the_schema_is_on_the_format_page():
    """Directions, tile types, rotations, finish modes, option card ids..."""
    page = _format_page()
    names = _schema_names(SCHEMA)
    assert {"N", "conveyor", "ccw", "all"} <= names
    assert sorted(v for v in names if f"`{v}`" not in page and f'`"{v}"`' not in page) == []


def test_every_key_of_the_schema_is_named_on_the_format_page():
    page = _format_page()
    missing = sorted(key for key in _schema_keys(SCHEMA) if f"`{key}`" not in page)
    assert missing == []


def test_every_rule_option_has_a_row_with_its_default():
    rows = _table_rows(_format_page(), "## `rules`")
    options = SCHEMA["$defs"]["rules"]["properties"]
    assert sorted(f"`{name}`" for name in options if f"`{name}`" not in rows) == []
    page = _format_page()
    for name, option in options.items():
        if "default" in option:
            default = f"`{json.dumps(option['default'])}`"
            assert re.search(rf"^\| `{name}` \| {re.escape(default)} \|", page, re.M), name


def test_the_problem_code_tables_list_exactly_the_engine_codes():
    page = _format_page()
    documented = set(re.findall(r"^\| ([EWI]\d{3}) \|", page, re.M))
    codes = _engine_codes()
    assert len(codes) >= 40                 # the scan finds the codes at all
    assert sorted(codes - documented) == [], "codes the page does not explain"
    assert sorted(documented - codes) == [], "codes the page explains that the engine lacks"


def test_the_whole_file_on_the_format_page_is_a_valid_course_whose_checks_pass():
    blocks = re.findall(r"^## A whole file\n.*?```json\n(.*?)^```", _format_page(), re.S | re.M)
    assert len(blocks) == 1
    data = json.loads(blocks[0])
    assert validate_data(data) == []
    results = run_checks(load_dict(data))
    assert results and all(r.passed for r in results), [r.describe() for r in results]


# ---------------------------------------------------------------- the README's commands

def _readme_commands() -> list[list[str]]:
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", README.read_text(encoding="utf-8"),
                            re.S | re.M):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] in ("rallyforge", "rallyforge-editor"):
                commands.append(words)
    return commands


def test_the_readme_tour_shows_every_command():
    shown = {words[1] for words in _readme_commands() if words[0] == "rallyforge"}
    assert shown == set(COMMANDS)
    assert any(words[0] == "rallyforge-editor" for words in _readme_commands())


@pytest.mark.parametrize("words", _readme_commands(), ids=" ".join)
def test_every_command_line_in_the_readme_parses(words):
    parser = build_parser() if words[0] == "rallyforge" else editor_parser()
    try:
        parser.parse_args(words[1:])
    except SystemExit as done:      # --help and --version end here too, with 0
        assert done.code == 0, f"`{' '.join(words)}` is not a valid command line"
