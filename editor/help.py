"""The Help menu: the keyboard shortcuts (listed from the window's own menus,
so the list cannot drift from the keys), the file format and rules pages
(docs/ of the checkout, installed beside the editor as rallyforge/docs), and
About with the version."""
from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QMenu, QTextBrowser, QVBoxLayout

from rallyforge.engine.version import COMMANDS, version

APP_NAME = "Rally Forge"
DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = {"format": ("The File Format", "format.md"), "rules": ("The Rules", "rules.md")}
# What the board does with the mouse and held keys: no action stands for these.
MOUSE = (
    ("Scroll", "Wheel (Shift+Wheel: sideways)"),
    ("Zoom around the cursor", "Ctrl+Wheel"),
    ("Pan", "Middle button drag, or Space+drag"),
    ("Cancel a drag, or clear the selection", "Esc"),
    ("Express belt (belt tool)", "Shift as the drag starts"),
)


def action_name(action: QAction) -> str:
    return action.text().replace("&", "").rstrip("…").strip()


def shortcut_rows(menus: list[QMenu]) -> list[tuple[str, str, str]]:
    """(menu, action, keys) for every action with a key, menu by menu."""
    rows = []

    def walk(menu: QMenu, title: str) -> None:
        for action in menu.actions():
            if isinstance(submenu := action.menu(), QMenu):
                walk(submenu, title)
            elif action.shortcuts():
                keys = " or ".join(k.toString(QKeySequence.SequenceFormat.NativeText)
                                   for k in action.shortcuts())
                rows.append((title, action_name(action), keys))
    for menu in menus:
        walk(menu, menu.title().replace("&", ""))
    return rows


def shortcuts_html(menus: list[QMenu]) -> str:
    lines = ["<h2>Keyboard shortcuts</h2><table cellpadding='3'>"]
    last = None
    for title, name, keys in [*shortcut_rows(menus), *(("Board", n, k) for n, k in MOUSE)]:
        if title != last:
            lines.append(f"<tr><td colspan='2'><b>{escape(title)}</b></td></tr>")
            last = title
        lines.append(f"<tr><td>{escape(name)}</td><td><tt>{escape(keys)}</tt></td></tr>")
    lines.append("</table>")
    return "\n".join(lines)


def about_html() -> str:
    return (f"<h2>{APP_NAME} {escape(version())}</h2>"
            "<p>A desktop studio for designing, validating and simulating robot-race courses.</p>"
            f"<p>Command line: <tt>rallyforge</tt> ({', '.join(COMMANDS)}) and "
            "<tt>rallyforge-editor</tt>; both take <tt>--version</tt>.</p>")


def page_markdown(page: str) -> str:
    title, name = PAGES[page]
    path = DOCS / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return f"# {title}\n\nThis page is not installed here (looked for `{path}`)."


class TextWindow(QDialog):
    """A non-modal window showing a page of text (HTML or Markdown)."""

    def __init__(self, title: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        self.browser.setSearchPaths([str(DOCS)])    # a link from one page to the other opens it
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        self.resize(720, 640)

    def show_text(self, text: str, markdown: bool = False) -> None:
        if markdown:
            self.browser.setMarkdown(text)
        else:
            self.browser.setHtml(text)
        self.show()
        self.raise_()
