"""Ctrl+C while a command runs: the `rallyforge` program's handler notes a
press here as well as raising KeyboardInterrupt, so that a balance run
(engine/analysis/balance/runner.py) stops at its next look even when the
KeyboardInterrupt is lost: raised inside a finalizer that the garbage
collector runs (say, while the command's modules import), Python drops it."""
import threading
from types import FrameType

pressed = threading.Event()


def interrupt(signum: int, frame: FrameType | None) -> None:
    """The SIGINT handler while a command runs (engine/cli/main.py)."""
    pressed.set()
    raise KeyboardInterrupt
