"""`make`'s install step: quiet when it works (no setuptools banner at the
first `make run`), its whole output shown when it fails. Run with a stand-in
for the environment's python that says what pip and setuptools say."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BANNER = "Please be careful with folders in your working directory with the same name"


def install(tmp_path: Path, status: int) -> subprocess.CompletedProcess:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    fake = venv / "bin" / "python"
    fake.write_text("#!/bin/sh\n"
                    f"echo 'BuildBackendWarning: Editable installation. {BANNER}' >&2\n"
                    "echo 'ERROR: No matching distribution found for pyside6' >&2\n"
                    f"exit {status}\n")
    fake.chmod(0o755)
    return subprocess.run(["make", "-s", "-C", str(ROOT), f"VENV={venv}", f"{venv}/.installed"],
                          capture_output=True, text=True)


@pytest.mark.skipif(shutil.which("make") is None, reason="no make here")
def test_a_working_install_says_one_line_and_no_banner(tmp_path):
    done = install(tmp_path, 0)
    assert done.returncode == 0, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert BANNER not in said
    assert said.splitlines() == [f"Installing Rally Forge and its dependencies into "
                                 f"{tmp_path / 'venv'} (a few minutes the first time)"]
    assert (tmp_path / "venv" / ".installed").exists()


@pytest.mark.skipif(shutil.which("make") is None, reason="no make here")
def test_a_failed_install_shows_all_it_said(tmp_path):
    done = install(tmp_path, 1)
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert "No matching distribution found for pyside6" in said
    assert "the install failed; its output is above" in said
    assert not (tmp_path / "venv" / ".installed").exists()
