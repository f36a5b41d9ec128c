"""Drawing a course with QPainter: every element of the scenario format in one
flat, legible style, and pictures of it (PNG, SVG, PDF). Only Qt's painting
(QtGui, QtCore) is used, no widgets: the editor's board view, palette and
exports, and the `rallyforge export` command, all paint through here, the
command with no display (drawing/pictures.py).

Coordinates: the board's top-left corner is at (0, 0) and a square is
``square`` units wide, so square (x, y) covers
[x * square, (x + 1) * square) x [y * square, (y + 1) * square).
Walls and everything mounted on them stay inside the board rectangle.

Layers, bottom to top (drawing/board.py): floor and tiles with the grid,
levels, walls, laser beams and emitters, crushers' registers, the rides of
moving flags, pushers, flags and docks, the robots where they start (the
exports), level marks, factory board outlines. Each element kind has its
painter in drawing/painters/, found by the element table's kinds.

Speed: every square is a "stamp" (a small drawing keyed by what it shows,
such as ``("conveyor", "E", True, 5)``). On raster devices (screens, QImage)
a stamp is drawn once per key and device size into a cached pixmap and then
blitted; on vector devices (SVG, PDF) or under a rotating transform it is
drawn as vectors each time (drawing/stamps.py). Paths are built once per key
in unit coordinates and cached per size (drawing/shapes.py).

Colour sampling: ``COLORS[kind]`` is the main fill of each tile type and
element ("express" for express belts; "gear_cw" and "gear_ccw" colour the
gears' arrows), and the point ``sample_point(kind)`` of a square (as
fractions of the square) shows exactly that colour, whatever the element's
direction or belt neighbours, at 16 px per square and more, unless a wall,
a laser beam or a marker covers it. For "wall" the point is the middle of
the square's N edge (a square with a wall on its N side); for "laser" it is
the centre of a square crossed by a single-beam laser; for "pusher" a point
on a pusher with dir "N"; for "flag" and "dock" a point beside the number.
"""
