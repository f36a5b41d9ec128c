"""Backups and files shared with other editors: one owner per backup (a lock
beside it), a file changed on disk asked about before it is saved over, a
backup kept whatever the file's time, and untitled work offered back at every
start."""
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rallyforge.editor import backup_lock
from rallyforge.editor.backup_lock import BackupLocks, lock_path
from rallyforge.engine.format.loader import load_file, save_file
from rallyforge.engine.model.scenario import Board, Dock, Flag, Scenario, Tile
from tests.editor_support import (  # noqa: F401  (fixtures)
    answers, click, crash, make_window, window,
)

ROOT = Path(__file__).resolve().parent.parent


def course(name="Course"):
    return Scenario(name, Board(8, 6, tiles=(Tile(3, 3, "pit"),)), (Flag(6, 1),),
                    (Dock(0, 5, "N"),))


def saved(tmp_path, name="c1.json", scenario=None):
    path = tmp_path / name
    save_file(scenario or course(), path)
    return path


def edited_backup(window):
    """Paint a square, write the backup; the edited course and the backup's path."""
    click(window.view, 7.5, 5.5)
    return window.doc.scenario, window.files.autosave()


# ------------------------------------------------------------ one owner per backup

def test_a_second_window_on_an_open_file_says_so_and_leaves_the_backup_alone(
        make_window, answers, tmp_path):
    path = saved(tmp_path)
    first = make_window(path)
    edited, backup = edited_backup(first)
    assert backup == tmp_path / "c1.json.autosave.json"
    assert backup_lock.read_owner(lock_path(backup)) == first.files.locks.me

    second = make_window(path)                             # declined: not opened
    assert answers.asked == ["open_elsewhere"] and second.doc.path is None
    answers.open_elsewhere = True
    assert second.files.open(str(path))
    assert answers.asked == ["open_elsewhere"] * 2         # never offered as crash recovery
    assert second.doc.scenario == course()
    click(second.view, 0.5, 0.5)
    assert second.files.autosave() is None                 # the first window's backup stays its own
    answers.save_changes = "discard"
    assert second.close()
    assert load_file(backup) == edited and lock_path(backup).exists()
    assert first.files.autosave() is None and first.files.locks.held == {backup}

    answers.save_changes = "discard"
    assert first.close()                                   # the owner tidies up
    assert not backup.exists() and not lock_path(backup).exists()


@pytest.fixture
def other_editor(tmp_path):
    """Another editor process holding the lock of a backup, until killed."""
    started = []

    def start(backup):
        code = ("import sys; from pathlib import Path; from rallyforge.editor.backup_lock import BackupLocks\n"
                f"assert BackupLocks().take(Path({str(backup)!r})) is None\n"
                "print('held', flush=True); sys.stdin.read()\n")
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        started.append(proc)
        assert proc.stdout.readline() == "held\n"
        return proc
    yield start
    for proc in started:
        proc.kill()
        proc.wait()


def test_a_file_open_in_another_editor_says_so_until_that_editor_is_gone(
        make_window, answers, tmp_path, other_editor, monkeypatch):
    from rallyforge.editor import dialogs
    path = saved(tmp_path)
    backup = tmp_path / "c1.json.autosave.json"
    save_file(course("Their unsaved work"), backup)
    proc = other_editor(backup)
    told = []
    monkeypatch.setattr(dialogs, "ask_open_elsewhere",
                        lambda parent, name, owner: told.append((name, owner)) or True)
    w = make_window(path)
    assert told == [("c1.json", f"another Rally Forge editor (process {proc.pid})")]
    assert "restore" not in answers.asked                  # a running editor's backup
    click(w.view, 0.5, 0.5)
    assert w.files.autosave() is None
    answers.save_changes = "discard"
    assert w.close()
    assert load_file(backup).name == "Their unsaved work"  # never deleted

    proc.kill()                                            # it crashed: the lock is stale
    proc.wait()
    answers.restore = True
    again = make_window(path)
    assert len(told) == 1 and answers.asked[-1] == "restore"
    assert again.doc.scenario.name == "Their unsaved work"
    assert backup_lock.read_owner(lock_path(backup)) == again.files.locks.me


