"""The names of the segment-level judgment formats :mod:`mtpalette.io.judgments_read` reads.

Kept apart from the readers so that the command line names them in its help without
importing the readers (a command such as ``score``, which reads no judgments, starts without
them).
"""

#: the ``--format`` values of segment-level judgment files (besides ``auto``)
FORMATS = ("mqm", "mqm-avg", "wmt-da-seg", "wmt-seg-scores", "generic", "mtme-seg")
