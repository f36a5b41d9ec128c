"""Which running editor window owns a course's automatic backup.

A lock file beside the backup (.NAME.autosave.lock beside NAME.autosave.json)
is a Qt ``QLockFile``: created exclusively, so two editors never both take it,
and holding its owner's process id, program and host. Qt judges it stale when
that process is gone, on every platform (a lock of another host is live: it
cannot be checked from here). Locks never go stale by age
(``setStaleLockTime(0)``): an editor may keep a course open for days.

Within one editor process each window holds locks of its own: a lock of this
process is live while its window holds it (the window's key in LIVE_KEYS), so
that another window takes over the backup of a window that is gone. A lock
whose owner is gone (the editor crashed or was killed) is stale: the next
editor takes it over, and the backup beside it is that editor's to offer back
or delete. A lock file that cannot be read (half written by a crash) is stale
too.
"""
from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QSysInfo

HOST = QSysInfo.machineHostName()       # the host QLockFile writes
# The keys of the windows of this process that hold locks (or may take some).
LIVE_KEYS: set[str] = set()


@dataclass(frozen=True)
class Owner:
    pid: int
    host: str
    key: str        # a window's key in this process; for another process, its program

    def describe(self) -> str:
        if self.pid == os.getpid() and self.host == HOST:
            return "another window of this editor"
        where = "" if self.host == HOST else f" on {self.host}"
        return f"another Rally Forge editor (process {self.pid}{where})"


# The locks held by the windows of this process: lock file -> (window's locks, backup).
_HOLDERS: dict[Path, tuple[BackupLocks, Path]] = {}


def lock_path(backup: Path) -> Path:
    name = backup.name.removesuffix(".json")
    return backup.with_name(f".{name}.lock")


def _lock_file(lock: Path) -> QLockFile:
    q = QLockFile(str(lock))
    q.setStaleLockTime(0)
    return q


def _ours(owner: Owner) -> bool:
    return owner.pid == os.getpid() and owner.host == HOST


def _written_owner(q: QLockFile) -> Owner | None:
    """The owner a lock file names; None when it cannot be read."""
    pid, host, program = q.getLockInfo()
    return Owner(pid, host, program) if pid > 0 else None


def read_owner(lock: Path) -> Owner | None:
    """The owner of a lock file (the window, for a lock of this process); None
    when there is none or it cannot be read."""
    owner = _written_owner(_lock_file(lock))
    if owner is not None and _ours(owner) and lock in _HOLDERS:
        return _HOLDERS[lock][0].me
    return owner


class BackupLocks:
    """The backup locks held by one window."""

    def __init__(self):
        self.me = Owner(os.getpid(), HOST, uuid.uuid4().hex)
        self._locks: dict[Path, QLockFile] = {}     # backup -> its lock, held
        LIVE_KEYS.add(self.me.key)

    @property
    def held(self) -> set[Path]:
        """The backups whose locks are this window's."""
        return set(self._locks)

    def holder(self, backup: Path) -> Owner | None:
        """The live owner of the backup other than this window; None when it is
        free, stale (its lock file is removed on the way) or this window's."""
        if backup in self._locks:
            return None
        try:
            owner = self.take(backup)
        except OSError:
            return None             # no lock can be written there: nobody holds one
        if owner is None:
            self.release(backup)
        return owner

    def take(self, backup: Path) -> Owner | None:
        """Make the backup this window's: None when it is (now), else its live
        owner. OSError when the lock cannot be written there."""
        if backup in self._locks:
            return None
        lock = lock_path(backup)
        mine = self._window_holding(lock)
        if mine is not None:
            return mine
        q = _lock_file(lock)
        if not q.tryLock(0):
            if q.error() != QLockFile.LockError.LockFailedError:
                raise OSError(f"cannot write the lock {lock}")
            owner = _written_owner(q)
            if owner is not None and not _ours(owner):
                return owner            # Qt finds its process running
            # unreadable, or left by a window of this editor that holds it no more
            if not (q.removeStaleLockFile() and q.tryLock(0)):
                raise OSError(f"the lock {lock} keeps changing")
        self._locks[backup] = q
        _HOLDERS[lock] = (self, backup)
        return None

    @staticmethod
    def _window_holding(lock: Path) -> Owner | None:
        """The window of this process whose live lock this is; a window gone
        (its key no more live) gives its lock up."""
        if lock not in _HOLDERS:
            return None
        window, backup = _HOLDERS[lock]
        if window.me.key in LIVE_KEYS:
            return window.me
        window.release(backup)
        return None

    def release(self, backup: Path) -> None:
        q = self._locks.pop(backup, None)
        if q is None:
            return
        q.unlock()              # (a file it cannot remove is stale once this window is gone)
        lock = lock_path(backup)
        if _HOLDERS.get(lock, (None,))[0] is self:
            del _HOLDERS[lock]

    def release_all(self) -> None:
        for backup in list(self._locks):
            self.release(backup)

    def close(self) -> None:
        """The window is going: free every lock it holds, for good."""
        self.release_all()
        LIVE_KEYS.discard(self.me.key)
