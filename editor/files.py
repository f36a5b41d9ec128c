"""Files: new, open, save, save as, revert, recent files and autosave.

Saving goes through engine.loader.save_file: a temporary file beside the
target, flushed, then renamed over it, so a crash never leaves half a file.

Autosave: while the course has unsaved changes, every AUTOSAVE_MS the
course is written (atomically too) to NAME.autosave.json beside its file, or
to the application data folder for an untitled course or a folder that
cannot be written. Saving, reverting or closing deletes it; opening a file
with a newer autosave offers it back (as one undo step over the file).
"""
from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QStandardPaths, QTimer, Signal

from editor import commands, dialogs
from engine import edit
from engine.loader import dumps, read_file, save_file, write_text_atomic

AUTOSAVE_MS = 60_000
RECENT_MAX = 10
SETTINGS = ("RallyForge", "Rally Forge")


def settings() -> QSettings:
    return QSettings(*SETTINGS)


def app_data_dir() -> Path:
    """Where autosaves go when they cannot go beside their file."""
    base = QStandardPaths.writableLocation(QStandardPaths.GenericDataLocation)
    return Path(base) / "rally-forge"


def autosave_paths(path: str | None) -> list[Path]:
    """Where the autosave of a course goes, best place first."""
    if path is None:
        return [app_data_dir() / "untitled.autosave.json"]
    p = Path(path).resolve()
    digest = hashlib.sha1(str(p).encode()).hexdigest()[:8]
    return [p.with_name(p.stem + ".autosave.json"),
            app_data_dir() / f"{p.stem}-{digest}.autosave.json"]


class Files(QObject):
    recentChanged = Signal()

    def __init__(self, window, doc, parent=None):
        super().__init__(parent)
        self.window = window
        self.doc = doc
        self.dirty = False              # changed since the last autosave
        self.timer = QTimer(self)
        self.timer.setInterval(AUTOSAVE_MS)
        self.timer.timeout.connect(self.autosave)
        self.timer.start()
        doc.changed.connect(self.on_changed)
        doc.cleanReached.connect(self.discard_autosave)   # nothing left to recover

    # ------------------------------------------------------------ recent files

    def recent(self) -> list[str]:
        value = settings().value("recentFiles", [])
        if isinstance(value, str):
            value = [value]
        return [p for p in (value or []) if p]

    def remember(self, path: str) -> None:
        path = str(Path(path).resolve())
        recent = [path] + [p for p in self.recent() if p != path]
        settings().setValue("recentFiles", recent[:RECENT_MAX])
        self.recentChanged.emit()

    def forget(self, path: str) -> None:
        settings().setValue("recentFiles", [p for p in self.recent() if p != path])
        self.recentChanged.emit()

    # ------------------------------------------------------------ opening

    def maybe_save(self) -> bool:
        """Ask before unsaved changes are lost; False means stop (cancelled or
        the save failed)."""
        if not self.doc.modified:
            return True
        answer = dialogs.ask_save_changes(self.window, self.doc.display_name)
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new(self, scenario) -> bool:
        if not self.maybe_save():
            return False
        self.drop_autosave_if_discarded()
        self.doc.reset(scenario, None)
        return True

    def open(self, path: str | None = None) -> bool:
        if not self.maybe_save():
            return False
        if path is None:
            start = str(Path(self.doc.path).parent) if self.doc.path else ""
            path = dialogs.get_open_path(self.window, directory=start)
            if path is None:
                return False
        return self.load(path)

    def load(self, path: str) -> bool:
        """Open `path` over the current course (no questions about it)."""
        scenario, problems = read_file(path)
        if scenario is None:
            dialogs.show_error(self.window, "Cannot open file",
                               f"{Path(path).name} cannot be opened:\n\n"
                               + "\n".join(p.message for p in problems),
                               details=str(path))
            if not Path(path).exists():
                self.forget(str(Path(path).resolve()))
            return False
        self.drop_autosave_if_discarded()
        self.doc.reset(scenario, str(path), problems)
        if self.doc.dropped:     # the course differs from the file: it is not saved as it is
            self.doc.undo_stack.resetClean()
        self.remember(path)
        self.offer_autosave()
        return True

    def revert(self) -> bool:
        if self.doc.path is None or not self.doc.modified:
            return False
        if not dialogs.ask_revert(self.window, self.doc.display_name):
            return False
        self.discard_autosave()
        return self.load(self.doc.path)

    # ------------------------------------------------------------ saving

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self.write(self.doc.path)

    def save_as(self) -> bool:
        start = self.doc.path or (self.doc.scenario.name or "course") + ".json"
        path = dialogs.get_save_path(self.window, directory=start)
        if path is None:
            return False
        if not path.lower().endswith(".json"):
            path += ".json"
        return self.write(path)

    def write(self, path: str) -> bool:
        dropped = self.doc.dropped
        if dropped and not dialogs.ask_save_dropped(self.window, self.doc.display_name, dropped):
            return False
        try:
            save_file(self.doc.scenario, path)
        except OSError as exc:
            dialogs.show_error(self.window, "Cannot save",
                               f"{Path(path).name} could not be saved: {exc.strerror or exc}",
                               details=str(path))
            return False
        self.discard_autosave()
        self.doc.mark_saved(path)
        self.remember(path)
        return True

    # ------------------------------------------------------------ autosave

    def on_changed(self, area) -> None:
        self.dirty = True

    def autosave(self) -> Path | None:
        """Write the autosave if there is something new to keep; its path."""
        if not (self.dirty and self.doc.modified):
            return None
        text = dumps(self.doc.scenario)
        for target in autosave_paths(self.doc.path):
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                write_text_atomic(target, text)
            except OSError:
                continue
            self.dirty = False
            return target
        return None

    def drop_autosave_if_discarded(self) -> None:
        """Before another course replaces this one: its changes were discarded
        (if it was modified), so its autosave goes too. An unmodified course
        leaves any autosave alone: it may be from an earlier session."""
        if self.doc.modified:
            self.discard_autosave()

    def discard_autosave(self) -> None:
        for target in autosave_paths(self.doc.path):
            try:
                target.unlink()
            except OSError:
                pass

    def offer_autosave(self) -> bool:
        """Offer back an autosave newer than the file; True if restored."""
        path = self.doc.path
        found = [p for p in autosave_paths(path) if p.is_file()]
        if not found:
            return False
        newest = max(found, key=lambda p: p.stat().st_mtime)
        saved = Path(path).stat().st_mtime if path and Path(path).exists() else 0
        if newest.stat().st_mtime <= saved:
            self.discard_autosave()
            return False
        when = datetime.fromtimestamp(newest.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        if not dialogs.ask_restore_autosave(self.window, self.doc.display_name, when):
            self.discard_autosave()
            return False
        scenario, problems = read_file(newest)
        if scenario is None:
            dialogs.show_error(self.window, "Cannot restore",
                               "The automatic backup cannot be read:\n\n"
                               + "\n".join(p.message for p in problems))
            return False
        commands.change(self.doc, edit.canonical(scenario), "Restore automatic backup")
        self.dirty = True
        return True

    def close(self) -> bool:
        """Before the window closes: ask about unsaved changes, then tidy up."""
        if not self.maybe_save():
            return False
        self.timer.stop()
        self.discard_autosave()
        return True
