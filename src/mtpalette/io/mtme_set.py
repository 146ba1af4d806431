"""One language pair of an mt-metrics-eval test set as :func:`mtpalette.io.mtme.read_mtme`
returns it: :class:`MtmeSet` (texts, human scores, stored metrics, the systems evaluated and
those left out) and its :class:`StoredMetric` scores, with the matrices and inputs the
statistics take.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.judgments import Judgments
from mtpalette.io.mtme_files import Documents, Rating
from mtpalette.io.mtme_meta import MetaInfo
from mtpalette.io.scorefile import ScoreFile


@dataclass
class StoredMetric:
    """A metric's stored scores: ``scores[level][system]`` (one value per item of the level).

    ``name`` is MTME's full name (``BLEU-refA``), ``refs`` the references it used (empty for
    a source-based metric), ``paths[level]`` the file of each level.
    """

    name: str
    basename: str
    refs: frozenset[str]
    scores: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)


@dataclass
class MtmeSet:
    """One language pair of an mt-metrics-eval test set folder (see the module docstring).

    Attributes
    ----------
    root, test_set, lp:
        The folder, the name MTME knows it by (the folder's name) and the language pair.
    level, human, ref:
        The level, human score name and reference the system selection was made for.
    meta:
        The meta information (built in for WMT19-WMT25, else from a file or inferred).
    source, refs, outputs:
        Texts as MTME reads them (trailing white space removed, ``None`` for
        ``[No translation supplied]``): the source, every reference by name, every system's
        output by name (the systems left out included).
    systems:
        The systems evaluated, sorted.
    left_out:
        Every other system of ``system-outputs/`` with the reason it was left out.
    human_systems:
        Outputs named like a reference (MTME's ``human_sys_names``).
    docs:
        Documents and domains, or None without ``documents/LP.docs``.
    human_scores:
        ``human_scores[level][name][system]``: every human score file, NaN where ``None``.
    metrics:
        The stored metric scores selected, by full name.
    ratings:
        ``ratings[name][system]``: error-span ratings (with ``read_ratings``).
    metadata:
        ``metadata[system]``: one object per segment, from ``metadata/LP/``.
    notes:
        What was inferred or skipped, one sentence each.
    """

    root: str
    test_set: str
    lp: str
    level: str
    human: str | None
    ref: str
    meta: MetaInfo
    source: list[str | None]
    refs: dict[str, list[str | None]]
    outputs: dict[str, list[str | None]]
    systems: list[str]
    left_out: dict[str, str]
    human_systems: set[str]
    docs: Documents | None
    human_scores: dict[str, dict[str, dict[str, np.ndarray]]]
    metrics: dict[str, StoredMetric]
    ratings: dict[str, dict[str, list[Rating | None]]]
    metadata: dict[str, list[dict]]
    notes: list[str]
    files: dict[str, str] = field(default_factory=dict)

    @property
    def n_segments(self) -> int:
        return len(self.source)

    def items(self, level: str | None = None) -> list[str]:
        """The items of a level, in MTME's order: segments ``1..n``, documents in text order,
        domains sorted, ``["sys"]`` at system level."""
        level = level or self.level
        if level == "seg":
            return [str(i) for i in range(1, self.n_segments + 1)]
        if level == "sys":
            return ["sys"]
        docs = self._docs(level)
        return list(docs.docs if level == "doc" else docs.domains)

    def n_items(self, level: str) -> int:
        return len(self.items(level))

    def _docs(self, level: str) -> Documents:
        if self.docs is None:
            raise UserInputError(
                f"{level}-level scores need documents/{self.lp}.docs, which the folder lacks",
                path=self.root,
            )
        return self.docs

    def human_matrix(self, level: str | None = None, name: str | None = None) -> np.ndarray:
        """``(systems, items)`` human scores of the evaluated systems, NaN where unrated.

        ``name`` defaults to the human score chosen at load time for its level, else the
        standard one of ``level``.
        """
        level = level or self.level
        if name is None:
            name = self.human if level == self.level else self.meta.std_gold.get(level)
        have = self.human_scores.get(level, {})
        if name is None or name not in have:
            raise UserInputError(
                f"no {name or 'standard'} human scores at {level} level; the folder has "
                f"{', '.join(sorted(have)) or 'none'}",
                path=self.root,
            )
        table = have[name]
        n = self.n_items(level)
        return np.array([table.get(s, np.full(n, np.nan)) for s in self.systems]).reshape(
            len(self.systems), n
        )

    def metric_matrix(self, metric: str, level: str | None = None) -> np.ndarray:
        """``(systems, items)`` stored scores of ``metric`` (full name or base name) for the
        evaluated systems."""
        level = level or self.level
        m = self.metric(metric)
        if level not in m.scores:
            raise UserInputError(
                f"metric {m.name} has no {level}-level scores (it has "
                f"{', '.join(sorted(m.scores))})",
                path=self.root,
            )
        return np.array([m.scores[level][s] for s in self.systems]).reshape(
            len(self.systems), self.n_items(level)
        )

    def metric_names(self, level: str | None = None) -> list[str]:
        """Full names of the stored metrics with scores at ``level`` (default: the set's)."""
        level = level or self.level
        return [n for n, m in self.metrics.items() if level in m.scores]

    def metric(self, name: str) -> StoredMetric:
        """A stored metric by full name (``BLEU-refA``) or base name (``BLEU``)."""
        if name in self.metrics:
            return self.metrics[name]
        found = [m for m in self.metrics.values() if m.basename == name]
        if len(found) == 1:
            return found[0]
        if found:
            raise UserInputError(
                f"metric {name!r} is ambiguous: {', '.join(m.name for m in found)}; give the "
                "full name"
            )
        raise UserInputError(
            f"no stored metric {name!r}; read: {', '.join(self.metrics) or 'none'}",
            path=self.root,
        )

    def texts(self, systems: Sequence[str] | None = None) -> list[list[str]]:
        """The evaluated systems' outputs as strings (a missing translation is ``""``)."""
        return [[t or "" for t in self.outputs[s]] for s in systems or self.systems]

    def reference(self, name: str | None = None) -> list[str]:
        """A reference as strings (default: the one in use)."""
        return [t or "" for t in self.refs[name or self.ref]]

    def correlate_inputs(
        self, level: str | None = None
    ) -> tuple[dict[str, list[str]], list[list[str]], dict[str, Any]]:
        """``(systems, refs, human)`` as :func:`mtpalette.correlate` takes them: the evaluated
        systems' outputs, the reference in use, and the chosen human scores (``None`` where
        unrated; one number per system at ``sys`` level)."""
        level = level or self.level
        if level not in ("seg", "sys"):
            raise UserInputError(f"mtpalette.correlate takes seg or sys level, not {level}")
        h = self.human_matrix(level)
        if level == "sys":
            human: dict[str, Any] = {s: float(h[k, 0]) for k, s in enumerate(self.systems)}
        else:
            human = {
                s: [None if np.isnan(v) else float(v) for v in h[k]]
                for k, s in enumerate(self.systems)
            }
        return dict(zip(self.systems, self.texts(), strict=True)), [self.reference()], human

    def stored_scores(self, level: str | None = None) -> dict[str, dict[str, list[float]]]:
        """``{metric: {system: scores}}`` of the stored metrics at ``level`` for the evaluated
        systems, to sit beside metrics mtpalette computes."""
        level = level or self.level
        return {
            name: {s: self.metrics[name].scores[level][s].tolist() for s in self.systems}
            for name in self.metric_names(level)
        }

    def score_file(self, metric: str) -> ScoreFile:
        """A stored metric's segment scores as a :class:`~mtpalette.io.scorefile.ScoreFile`
        (keys ``(system, line, "")``), as ``--scores`` files are read, so that stored and
        computed metrics go through the same steps (``ExternalMetric(name, score_file)``)."""
        m = self.metric(metric)
        if "seg" not in m.scores:
            raise UserInputError(f"metric {m.name} has no segment-level scores", path=self.root)
        out = ScoreFile(m.paths["seg"])
        for s in self.systems:
            for k, value in enumerate(m.scores["seg"][s].tolist(), start=1):
                out.scores[(s, k, "")] = value
        return out

    def judgments(self) -> Judgments:
        """The chosen segment-level human scores of the evaluated systems as
        :class:`~mtpalette.io.judgments.Judgments` (items are line numbers from 1)."""
        if self.level != "seg":
            raise UserInputError(f"judgments are segment-level; this set was read at {self.level}")
        return Judgments(
            list(self.systems),
            list(range(1, self.n_segments + 1)),
            self.human_matrix("seg"),
            "mtme-seg",
            self.files.get("human", self.root),
            item_base=1,
        )

    def left_out_line(self) -> str:
        """One line for stderr: how many systems are evaluated and which were left out, why.

        Examples
        --------
        >>> s = MtmeSet("wmt22", "wmt22", "en-de", "seg", "mqm", "refA", None, [], {}, {},
        ...             ["A", "B"], {"refA": "the reference", "X": "no mqm seg scores"},
        ...             set(), None, {}, {}, {}, {}, [])
        >>> s.left_out_line()[:60]
        'wmt22 en-de: 2 of 4 systems evaluated; left out: refA (the r'
        >>> s.left_out_line()[60:]
        'eference), X (no mqm seg scores)'
        """
        total = len(self.systems) + len(self.left_out)
        head = f"{self.test_set} {self.lp}: {len(self.systems)} of {total} systems evaluated"
        if not self.left_out:
            return head
        parts = [f"{s} ({why})" for s, why in self.left_out.items()]
        return f"{head}; left out: {', '.join(parts)}"
