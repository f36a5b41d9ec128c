"""`python -m engine.cli`: the `rallyforge` command line."""
import sys

from engine.cli.main import main

sys.exit(main())
