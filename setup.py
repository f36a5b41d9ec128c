"""The one compiled part: the search bot's inner loop (engine/bots/_play.c).
Optional: where it cannot be built (no C compiler), the install goes on and
the bot uses its numpy version, which gives the same numbers."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("engine.bots._play", ["engine/bots/_play.c", "engine/bots/_race.c"],
                             depends=["engine/bots/_play.h"], optional=True,
                             extra_compile_args=["-O2"])])
