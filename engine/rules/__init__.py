"""The rules layer: a race played by the rules (docs/rules.md).

``race`` runs rounds of dealing, programming, registers and clean-up on a
``course`` (the compiled board) and a ``state`` (robots, who stands where);
``programming`` deals and fills registers, asking each robot's bot through
``bot_view``; ``movement``, ``conveyors``, ``board_elements``, ``lasers`` and
``beams``, ``checkpoints`` and ``cleanup`` are the steps of a register;
``outcome`` is what a race comes to. The ``option_*`` modules play option
cards: ``option_holding`` (the option deck, gaining and losing cards),
``option_play`` (cards used while programming and in registers),
``option_weapons`` (the laser step with option cards) and ``option_arm``
(Mechanical Arm's reach).
``lone_robot_model`` (what each card does to a robot alone), ``reach`` and ``paths`` are
the board's geometry as robots move on it.

Balance runs of search bots play these rules in C as well
(``compiled``: compiled/_race.c, on courses without levels and with option
cards counted): a change to a rule here is made there too, and
tests/test_compiled_differential.py fails until the two play the same
races; a new rule, tile kind or edge element is listed in
compiled/race.py (FIELDS, REFUSED_TILES, REFUSED_EDGES) as refused until
the C plays it, and tests/test_compiled_race.py fails until it is.
"""
