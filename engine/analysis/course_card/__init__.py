"""The course card: how long, how hard and how fair a course is, in players' terms.

``flags`` scores each flag's surroundings from the board alone (no race);
``timemodel`` turns rounds into minutes at the table; ``types`` is the
card's shape (a TypedDict per part); ``build`` puts the card in words,
judges it against the course's goals and checks a card kept in a file
against ``types.Card`` (engine/format/stored_course_card.py hashes what affects
play). The card is made from a balance result by
engine/analysis/balance/course_card.py, which the command line (``rallyforge
card``), the balance report and the editor's card panel all read it from.
"""
