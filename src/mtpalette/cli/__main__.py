"""``python -m mtpalette.cli``: the command line, as the ``mtpalette`` script runs it."""

from mtpalette.cli.app import main

main()
