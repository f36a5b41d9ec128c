"""Reading Tiled maps (TMX or Tiled JSON) as courses.

``mapfile`` reads a map into plain cells and tile objects, whatever its
encoding; ``tilesets`` holds what each tile of a known tileset means (data
files in ``tilesets/``, one per tileset); ``convert`` turns a map into a
Scenario with a warning per tile it cannot place.
"""
