"""``python -m mtpalette``: the command line, as the ``mtpalette`` command."""

from mtpalette.cli.app import main

if __name__ == "__main__":
    main()
