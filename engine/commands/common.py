"""What the file commands (validate, test, run) share: the files a list of
command-line paths stands for, one problem as a line, and printing a line
whatever the terminal's encoding."""
from __future__ import annotations

import os
import sys

from ..problems import Problem


def expand_paths(paths: list[str]) -> list[tuple[str, bool]]:
    """Each file to check as (name, False), named as given on the command
    line; a directory expands to its *.json files, sorted, or is (name, True)
    when it has none, so that it is reported."""
    out = []
    for path in paths:
        if os.path.isdir(path):
            try:
                names = sorted(n for n in os.listdir(path) if n.endswith(".json")
                               and os.path.isfile(os.path.join(path, n)))
            except OSError:
                names = None
            if names:
                out.extend((os.path.join(path, n), False) for n in names)
            else:
                out.append((path, True))
        else:
            out.append((path, False))
    return out


def problem_line(name: str, p: Problem) -> str:
    """`FILE:x,y: error E301: message` (`FILE:/pointer: ...` where the problem
    has no square, `FILE: ...` for the whole file)."""
    if p.x is not None and p.y is not None:
        where = f"{name}:{p.x},{p.y}:"
    elif p.pointer:
        where = f"{name}:{p.pointer}:"
    else:
        where = f"{name}:"
    return f"{where} {p.severity} {p.code}: {p.message}"


def write_line(text: str) -> None:
    """Print, escaping what the terminal's encoding cannot show (file names
    with undecodable bytes, names in other scripts)."""
    stream = sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        print(text, file=stream)
    except UnicodeEncodeError:
        print(text.encode(encoding, "backslashreplace").decode(encoding, "replace"), file=stream)
