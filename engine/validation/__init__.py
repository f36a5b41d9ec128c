"""The validation layer: a scenario checked in two tiers, the file's
structure (format.schema), then the course (``validator``: flags, docks,
walls, lasers, levels, reach), each problem with its code and place.
"""
