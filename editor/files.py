"""Files: new, open, save, save as, revert, recent files and automatic backups.

Saving goes through rallyforge.engine.loader.save_file: a temporary file beside the
target, flushed, then renamed over it, so a crash never leaves half a file.
Before writing over the course's own file, saving checks that the file is
still what this window read or last wrote (a digest of its bytes): when
another program or window changed it, the designer chooses to overwrite it,
save elsewhere or cancel.

Backups (autosave): while the course has unsaved changes, every AUTOSAVE_MS
it is written (atomically too) to NAME.autosave.json beside its file (NAME
being the file's whole name), or to the application data folder when that
folder cannot be written. Untitled work goes to the application data folder,
untitled.autosave.json or the first free untitled-N.autosave.json. One window
owns a backup (editor/backup_lock.py): a file already open in another window
or editor opens only after saying so, is then not backed up here, and the
other's backup is never offered nor deleted. Saving, reverting or closing
deletes the window's backup. A backup left by an editor that is gone is
offered back (as one undo step) when its file is opened; untitled work at
every start, in a window of its own when this one holds a course.
"""
from __future__ import annotations

import hashlib
import re
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QStandardPaths, QTimer, Signal

from rallyforge.editor import commands, dialogs
from rallyforge.editor.backup_lock import BackupLocks, Owner
from rallyforge.editor.file_reader import read_in_background
from rallyforge.engine.analysis.course_card.build import kept_judged
from rallyforge.engine.format.loader import AUTOSAVE_SUFFIX, TILED_MAP
from rallyforge.engine.editing import edit
from rallyforge.engine.format.loader import dumps, read_file, save_file, write_text_atomic
from rallyforge.engine.model.scenario import Scenario

AUTOSAVE_MS = 60_000
RECENT_MAX = 10
SETTINGS = ("RallyForge", "Rally Forge")
UNTITLED = re.compile(r"untitled(-[0-9]+)?" + re.escape(AUTOSAVE_SUFFIX))


def settings() -> QSettings:
    return QSettings(*SETTINGS)


def app_data_dir() -> Path:
    """Where autosaves go when they cannot go beside their file."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(base) / "rally-forge"


def autosave_paths(path: str) -> list[Path]:
    """Where the backup of a course file goes, best place first. The whole
    file name is kept, so that c1.json and c1.JSON have backups of their own
    (and one, where the file system takes them for one file)."""
    return _backup_names(path, Path(path).resolve().name)


def old_autosave_paths(path: str) -> list[Path]:
    """Where backups of a course file were written before they kept its whole
    name (c1.autosave.json for c1.json): offered still, never written."""
    old = _backup_names(path, Path(path).resolve().stem)
    return [place for place in old if place not in autosave_paths(path)]


def _backup_names(path: str, name: str) -> list[Path]:
    """Beside the file, then in the app-data folder, a backup called after `name`."""
    p = Path(path).resolve()
    digest = hashlib.sha1(str(p).encode()).hexdigest()[:8]
    return [p.with_name(name + AUTOSAVE_SUFFIX),
            app_data_dir() / f"{name}-{digest}{AUTOSAVE_SUFFIX}"]


def untitled_backup(n: int) -> Path:
    return app_data_dir() / (f"untitled{AUTOSAVE_SUFFIX}" if n == 1
                             else f"untitled-{n}{AUTOSAVE_SUFFIX}")


def disk_digest(path: str | Path) -> str | None:
    """A digest of the file's bytes; None when it cannot be read (or is gone)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def modified_time(path: str | Path) -> float:
    try:
        return Path(path).stat().st_mtime
    except OSError:
        return 0.0


def backup_time(backup: Path) -> str:
    return datetime.fromtimestamp(backup.stat().st_mtime).strftime("%Y-%m-%d %H:%M")


