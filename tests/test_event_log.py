"""The event log reads as a list while it packs old events into compressed blocks."""
import dataclasses
import pickle
from pathlib import Path

import pytest

from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.events import Event, EventLog

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def events(n):
    return [Event(i // 10, i % 5 + 1, "move", "card", f"R{i % 3}", card=f"move1:{490 + i}")
            for i in range(n)]


@pytest.mark.parametrize("n", [0, 1, 3, 7, 9])
def test_reads_as_the_list_it_was_given(n):
    log = EventLog()
    log.BLOCK = 3                       # several packed blocks and a partial tail
    given = events(n)
    for e in given:
        log.append(e)
    assert len(log) == n and list(log) == given
    assert [log[i] for i in range(n)] == given
    assert [log[-i] for i in range(1, n + 1)] == [given[-i] for i in range(1, n + 1)]
    assert log[1:-1] == given[1:-1] and log[::2] == given[::2]
    with pytest.raises(IndexError):
        log[n]
    with pytest.raises(IndexError):
        log[-n - 1]


def test_full_blocks_are_stored_packed():
    log = EventLog()
    log.BLOCK = 100
    for e in events(250):
        log.append(e)
    assert len(log._blocks) == 2 and len(log._tail) == 50
    assert sum(map(len, log._blocks)) < len(pickle.dumps(events(200))) / 3


def test_a_long_race_log_is_the_same_as_it_was_recorded():
    scenario = load_file(SCENARIOS / "standard-course.json")
    rules = dataclasses.replace(scenario.rules, lives=10, max_rounds=40)
    race = new_race(dataclasses.replace(scenario, rules=rules), seed=5, robot_count=8, bot="random")
    race.run()
    log = race.events
    assert len(log) > log.BLOCK                 # some of it is packed
    assert log[0].kind == "place" and log[-1].kind == "end"
    assert [e.round for e in log] == sorted(e.round for e in log)
