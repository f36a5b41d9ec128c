"""Who holds and who carries the flags of a team race, frame by frame
(docs/rules.md 13.5 and 13.7), read from the race's event log as the replay
reads everything else: ``team_flag`` gives a flag to a team (flag control),
``pick_up`` and ``drop`` move a flag onto a robot and off it again (capture).

    states = flag_states(scenario, timeline)
    states[12]          # every flag as it stands after frame 12
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from rallyforge.engine.analysis.replay import Timeline
from rallyforge.engine.model.scenario import Scenario


@dataclass(frozen=True)
class FlagState:
    number: int                         # 1, 2, ... in the file's order
    square: tuple[int, int] | None      # where it lies; None while carried
    team: str | None = None             # capture: the team whose flag it is (its home board's)
    carrier: str | None = None          # capture: the robot carrying it
    holder: str | None = None           # flag control: the team holding it


def flag_owners(scenario: Scenario) -> list[str | None]:
    """Each flag's team under "capture": the team whose home board it stands
    on (None for a flag on no home board, and on other courses)."""
    if scenario.rules.victory != "capture":
        return [None] * len(scenario.flags)
    out: list[str | None] = []
    for f in scenario.flags:
        out.append(next((t.name for t in scenario.teams
                         if t.home is not None and t.home.contains(f.x, f.y)), None))
    return out


def flag_states(scenario: Scenario, timeline: Timeline) -> list[tuple[FlagState, ...]]:
    """Every flag after each frame of `timeline` (a race of `scenario`). A
    pick-up takes the flag lying on its square that is not the carrier's
    own team's (13.7); a drop puts the carrier's flag on the square it names."""
    teams = flag_owners(scenario)
    flags = [FlagState(k + 1, (f.x, f.y), teams[k]) for k, f in enumerate(scenario.flags)]
    sides = timeline.sides
    events = timeline.events
    out: list[tuple[FlagState, ...]] = []
    done = 0
    for frame in timeline.frames:
        for e in events[done:frame.events[1]]:
            if e.kind == "team_flag" and e.amount is not None:
                k = e.amount - 1
                flags[k] = replace(flags[k], holder=str(e.target))
            elif e.kind == "pick_up" and e.src is not None:
                own = sides.get(str(e.robot), (None, None))[0]
                taken = next((f.number - 1 for f in flags if f.square == tuple(e.src)
                              and f.team != own), None)
                if taken is not None:
                    flags[taken] = replace(flags[taken], square=None, carrier=e.robot)
            elif e.kind == "drop" and e.src is not None:
                for k, f in enumerate(flags):
                    if f.carrier == e.robot:
                        flags[k] = replace(f, square=(e.src[0], e.src[1]), carrier=None)
        done = max(done, frame.events[1])
        out.append(tuple(flags))
    return out
