"""The ``mtpalette`` command-line tool: one thin module per subcommand."""
