"""`python -m bench` (or `make bench`): the speed figures of every bench/bench_*.py."""
import importlib
import pkgutil

import bench

for module in sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_")):
    print(f"== {module}", flush=True)
    importlib.import_module(f"bench.{module}").main([])