def test_a_lock_of_another_host_is_live_and_a_gone_process_is_stale(tmp_path):
    backup = tmp_path / "c1.json.autosave.json"
    lock = lock_path(backup)
    mine = BackupLocks()
    # a QLockFile's lines: process id, program, host
    lock.write_text("1\nrallyforge-editor\nelsewhere.example\n")
    assert mine.take(backup) == backup_lock.Owner(1, "elsewhere.example", "rallyforge-editor")
    assert "on elsewhere.example" in mine.holder(backup).describe()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    lock.write_text(f"{gone.stdout.strip()}\n{Path(sys.executable).name}\n{backup_lock.HOST}\n")
    assert mine.holder(backup) is None and mine.take(backup) is None
    assert backup_lock.read_owner(lock) == mine.me
    lock.write_text("not a lock")                          # half written by a crash: stale
    assert mine.take(backup) is None
    mine.close()
    assert not lock.exists()


def test_the_lock_of_a_killed_editor_is_stale_and_an_old_live_one_is_not(
        tmp_path, other_editor):
    first, second = (tmp_path / f"c{n}.json.autosave.json" for n in (1, 2))
    procs = [other_editor(first), other_editor(second)]
    day_ago = lock_path(first).stat().st_mtime - 86400
    os.utime(lock_path(first), (day_ago, day_ago))         # held for a day: still live
    mine = BackupLocks()
    theirs = backup_lock.Owner(procs[0].pid, backup_lock.HOST, Path(sys.executable).resolve().name)
    assert mine.holder(first) == theirs and mine.take(first) == theirs
    assert mine.held == set()

    for proc in procs:                                     # their editors are gone, the files stay
        proc.kill()
        proc.wait()
    assert lock_path(first).read_text().split("\n")[0] == str(procs[0].pid)
    assert mine.holder(first) is None                      # stale: nobody's
    assert mine.take(second) is None and mine.held == {second}     # taken over
    assert lock_path(second).read_text().split("\n")[0] == str(os.getpid())
    assert backup_lock.read_owner(lock_path(second)) == mine.me
    mine.close()
    assert not lock_path(second).exists()


def test_files_whose_names_differ_in_case_have_backups_of_their_own(make_window, answers, tmp_path):
    lower, upper = tmp_path / "c1.json", tmp_path / "c1.JSON"
    save_file(course("lower"), lower)
    save_file(course("upper"), upper)
    if len(list(tmp_path.glob("c1.*"))) < 2:
        pytest.skip("the file system takes c1.json and c1.JSON for one file")
    first, second = make_window(lower), make_window(upper)
    assert answers.asked == []                             # two files, not one open twice
    lower_edit, lower_backup = edited_backup(first)
    upper_edit, upper_backup = edited_backup(second)
    assert lower_backup != upper_backup
    assert load_file(lower_backup) == lower_edit and load_file(upper_backup) == upper_edit


# ------------------------------------------------------------ changed on disk

def test_saving_over_a_file_changed_on_disk_asks_first(make_window, answers, tmp_path):
    path = saved(tmp_path)
    w = make_window(path)
    click(w.view, 7.5, 5.5)
    os.utime(path, (2_000_000_000, 2_000_000_000))         # a newer time, the same bytes
    assert w.files.save() and answers.asked == []
    click(w.view, 6.5, 5.5)
    save_file(course("Written by another program"), path)
    answers.overwrite_changed = "cancel"
    assert not w.files.save()
    assert answers.asked == ["overwrite_changed"] and w.doc.modified
    assert load_file(path).name == "Written by another program"
    answers.overwrite_changed = "save_as"
    answers.save_path = str(tmp_path / "mine.json")
    assert w.files.save()
    assert answers.asked[-2:] == ["overwrite_changed", "save_path"]
    assert load_file(tmp_path / "mine.json") == w.doc.scenario
    assert load_file(path).name == "Written by another program"
    save_file(course("Changed again"), tmp_path / "mine.json")
    click(w.view, 5.5, 5.5)
    answers.overwrite_changed = "overwrite"
    assert w.files.save() and answers.asked[-1] == "overwrite_changed"
    assert load_file(tmp_path / "mine.json") == w.doc.scenario
    click(w.view, 4.5, 5.5)
    asked = len(answers.asked)
    assert w.files.save() and len(answers.asked) == asked  # its own save is no change


def test_a_backup_is_offered_even_when_the_file_is_newer(make_window, answers, tmp_path):
    path = saved(tmp_path)
    w = make_window(path)
    edited, backup = edited_backup(w)
    crash(w)
    later = backup.stat().st_mtime + 60
    os.utime(path, (later, later))                         # a git checkout touched the file
    answers.restore = True
    again = make_window(path)
    assert answers.asked == ["restore"] and again.doc.scenario == edited


def test_a_backup_holding_nothing_new_goes_without_a_question(make_window, answers, tmp_path):
    path = saved(tmp_path)
    w = make_window(path)
    click(w.view, 7.5, 5.5)
    backup = w.files.autosave()
    w.doc.undo_stack.undo()                 # (clean again deletes it: write it back as it is)
    save_file(w.doc.scenario, backup)
    crash(w)
    make_window(path)
    assert answers.asked == [] and not backup.exists()


