"""The analysis layer: what many races say about a course.

``balance`` races a course many times (in processes or on a Dask cluster)
and aggregates the results; ``course_card`` turns them into the course card;
``suggest`` proposes edits towards the course's goals; ``stats`` holds the
statistics; ``scenario_checks`` plays a scenario's scripted race to its
``checks`` (and checks a file as ``rallyforge test`` does). ``replay``
turns one race's event log into playback frames and
``narration`` tells it in English (the editor's race log, ``rallyforge run
--events --words``); ``figures`` prints two figures and their change;
``team_colors`` gives each team of a team course its colour.
"""
