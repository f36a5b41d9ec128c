"""The `rallyforge-editor` command: open the course studio, or export a
course as a picture without a window.

    rallyforge-editor [FILE]
    rallyforge-editor --export FILE OUT.(png|svg|pdf) [--square-mm N] [--square-px N]
                      [--paper A4|Letter|A3]

Exit codes: 0 success, 1 a file that cannot be read or exported, 2 bad usage.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rallyforge.engine.version import version

PROG = "rallyforge-editor"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # bad usage: exit 2 with a short message, never a traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
        return value
    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Rally Forge: design, check and print robot-race "
                                            "courses.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.add_argument("file", nargs="?", metavar="FILE", help="a scenario file to open")
    parser.add_argument("--export", nargs=2, metavar=("FILE", "OUT"),
                        help="write FILE's board to OUT (.png, .svg or .pdf) without a window")
    parser.add_argument("--square-mm", type=_positive(float), metavar="N",
                        help="PDF: millimetres per square on paper (default 25)")
    parser.add_argument("--square-px", type=_positive(int), metavar="N",
                        help="PNG and SVG: pixels per square (default 64)")
    parser.add_argument("--paper", choices=("A4", "Letter", "A3"),
                        help="PDF: the paper (default A4); pages turn and split to need as few "
                             "as they can")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:      # --help, or bad usage (code 2)
        return exit_.code if isinstance(exit_.code, int) else 2
    if args.export:
        if args.file:
            return _usage(parser, "give either FILE or --export FILE OUT, not both")
        return export_command(args.export[0], args.export[1], args.square_mm or 25.0,
                              args.square_px or 64, args.paper or "A4")
    if args.square_mm is not None or args.square_px is not None or args.paper is not None:
        return _usage(parser, "--square-mm, --square-px and --paper go with --export")
    return run_window(args.file)


def _usage(parser: argparse.ArgumentParser, message: str) -> int:
    parser.print_usage(sys.stderr)
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 1


def export_command(source: str, out: str, square_mm: float = 25.0, square_px: int = 64,
                   paper: str = "A4") -> int:
    """Export a scenario file's board; a one-line message and 1 on failure.
    A QGuiApplication is created on use (offscreen when there is no display)."""
    from rallyforge.drawing import pictures
    from rallyforge.engine.format.loader import load_file
    from rallyforge.engine.model.problems import ScenarioError

    suffix = Path(out).suffix.lower()
    if suffix not in pictures.EXTENSIONS:
        return _fail(f"cannot export to {out}: the name must end in .png, .svg or .pdf"
                     + (f", not {suffix}" if suffix else ""))
    try:
        scenario = load_file(source)
    except ScenarioError as error:
        return _fail(f"{source}: {_describe(error)}")
    try:
        pictures.export(scenario, out, square_mm=square_mm, square_px=square_px, paper=paper)
    except (OSError, ValueError) as error:
        detail = error.strerror if isinstance(error, OSError) and error.strerror else error
        return _fail(f"cannot export to {out}: {detail}")
    print(f"exported {source} to {out}")
    return 0


def _describe(error) -> str:
    problems = getattr(error, "problems", [])
    if not problems:
        return str(error)
    first = problems[0]
    where = f" (at {first.pointer})" if first.pointer else ""
    more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
    return f"{first.code}: {first.message}{where}{more}"


def run_window(path: str | None = None) -> int:
    """Show the main window and run the event loop."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else PROG])
    app.setApplicationName("Rally Forge")
    app.setOrganizationName("Rally Forge")
    try:
        from rallyforge.editor.main_window import MainWindow
    except ImportError as error:
        return _fail(f"the editor window is not available: {error}")
    window = MainWindow(path=path)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
