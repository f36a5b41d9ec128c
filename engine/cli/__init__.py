"""Subcommands of the `rallyforge` command line, one module each.

Each module has ``add_arguments(parser)`` and ``run(args) -> int`` (the exit
code); its one-line help is in engine/version.py ``COMMANDS``, so that
`rallyforge --help` and a run of one command import no other command.
"""
