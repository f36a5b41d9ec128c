"""`python -m rallyforge.engine.cli`: the `rallyforge` command line."""
import sys

from rallyforge.engine.cli.main import main

sys.exit(main())
