"""The board tools, one module each, in toolbar order with their ids."""
from .belt import BeltTool
from .brush import BrushTool
from .edge_element import LaserTool, PusherTool
from .eraser import EraserTool
from .eyedropper import EyedropperTool
from .flood_fill import FloodFillTool
from .level import LevelTool
from .markers import DockTool, FlagTool
from .rect_fill import RectFillTool
from .select import SelectTool
from .wall import WallTool

TOOLS = {
    "select": SelectTool,
    "brush": BrushTool,
    "belt": BeltTool,
    "rect_fill": RectFillTool,
    "flood_fill": FloodFillTool,
    "eraser": EraserTool,
    "eyedropper": EyedropperTool,
    "level": LevelTool,
    "wall": WallTool,
    "laser": LaserTool,
    "pusher": PusherTool,
    "flag": FlagTool,
    "dock": DockTool,
}
# Tools that paint any tile of the brush: choosing a tile in the palette keeps
# them; any other tool (the belt tool paints only belts) gives way to the brush.
PAINT_TOOLS = ("brush", "rect_fill", "flood_fill")
