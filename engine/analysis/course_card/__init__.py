"""The course card: how long, how hard and how fair a course is, in players' terms.

``flags`` scores each flag's surroundings from the board alone (no race);
``timemodel`` turns rounds into minutes at the table; ``types`` is the
card's shape (a TypedDict per part); ``build`` makes the card from a balance
result and checks a card kept in a file against ``types.CourseCard``
(engine/format/stored_course_card.py hashes what affects play). The command
line (``rallyforge card``), the balance report and the editor's course card
panel all read the card from ``build.card``.
"""
