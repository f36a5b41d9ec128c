"""Which running editor window owns a course's automatic backup.

A lock file beside the backup (.NAME.autosave.lock beside NAME.autosave.json)
holds its owner: process id, host and the window's key, as JSON. It is
created exclusively, so two editors never both take it. A lock is live while
its owner runs: for this process, while the window holds it; for another
process on this host, while that process exists; for another host, always
(it cannot be checked from here). A lock whose owner is gone (the editor
crashed or was killed) is stale: the next editor takes it over, and the
backup beside it is that editor's to offer back or delete.
"""
from __future__ import annotations

import json
import os
import socket
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

HOST = socket.gethostname()
# The keys of the windows of this process that hold locks (or may take some).
LIVE_KEYS: set[str] = set()


@dataclass(frozen=True)
class Owner:
    pid: int
    host: str
    key: str

    def describe(self) -> str:
        if self.pid == os.getpid() and self.host == HOST:
            return "another window of this editor"
        where = "" if self.host == HOST else f" on {self.host}"
        return f"another Rally Forge editor (process {self.pid}{where})"


def lock_path(backup: Path) -> Path:
    name = backup.name.removesuffix(".json")
    return backup.with_name(f".{name}.lock")


def read_owner(lock: Path) -> Owner | None:
    """The owner written in a lock file; None when there is none or it cannot be read."""
    try:
        data = json.loads(lock.read_text(encoding="utf-8"))
        return Owner(int(data["pid"]), str(data["host"]), str(data["key"]))
    except (OSError, ValueError, TypeError, KeyError):
        return None


def is_live(owner: Owner) -> bool:
    if owner.host != HOST:
        return True
    if owner.pid == os.getpid():
        return owner.key in LIVE_KEYS
    if os.name == "nt":     # os.kill would end the process there: never count it gone
        return True
    try:
        os.kill(owner.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:     # it exists, under another user
        return True
    return True


class BackupLocks:
    """The backup locks held by one window."""

    def __init__(self):
        self.me = Owner(os.getpid(), HOST, uuid.uuid4().hex)
        self.held: set[Path] = set()        # the backups whose locks are this window's
        LIVE_KEYS.add(self.me.key)

    def holder(self, backup: Path) -> Owner | None:
        """The live owner of the backup other than this window; None when it is
        free, stale or this window's."""
        owner = read_owner(lock_path(backup))
        if owner is None or owner == self.me or not is_live(owner):
            return None
        return owner

    def take(self, backup: Path) -> Owner | None:
        """Make the backup this window's: None when it is (now), else its live
        owner. OSError when the lock cannot be written there."""
        lock = lock_path(backup)
        for _attempt in range(3):
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                owner = read_owner(lock)
                if owner == self.me:
                    self.held.add(backup)
                    return None
                if owner is not None and is_live(owner):
                    return owner
                lock.unlink(missing_ok=True)     # stale: its editor is gone
                continue
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(asdict(self.me), out)
            self.held.add(backup)
            return None
        raise OSError(f"the lock {lock} keeps changing")

    def release(self, backup: Path) -> None:
        lock = lock_path(backup)
        if read_owner(lock) == self.me:
            try:
                lock.unlink(missing_ok=True)
            except OSError:
                pass        # left behind, it is stale once this window is gone
        self.held.discard(backup)

    def release_all(self) -> None:
        for backup in list(self.held):
            self.release(backup)

    def close(self) -> None:
        """The window is going: free every lock it holds, for good."""
        self.release_all()
        LIVE_KEYS.discard(self.me.key)
