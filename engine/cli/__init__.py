"""Subcommands of the `rallyforge` command line, one module each.

Each module has ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int`` (the exit code).
"""
