"""The course card: how long, how hard and how fair a course is, in players' terms.

``flags`` scores each flag's surroundings from the board alone (no race);
``timemodel`` turns rounds into minutes at the table; ``build`` makes the
card from a balance result; ``store`` hashes what affects play and checks a
card kept in the course file against it. The command line (``rallyforge
card``), the balance report and the editor's card panel all read the card
from ``build.card``.
"""
