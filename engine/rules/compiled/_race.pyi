from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rallyforge.engine.rules.compiled.race import CourseSpec

MOST_ROBOTS: int
MOST_FLAGS: int
MOST_SIDE: int

# rounds; per robot (round, register) of its finish or None; per robot the
# round of each flag it touched; each death as (robot, round, square, cause,
# leg, agent, origin, re-entry square or -1); per square the robots at a
# register's end, little-endian uint32s; with played option cards, per
# robot whether it gained a card, per card (OPTION_IDS order) its uses, and
# the squares upgrade squares gave cards on; the team that won an
# elimination race ([] for none, and on other courses) (_race.c race)
RawRace = tuple[int, list[tuple[int, int] | None], list[list[int]],
                list[tuple[int, int, int, int, int, int, int, int]], bytes, list[bool], list[int],
                list[int], list[int]]

def race_course(spec: CourseSpec) -> object: ...
# a robot's start: (square, facing, damage, lives, flags, powered down), then
# optionally whether it holds the SuperBot title (12.9), then its team's
# number (-1 for none) and whether it is a blocker (13)
Start = (tuple[int, int, int, int, int, bool] | tuple[int, int, int, int, int, bool, bool]
         | tuple[int, int, int, int, int, bool, bool, int, bool])
# turned(square): called as a robot touches the flag on square; None, or the
# (course, bot) of the board turned (docs/rules.md 12.10)
Turned = Callable[[int], tuple[object, object] | None]

# moved(squares): called where the bots next see flags that rode the belts
# (docs/rules.md 12.1); the (course, bot) with the flags on those squares
Moved = Callable[[tuple[int, ...]], tuple[object, object]]

# aim(square): under elimination (docs/rules.md 13.6), the bot made for the
# course with its one flag on square (where a robot heads)
Aim = Callable[[int], object]

# option_deck: with played option cards, the option deck's cards (OPTION_IDS
# numbers), its top first, as race.py's OptionDeck shuffled it; bot None and
# aim given under elimination
def race(course: object, bot: object | None, rng: object,
         robots: Sequence[Start],
         turned: Turned | None = None, moved: Moved | None = None,
         option_deck: Sequence[int] | None = None, aim: Aim | None = None) -> RawRace: ...

# for tests: the bot's plan of movement options (_search_race.c plan_options)
# by the race's lone-robot trial; trial: "robot" (square, facing, damage,
# lives, flags, archive), "options" (OPTION_IDS numbers), "registers" (5 card
# numbers, -1 none), "free" (0-based registers), "hand" (card numbers).
# Returns (use, pair, pair_with, steady), -1 for none.
def plan_options(course: object, bot: object, trial: dict[str, Sequence[int]]
                 ) -> tuple[list[int], list[int], list[int], int]: ...
