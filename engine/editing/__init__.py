"""The editing layer: pure edits of the immutable model, the editor's and
suggest's only way to change a course. ``edit`` for squares, elements,
markers and settings; ``transform`` for board geometry (turn, mirror, cut,
paste, grow or shrink, insert boards); ``library`` for the board library and
courses assembled from its boards.
"""
