"""The inputs a run file records: every file given by path with its size, SHA-256 and lines
(:func:`~mtpalette.io.runfile.file_record`), anything else (standard input, a pattern, a
folder, a ``NAME=FILE`` option) as given. The report lists them under the run and names the
run's data set from them.

Examples
--------
>>> recorded_inputs(refs=None, systems=[], mtme="wmt/", lp="en-de")
{'mtme': 'wmt/', 'lp': 'en-de'}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def recorded_inputs(**given: Any) -> dict[str, Any]:
    """``given`` without the empty entries, each file as its record (lists item by item)."""
    out: dict[str, Any] = {}
    for key, value in given.items():
        if value is None or (isinstance(value, list | tuple) and not value):
            continue
        out[key] = [_one(v) for v in value] if isinstance(value, list | tuple) else _one(value)
    return out


def _one(value: Any) -> Any:
    from mtpalette.io.runfile import file_record

    text = str(value)
    if text != "-" and Path(text).is_file():
        return file_record(text)
    return text
