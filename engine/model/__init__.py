"""The model layer: what a course is, with no rules and no files.

``scenario`` (the immutable course: board, flags, docks, rules, robots,
checks, goals), ``directions``, ``element_kinds`` (one description per tile
type and edge element), ``program_cards`` (the 84 program cards),
``option_cards`` (the 26 option cards), ``problems`` (what the loader and
the validator report) and ``events`` (the race's event log).
"""
