"""List options that take several values after one flag, as sacrebleu's ``-r a b``.

click reads one value per flag; :class:`VariadicCommand` rewrites ``--refs a b -m x y`` into
``--refs a --refs b -m x -m y`` before parsing.
"""

from __future__ import annotations

from mtpalette.cli.help import SectionedHelp

#: options that take every following value up to the next option
VARIADIC = {
    "--refs",
    "--input",
    "-i",
    "-r",
    "--systems",
    "-s",
    "--metrics",
    "-m",
    "--exclude",
    "--ref-col",
    "--hyp-col",
    "--scores",
    "--mtme-metrics",
    "--lm-text",
    "--tm-source",
    "--tm-target",
    "--analyses",
    "-a",
    "--wmt25-systems",
    "--wmt25-ref",
}


class VariadicCommand(SectionedHelp):
    """A command whose list options take several values after one flag.

    ``--refs a b -m x y`` is read as ``--refs a --refs b -m x -m y``.
    """

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        return super().parse_args(ctx, expand_variadic(args, self.variadic()))

    def variadic(self) -> set[str]:
        """The flags of :data:`VARIADIC` that take a list in this command (``--hyp-col`` is
        one column in ``orange``: a second value there is an error, not a silent override)."""
        flags = {f for p in self.params if getattr(p, "multiple", False) for f in p.opts}
        flags |= {f for p in self.params if getattr(p, "multiple", False) for f in p.secondary_opts}
        return VARIADIC & flags


def expand_variadic(args: list[str], variadic: set[str] = VARIADIC) -> list[str]:
    """Repeat a list option's flag before each of its values.

    Examples
    --------
    >>> expand_variadic(["--refs", "a", "b", "-m", "bleus:1..9", "wer", "--ties", "mid"])
    ['--refs', 'a', '--refs', 'b', '-m', 'bleus:1..9', '-m', 'wer', '--ties', 'mid']
    """
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.extend(args[i:])
            break
        if arg in variadic:
            j = i + 1
            while j < len(args) and not (args[j].startswith("-") and len(args[j]) > 1):
                out += [arg, args[j]]
                j += 1
            if j == i + 1:
                out.append(arg)  # no value: let the parser report it
            i = j
            continue
        out.append(arg)
        i += 1
    return out