class Files(QObject):
    recentChanged = Signal()
    # Untitled work recovered at start for a window of its own: (scenario, backup).
    recoveredElsewhere = Signal(object, object)
    # A Tiled map given to Open (or on the command line), to import: its path.
    # Unsaved changes were asked about already.
    mapChosen = Signal(str)

    def __init__(self, window, doc, parent=None):
        super().__init__(parent)
        self.window = window
        self.doc = doc
        self.dirty = False              # changed since the last autosave
        self.locks = BackupLocks()
        # a window deleted without closing (a script's, a test's) owns nothing any more
        locks = self.locks
        window.destroyed.connect(lambda *_: locks.close())
        self.untitled: Path | None = None     # the backup of untitled work, once chosen
        self.elsewhere: Owner | None = None   # who owns the file's backup, when not this window
        self.on_disk: str | None = None       # digest of the file as read or last written
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
        return [p for p in value if p] if isinstance(value, list) else []

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

    def new(self, scenario, unsaved: bool = False, ask: bool = True) -> bool:
        """Start `scenario` without a file. `unsaved`: a course that exists nowhere
        on disk (imported, assembled), so leaving it asks first, as after an edit.
        `ask=False` when the question about the current course was asked already."""
        if ask and not self.maybe_save():
            return False
        self.drop_autosave_if_discarded()
        self.doc.reset(scenario, None)
        if unsaved:
            self.doc.undo_stack.resetClean()
        self.claim()
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
        """Open `path` over the current course (unsaved changes are not asked
        about here); a file open elsewhere opens only if the designer agrees."""
        other = self.open_elsewhere(path)
        if other is not None and not dialogs.ask_open_elsewhere(
                self.window, Path(path).name, other.describe()):
            return False
        on_disk = disk_digest(path)          # before reading: a change in between is seen
        read = read_in_background(self.window, path)
        if read is None:                     # cancelled
            return False
        scenario, problems = read
        if scenario is None and problems[0].code == TILED_MAP:
            if dialogs.ask_import_map(self.window, Path(path).name):
                self.mapChosen.emit(str(path))
            return False
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
        self.on_disk = on_disk
        if self.doc.dropped:     # the course differs from the file: it is not saved as it is
            self.doc.undo_stack.resetClean()
        self.claim()
        self.remember(path)
        if self.elsewhere is None:
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
        same = self.doc.path is not None and Path(path).resolve() == Path(self.doc.path).resolve()
        if same and disk_digest(path) not in (None, self.on_disk):
            answer = dialogs.ask_overwrite_changed(self.window, Path(path).name)
            if answer == "save_as":
                return self.save_as()
            if answer != "overwrite":
                return False
        dropped = self.doc.dropped
        if dropped and not dialogs.ask_save_dropped(self.window, self.doc.display_name, dropped):
            return False
        try:
            save_file(kept_judged(self.doc.scenario), path)
        except OSError as exc:
            dialogs.show_error(self.window, "Cannot save",
                               f"{Path(path).name} could not be saved: {exc.strerror or exc}",
                               details=str(path))
            return False
        self.discard_autosave()
        self.doc.mark_saved(path)
        self.on_disk = disk_digest(path)
        if not same:
            self.claim()
        self.remember(path)
        return True

    # ------------------------------------------------------------ backups

    def claim(self) -> None:
        """The course now has another file (or none): hold the lock of its
        backup (at the first place one can be written), or learn who does."""
        self.locks.release_all()
        self.untitled = None
        self.elsewhere = None
        if self.doc.path is None:
            return              # untitled work gets its backup on the first autosave
        self.elsewhere = self.open_elsewhere(self.doc.path)
        if self.elsewhere is not None:
            return
        for place in autosave_paths(self.doc.path):
            try:
                place.parent.mkdir(parents=True, exist_ok=True)
                self.elsewhere = self.locks.take(place)
            except OSError:
                continue
            return

    def open_elsewhere(self, path: str) -> Owner | None:
        """The other window or editor that owns the backup of `path`, if any."""
        return next((owner for owner in map(self.locks.holder, autosave_paths(path))
                     if owner is not None), None)

    def take(self, backup: Path) -> bool:
        """Whether this window holds the backup's lock (taking it if free or stale)."""
        try:
            return self.locks.take(backup) is None
        except OSError:
            return False

    def backup_places(self) -> list[Path]:
        if self.doc.path is not None:
            return autosave_paths(self.doc.path)
        if self.untitled is None:
            self.untitled = self.free_untitled()
        return [self.untitled] if self.untitled is not None else []

    def free_untitled(self) -> Path | None:
        """The first untitled backup that holds nobody's work, now this window's."""
        n = 0
        while True:
            n += 1
            place = untitled_backup(n)
            if place.exists():
                continue        # someone's work, perhaps not recovered yet
            try:
                place.parent.mkdir(parents=True, exist_ok=True)
                if self.locks.take(place) is None:
                    return place
            except OSError:
                return None

    def on_changed(self, area) -> None:
        self.dirty = True

    def autosave(self) -> Path | None:
        """Write the autosave if there is something new to keep; its path."""
        if not (self.dirty and self.doc.modified) or self.elsewhere is not None:
            return None
        text = dumps(kept_judged(self.doc.scenario))
        for target in self.backup_places():
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                if self.locks.take(target) is not None:
                    continue
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
        """Delete the backups this window owns (never another's)."""
        for backup in self.locks.held:
            try:
                backup.unlink()
            except OSError:
                pass

    def read_backup(self, backup: Path) -> Scenario | None:
        scenario, problems = read_file(backup)
        if scenario is None:
            dialogs.show_error(self.window, "Cannot restore",
                               "The automatic backup cannot be read:\n\n"
                               + "\n".join(p.message for p in problems), details=str(backup))
            return None
        return edit.canonical(scenario)

    def offer_autosave(self) -> bool:
        """Offer back a backup of the file left by an editor that is gone, when
        it holds changes the file lacks (under today's name or the old one); True
        if restored. Declining deletes it."""
        places = autosave_paths(self.doc.path) + old_autosave_paths(self.doc.path)
        found = [p for p in places if p.is_file() and self.take(p)]
        if not found:
            return False
        newest = max(found, key=modified_time)
        scenario = self.read_backup(newest)
        if scenario is None:
            return False
        if scenario == self.doc.scenario:        # nothing the file lacks
            self.discard_autosave()
            return False
        note = ""
        if modified_time(self.doc.path) > newest.stat().st_mtime:
            note = ("The file was changed after this backup was made: restoring the backup "
                    "replaces those changes (Undo brings them back).")
        if not dialogs.ask_restore_autosave(self.window, self.doc.display_name,
                                            backup_time(newest), note):
            self.discard_autosave()
            return False
        self.restore(scenario)
        return True

    def offer_untitled_work(self) -> None:
        """At start: offer back each untitled course left by an editor that is
        gone; here when this window holds nothing yet, else in a window of its
        own. Declining deletes it."""
        folder = app_data_dir()
        if not folder.is_dir():
            return
        backups = sorted((p for p in folder.iterdir() if UNTITLED.fullmatch(p.name)),
                         key=modified_time)
        for backup in backups:
            if not self.take(backup):
                continue        # another editor's work in progress
            here = self.doc.path is None and not self.doc.modified and self.untitled is None
            scenario = self.read_backup(backup)
            note = "" if here else "It opens in a window of its own."
            if scenario is not None and dialogs.ask_restore_autosave(
                    self.window, "an untitled course", backup_time(backup), note):
                if here:
                    self.adopt_untitled(scenario, backup)
                else:
                    self.locks.release(backup)
                    self.recoveredElsewhere.emit(scenario, backup)
                continue
            if scenario is not None:
                try:
                    backup.unlink()
                except OSError:
                    pass
            self.locks.release(backup)

    def adopt_untitled(self, scenario: Scenario, backup: Path) -> None:
        """Hold untitled work recovered from `backup`, backed up there from now on."""
        if self.take(backup):
            self.untitled = backup
        self.restore(scenario)

    def restore(self, scenario: Scenario) -> None:
        commands.change(self.doc, scenario, "Restore automatic backup")
        self.dirty = True

    def close(self) -> bool:
        """Before the window closes: ask about unsaved changes, then tidy up."""
        if not self.maybe_save():
            return False
        self.timer.stop()
        self.discard_autosave()
        self.locks.close()
        return True
