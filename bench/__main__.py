"""`python -m bench` (or `make bench`): timings of the slow paths."""
from .bench_validate import bench_validate

bench_validate()
