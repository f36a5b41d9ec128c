"""Balance runs' races in compiled code: the compiled copy of the rules
(engine/rules/compiled/race.py) with the search bot's compiled race bot
(engine/bots/race_bot.py), the same races as the Python engine plays, seed
for seed, several times as fast; what they return read into the balance
run's summaries.

It applies (``applies``) where both are built, every robot is a search bot
starting from a dock, and the course uses nothing the compiled rules refuse
(race.refusal); ``python_reason`` says why the Python engine plays a race
instead.

    if applies(scenario, "search", len(docks)):
        summary = race_summary(scenario, seed, docks)    # a RaceSummary
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rallyforge.engine.analysis.balance.summary import Death, RaceSummary, TrialSummary, square_xy
from rallyforge.engine.bots import race_bot
from rallyforge.engine.bots.tables import MOST_CACHED_SQUARES
from rallyforge.engine.model.option_cards import OPTION_IDS
from rallyforge.engine.model.scenario import Scenario
from rallyforge.engine.rules.compiled import race as rules
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.outcome import first_finishers
from rallyforge.engine.rules.teams import TeamPlay


class CompiledDeath(NamedTuple):
    """A death as the compiled race gives it (_race.c race)."""
    robot: int              # robot order
    round: int
    square: int
    cause: int              # race.CAUSES
    leg: int                # the flag it was heading for, 1-based
    agent: int              # race.AGENTS
    origin: int             # the square `agent` sent it from, -1 for none
    reenters: int           # its archive square, -1 when it is out of the race


class CompiledRace(NamedTuple):
    """What the compiled race returns (_race.c race)."""
    rounds: int
    finished: list[tuple[int, int] | None]      # per robot: (round, register) of its finish
    flag_rounds: list[list[int]]                # per robot: the round it touched each flag in
    deaths: list[tuple[int, int, int, int, int, int, int, int]]     # CompiledDeath's
    occupancy: bytes    # per square: robots there at a register's end, little-endian uint32s
    held_option: list[bool]     # per robot: it gained an option card (played options)
    option_uses: list[int]      # per option card (OPTION_IDS order): the times it was used
    upgrades: list[int]         # the squares an upgrade square gave a card on, in order
    won: list[int]              # the team that won an elimination race (none: [])


class _Racer(NamedTuple):
    course: rules.CompiledCourse
    bot: object                 # None under elimination, whose bots are aimed:
    aimed: dict[int, object]    # per goal square, the bot with its one flag there


def _aim(racer: _Racer, scenario: Scenario) -> Callable[[int], object]:
    """The race's aim(square) under elimination (docs/rules.md 13.6): the
    bot heading for a robot on `square` (engine/bots/team_goals.py aimed),
    kept for the course's next races (a bot decides for a robot of another
    team wherever it stands), as many as the search bot keeps tables of
    (tables.py MOST_CACHED_SQUARES, by the course's squares)."""
    course, aimed = racer.course.course, racer.aimed
    room = max(16, MOST_CACHED_SQUARES // course.size)

    def aim(square: int) -> object:
        bot = aimed.get(square)
        if bot is None:
            if len(aimed) >= room:
                aimed.clear()
            bot = aimed[square] = race_bot.search_bot(course, (square,), scenario.rules)
        return bot
    return aim


# the last scenarios asked about, by identity (hashing a board is slow): (scenario, racer or None, why)
_known: dict[int, tuple[Scenario, _Racer | None, str | None]] = {}


def built() -> bool:
    """Whether the compiled race and its search bot are both built (and not switched off)."""
    return rules.built() and race_bot.built()


def applies(scenario: Scenario, bot: str, robots: int) -> bool:
    """Whether ``play`` can race `scenario` with that many `bot` robots."""
    return python_reason(scenario, bot, robots) is None


def python_reason(scenario: Scenario, bot: str, robots: int) -> str | None:
    """Why the Python engine, not ``play``, races `scenario` with that many
    `bot` robots; None when ``play`` does."""
    if bot != "search":
        return f"the {bot} bot"
    if not built():
        return "the compiled part is not built"
    if robots > rules.MOST_ROBOTS:
        return f"{robots} robots (1 to {rules.MOST_ROBOTS} race in C)"
    return _racer(scenario)[1]


def play(scenario: Scenario, seed: int, docks: tuple[int, ...],
         teams: TeamPlay | None = None) -> CompiledRace:
    """The race of search robots on `docks` (1-based, robot order) with
    `seed`, as Race(...).run() plays it (``applies`` is true); `teams`:
    ``sides``."""
    racer = _racer(scenario)[0]
    assert racer is not None
    return CompiledRace(*rules.race(scenario, racer.course, racer.bot, seed, docks,
                                    lambda course: _bot(course, scenario), teams,
                                    _aim(racer, scenario)))


def sides(scenario: Scenario, docks: tuple[int, ...]) -> TeamPlay | None:
    """The sides of a team race (docs/rules.md 13) of robots on `docks`, as
    the Python race seats them; None on other courses."""
    if not scenario.team_race:
        return None
    return TeamPlay(scenario, scenario.seats_on(docks), compile_course(scenario.board), ())


def race_summary(scenario: Scenario, seed: int, docks: tuple[int, ...]) -> RaceSummary:
    """play.play_race's summary of the compiled race."""
    teams = sides(scenario, docks)
    race = play(scenario, seed, docks, teams)
    width = scenario.board.width
    deaths = (CompiledDeath(*d) for d in race.deaths)
    first = first_finishers(race.finished)
    if teams is not None:
        teams.won = tuple(race.won)
    won = first if teams is None else teams.winners(first)
    return RaceSummary(
        seed=seed,
        docks=tuple(docks),
        winners=won,
        rounds=race.rounds,
        finish_round=tuple(f[0] if f else None for f in race.finished),
        flag_rounds=tuple(tuple(f) for f in race.flag_rounds),
        deaths=tuple(Death(d.robot, d.round, d.square % width, d.square // width,
                           rules.CAUSES[d.cause], d.leg, rules.AGENTS[d.agent],
                           square_xy(d.origin, width), square_xy(d.reenters, width))
                     for d in deaths),
        occupancy=race.occupancy,
        upgrades=tuple((sq % width, sq // width) for sq in race.upgrades),
        held_option=tuple(race.held_option),
        options_used=tuple((card, n) for card, n in zip(OPTION_IDS, race.option_uses) if n),
        sides=tuple(seat.team for seat in scenario.seats_on(docks)) if teams is not None else (),
        won_teams=tuple(teams.team_names(won)) if teams is not None else (),
    )


def trial_summary(scenario: Scenario, seed: int, dock: int) -> TrialSummary:
    """play.play_trial's summary of the compiled race of one robot alone on `dock`."""
    solo = play(scenario, seed, (dock,), sides(scenario, (dock,)))
    finished = solo.finished[0]
    return TrialSummary(seed, dock, finished[0] if finished else None, solo.rounds)


def _racer(scenario: Scenario) -> tuple[_Racer | None, str | None]:
    """The compiled course and bot of `scenario`, or None and why the compiled race does not apply."""
    known = _known.get(id(scenario))
    if known is not None and known[0] is scenario:
        return known[1], known[2]
    found, why = None, rules.refusal(scenario)
    if why is None:
        try:
            course = rules.compiled_course(scenario)
            found = _Racer(course, _bot(course, scenario), {})
        except (ValueError, TypeError, KeyError, IndexError, OverflowError) as error:
            # race_course or race_bot refused the course: Python plays it (the
            # differential tests assert that no valid course comes here)
            why = str(error)
    if len(_known) > 16:
        _known.clear()
    _known[id(scenario)] = (scenario, found, why)
    return found, why


def _bot(course: rules.CompiledCourse, scenario: Scenario) -> object:
    """The search bot's compiled race bot for `course` (of `scenario`, or of
    one of its boards turned, or with its flags moved); None on a course
    without flags (elimination, whose bots ``play`` aims at robots)."""
    if not course.flags:
        return None
    homes = tuple(course.course.square(f.x, f.y) for f in scenario.flags)
    return race_bot.search_bot(course.course, course.flags, scenario.rules, homes)
