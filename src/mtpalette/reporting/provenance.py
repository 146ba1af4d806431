"""What a run was made from, as the report shows it under every section: its signatures as
a compact table and its inputs (files with their lines, size and SHA-256, or values)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mtpalette.reporting.names import reference_names
from mtpalette.signature import Signature, field_text

_SIG_COMMON = ("nrefs", "tok", "case", "scale", "version")


def signature_rows(signatures: dict[str, Any]) -> dict[str, Any]:
    """Signatures (``name|key:value|...``) as a compact table: a column for each field
    every metric has, the other fields as ``key value`` pairs.

    Examples
    --------
    >>> t = signature_rows({"wer": "wer|nrefs:1|tok:13a|multiref:fewest-errors"})
    >>> t["columns"], t["rows"][0]["cells"], t["rows"][0]["other"]
    (['nrefs', 'tok'], ['1', '13a'], [('multiref', 'fewest-errors')])
    >>> signature_rows({"r": "r|score:[chrf|nrefs:1|version:1]|version:1"})["rows"][0]["other"]
    [('score', '[chrf|nrefs:1|version:1]')]
    """
    parsed = []
    for name, sig in signatures.items():  # read as signatures: a nested one stays one field
        fields = {
            key: field_text(value) for key, value in Signature.of(str(sig)).all_fields().items()
        }
        parsed.append((name, fields))
    columns = [c for c in _SIG_COMMON if parsed and all(c in f for _, f in parsed)]
    rows = [
        {
            "metric": name,
            "cells": [f[c] for c in columns],
            "other": [(k, v) for k, v in f.items() if k not in columns],
        }
        for name, f in parsed
    ]
    return {"columns": columns, "rows": rows}


def fmt_value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return "-" if value is None else str(value)


def input_rows(ins: dict[str, Any]) -> list[dict[str, str]]:
    """Inputs as rows: a file (role, name, lines, size, SHA-256 prefix, full path) or a value.
    A system's file is labelled with the system's name, a reference's with the reference's
    (:func:`item_names`), as the rest of the report names them.

    Examples
    --------
    >>> rows = input_rows({"refs": [{"path": "/d/ref.txt", "bytes": 10, "sha256": "ab" * 32,
    ...                   "lines": 2}], "format": "mqm"})
    >>> rows[0]["sha"], rows[0]["role"], rows[0]["name"], rows[1]
    ('abababababab', 'reference ref', 'ref.txt', {'role': 'format', 'value': 'mqm'})
    """
    out: list[dict[str, str]] = []

    def visit(role: str, value: Any, names: list[str] | None = None) -> None:
        if isinstance(value, dict) and "path" in value and ("sha256" in value or "bytes" in value):
            out.append(
                {
                    "role": role,
                    "name": Path(str(value["path"])).name,
                    "path": str(value["path"]),
                    "lines": fmt_value(value.get("lines")),
                    "bytes": fmt_value(value.get("bytes")),
                    "sha": str(value.get("sha256", ""))[:12],
                }
            )
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for k, v in enumerate(value):
                visit(names[k] if names else f"{role} {k + 1}" if len(value) > 1 else role, v)
        elif isinstance(value, dict) and any(isinstance(v, dict | list) for v in value.values()):
            for k, v in value.items():
                visit(f"{role}.{k}", v, item_names(k, v, value))
        else:
            text = fmt_value(value)
            out.append({"role": role, "value": text if len(text) < 300 else text[:300] + "…"})

    for key, value in ins.items():
        visit(key, value, item_names(key, value, ins))
    return out


def item_names(key: str, value: Any, parent: dict[str, Any]) -> list[str] | None:
    """The labels of a list of file records: ``reference NAME`` for ``refs`` (the names of
    :func:`~mtpalette.reporting.names.reference_names`), ``system NAME`` for the systems'
    files (the run's own list of the systems' names when it has one per file, else the files'
    stems); None for anything else.

    Examples
    --------
    >>> files = [{"path": "/d/A.txt"}, {"path": "/d/B.txt"}]
    >>> item_names("files", files, {"kind": "systems", "files": files, "systems": ["a", "b"]})
    ['system a', 'system b']
    >>> item_names("systems", files, {"systems": files}), item_names("judgments", files, {})
    (['system A', 'system B'], None)
    """
    if not isinstance(value, list) or not value:
        return None
    if not all(isinstance(v, dict) and "path" in v for v in value):
        return None
    paths = [str(v["path"]) for v in value]
    if key == "refs":
        return [f"reference {n}" for n in reference_names(paths)]
    if key == "systems" or (key == "files" and parent.get("kind") == "systems"):
        given = parent.get("systems")
        named = isinstance(given, list) and len(given) == len(value)
        if named and all(isinstance(g, str) for g in given):
            return [f"system {n}" for n in given]
        return [f"system {Path(p).stem}" for p in paths]
    return None
