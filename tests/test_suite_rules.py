"""Rules of the test suite itself: no test reads a clock to judge speed (how
fast things are is measured by `make bench`, in bench/; a loaded machine
makes a timed test fail for no reason). Deadlines that end a wait
(time.monotonic, pytest-qt timeouts) are not measurements and stay."""
import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {"perf_counter", "perf_counter_ns", "process_time", "process_time_ns", "time",
          "time_ns", "thread_time", "thread_time_ns"}


def clock_reads(path: Path) -> list[str]:
    """Where a file reads a measuring clock: time.<clock>, a clock imported
    from time, or timeit."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Attribute) and node.attr in CLOCKS
                and isinstance(node.value, ast.Name) and node.value.id == "time"):
            found.append(f"{path.name}:{node.lineno} time.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module in ("time", "timeit"):
            found += [f"{path.name}:{node.lineno} from {node.module} import {a.name}"
                      for a in node.names if node.module == "timeit" or a.name in CLOCKS]
        elif isinstance(node, ast.Import) and any(a.name == "timeit" for a in node.names):
            found.append(f"{path.name}:{node.lineno} import timeit")
    return found


def test_no_test_reads_a_clock():
    assert [hit for path in sorted(TESTS.rglob("*.py")) for hit in clock_reads(path)] == []


def test_the_clock_finder_finds_each_form(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import time\nfrom time import perf_counter\nimport timeit\n"
                      "t = time.perf_counter()\nu = time.time()\ntime.sleep(0.1)\n"
                      "d = time.monotonic() + 60\n")
    assert clock_reads(sample) == ["sample.py:2 from time import perf_counter",
                                   "sample.py:3 import timeit", "sample.py:4 time.perf_counter",
                                   "sample.py:5 time.time"]