# ------------------------------------------------------------ untitled work

def test_untitled_work_is_offered_at_start_whatever_file_opens(make_window, answers, tmp_path):
    from rallyforge.editor.main_window import OTHER_WINDOWS
    untitled = make_window(scenario=course("Sketch"))
    sketch, backup = edited_backup(untitled)
    assert backup == answers.app_data / "untitled.autosave.json"
    crash(untitled)
    path = saved(tmp_path, scenario=course("The file"))
    answers.restore = True
    w = make_window(path)
    assert answers.asked == ["restore"]
    assert w.doc.scenario.name == "The file" and not w.doc.modified
    recovered = [o for o in OTHER_WINDOWS if o.doc.scenario == sketch]
    assert len(recovered) == 1
    other = recovered[0]                                   # (deleted once closed)
    assert other.doc.path is None and other.doc.modified
    click(other.view, 0.5, 0.5)
    assert other.files.autosave() == backup                # backed up where it was
    answers.save_changes = "discard"
    assert other.close() and not backup.exists()


def test_new_untitled_work_never_writes_over_another_untitled_backup(make_window, answers,
                                                                     monkeypatch):
    from rallyforge.editor import dialogs
    first = make_window(scenario=course("First"))
    first_edit, first_backup = edited_backup(first)
    second = make_window()
    assert answers.asked == []                             # a running editor's work
    monkeypatch.setattr(dialogs, "get_new_course", lambda parent: course("New"))
    second.menus.actions["new"].trigger()
    _, second_backup = edited_backup(second)
    assert second_backup == answers.app_data / "untitled-2.autosave.json"
    assert load_file(first_backup) == first_edit
    crash(first)
    second.menus.actions["new"].trigger()                        # (discards the changes)
    _, third_backup = edited_backup(second)
    assert third_backup == answers.app_data / "untitled-2.autosave.json"
    assert load_file(first_backup) == first_edit           # left for the next start


def test_untitled_work_is_restored_in_a_window_started_without_a_file(make_window, answers):
    from rallyforge.editor.main_window import OTHER_WINDOWS
    untitled = make_window(scenario=course("Sketch"))
    sketch, backup = edited_backup(untitled)
    crash(untitled)
    answers.restore = True
    w = make_window()
    assert answers.asked == ["restore"] and not OTHER_WINDOWS
    assert w.doc.scenario == sketch and w.doc.modified and w.doc.path is None
    w.doc.undo_stack.undo()                                # one undo step
    w.doc.undo_stack.redo()
    answers.save_path = str(backup.parent.parent / "sketch.json")
    assert w.files.save() and not backup.exists()          # saved: the backup goes


def test_a_backup_under_the_old_name_is_offered_and_goes_once_saved(make_window, answers,
                                                                    tmp_path):
    # before backups kept the whole file name, c1.json's was c1.autosave.json
    path = saved(tmp_path)
    old = tmp_path / "c1.autosave.json"
    save_file(course("Unsaved work"), old)
    answers.restore = True
    w = make_window(path)
    assert answers.asked == ["restore"] and w.doc.scenario.name == "Unsaved work"
    assert w.files.save()
    assert load_file(path).name == "Unsaved work" and not old.exists()


def test_a_backup_under_the_old_name_held_by_another_editor_is_left_alone(
        make_window, answers, tmp_path, other_editor):
    path = saved(tmp_path)
    old = answers.app_data / f"c1-{hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:8]}" \
        ".autosave.json"
    old.parent.mkdir(parents=True, exist_ok=True)
    save_file(course("Their unsaved work"), old)
    other_editor(old)
    w = make_window(path)
    assert answers.asked == []                             # a running editor's backup
    click(w.view, 0.5, 0.5)
    answers.save_changes = "discard"
    assert w.close()
    assert load_file(old).name == "Their unsaved work"     # never deleted


def test_a_window_deleted_without_closing_leaves_its_file_free(make_window, answers, tmp_path,
                                                                qapp):
    """A window a script deletes (deleteLater) without closing it owns no
    backup any more: the next window opens the file without a question."""
    from PySide6.QtCore import QEvent

    from rallyforge.editor.main_window import MainWindow
    path = saved(tmp_path)
    first = MainWindow(path=str(path))
    assert lock_path(tmp_path / "c1.json.autosave.json").exists()
    first.deleteLater()
    qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    second = make_window(path)
    assert answers.asked == [] and second.doc.path == str(path)
