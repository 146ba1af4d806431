"""JSON (and the YAML of task files) from the user's files, read one way: a key given twice in
one object is refused.

Python's :mod:`json` keeps the last of two values under one key without a word
(``{"a": 1, "a": 2}`` reads as ``{"a": 2}``), and so does PyYAML: a COMET score file or a task
file edited by hand, or two documents pasted into one, would lose values silently. Every JSON
document and JSON Lines row the tool reads from a user's file goes through :func:`loads` (or
:func:`read_json`, which also reads the file), every YAML task file through :func:`load_yaml`;
a key twice is a :class:`~mtpalette.errors.UserInputError` naming the file, the line and the
key.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.io import inputs

_WS = re.compile(r"[ \t\n\r]*")


class _Twice(Exception):
    """A key given twice in one object (raised inside the parser, worded by :func:`loads`)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)  # in C: the check costs a comparison of lengths
    if len(out) != len(pairs):
        seen: set[str] = set()
        raise _Twice(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return out


#: one decoder for every document (``json.loads`` with a hook builds a new one per call,
#: a tenth of the time of a JSON Lines row)
_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys)


def twice_message(key: Any, kind: str = "key") -> str:
    """What a key given twice is told: the key, what JSON would do, what to do."""
    return (
        f"{kind} {key!r} appears twice in one object (only the last value would be read); "
        f"give each {kind} once"
    )


def json_type(value: Any) -> str:
    """What a parsed JSON value is, for a message that names a field of the wrong type.

    Examples
    --------
    >>> [json_type(v) for v in (None, True, 3, 0.5, "a", [], {})]
    ['null', 'a boolean', 'a number', 'a number', 'a string', 'a list', 'an object']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a string"


def loads(text: str, *, path: str, line: int | None = None, kind: str = "key") -> Any:
    """``text`` parsed as JSON, every object's keys given once.

    Parameters
    ----------
    text:
        A JSON document, or one row of a JSON Lines file.
    path, line:
        Where it comes from: the file, and the row's line in a JSON Lines file (for a whole
        document the line of the repeated key is found).
    kind:
        What a key is called in the message (``field`` for the rows of a table).

    Raises
    ------
    UserInputError
        A key twice in one object, naming the file, the line and the key.
    json.JSONDecodeError
        Invalid JSON, for the caller to word with what it expected there.

    Examples
    --------
    >>> loads('{"a": 1, "b": [{"c": 2}]}', path="x.json")
    {'a': 1, 'b': [{'c': 2}]}
    >>> loads('{"a": 1,\\n "b": {"c": 2,\\n  "c": 3}}', path="x.json")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: x.json:3: key 'c' appears twice in one object (only ...
    """
    try:
        return _DECODER.decode(text)
    except _Twice as exc:
        key, at = exc.args[0], None
        if line is None:
            key, at = _first_repeated_key(text) or (key, None)
        where = line if at is None else text.count("\n", 0, at) + 1
        raise UserInputError(twice_message(key, kind), path=path, line=where) from None


def _first_repeated_key(text: str) -> tuple[str, int] | None:
    """The first key given twice in one object of ``text`` (valid JSON), in reading order,
    and where its second occurrence starts (``None`` when not found)."""
    try:
        return _walk(text, 0, json.JSONDecoder())[1]
    except (RecursionError, IndexError, ValueError):
        return None


def _walk(s: str, i: int, decoder: json.JSONDecoder) -> tuple[int, tuple[str, int] | None]:
    """The end of the value at ``s[i]`` and its first repeated key (``None``: none)."""
    i = _WS.match(s, i).end()
    if s[i] not in "{[":
        return decoder.raw_decode(s, i)[1], None
    close, seen = "}" if s[i] == "{" else "]", set()
    i = _WS.match(s, i + 1).end()
    if s[i] == close:
        return i + 1, None
    while True:
        if close == "}":
            at = _WS.match(s, i).end()
            key, i = json.decoder.scanstring(s, at + 1)
            if key in seen:
                return i, (key, at)
            seen.add(key)
            i = _WS.match(s, i).end() + 1  # the ':'
        i, found = _walk(s, i, decoder)
        if found is not None:
            return i, found
        i = _WS.match(s, i).end()
        if s[i] == close:
            return i + 1, None
        i += 1  # the ','


def read_json(path: str | Path, what: str = "a JSON file") -> Any:
    """A JSON file's content; an unreadable file, invalid JSON or a key twice in one object is
    a :class:`UserInputError` naming the file (and the line) and what was expected."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        inputs.note(path)
        return loads(text, path=str(path))
    except FileNotFoundError:
        raise UserInputError(f"file not found; expected {what}", path=str(path)) from None
    except OSError as exc:
        raise UserInputError(f"cannot read {what}: {exc.strerror}", path=str(path)) from None
    except UnicodeDecodeError:
        raise UserInputError(f"not UTF-8 text; expected {what}", path=str(path)) from None
    except json.JSONDecodeError as exc:
        raise UserInputError(
            f"not valid JSON ({exc.msg}); expected {what}", path=str(path), line=exc.lineno
        ) from None


def load_yaml(text: str, *, path: str) -> Any:
    """``text`` parsed as YAML (PyYAML's safe loader), every mapping's keys given once.

    Raises
    ------
    UserInputError
        A key twice in one mapping, naming the file, the line and the key.
    yaml.YAMLError
        Invalid YAML, for the caller to word.

    Examples
    --------
    >>> load_yaml("a: 1\\nb: [1, 2]\\n", path="t.yaml")
    {'a': 1, 'b': [1, 2]}
    >>> load_yaml("- lang: en-de\\n  k: 0\\n  k: 10\\n", path="t.yaml")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: t.yaml:3: key 'k' appears twice in one object (only ...
    """
    import yaml

    class Loader(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            seen = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                try:
                    twice = key in seen
                except TypeError:  # an unhashable key: PyYAML's own error says so
                    break
                if twice:
                    line = key_node.start_mark.line + 1
                    raise UserInputError(twice_message(key), path=path, line=line)
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    return yaml.load(text, Loader=Loader)  # noqa: S506 (a SafeLoader)
