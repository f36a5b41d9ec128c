"""The one compiled part: the search bot's inner loop (engine/bots/_play.c)
and the balance runs' races of search bots (engine/bots/_race.c). Optional:
where it cannot be built (no C compiler), the install goes on, the bot uses
its numpy version and balance runs the Python engine, with the same results."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("engine.bots._play", ["engine/bots/_play.c", "engine/bots/_race.c"],
                             depends=["engine/bots/_play.h"], optional=True,
                             extra_compile_args=["-O2"])])
