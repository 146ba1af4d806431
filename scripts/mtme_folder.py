"""Build an mt-metrics-eval test set folder from real MQM data, and golden values from MTME.

Two steps, two interpreters:

``build`` (mtpalette's environment) writes ``wmt21.tedtalks/`` in MTME's layout from
``../shared/data/mqm/ted`` (google/wmt-mqm-human-evaluation, WMT21 TED talks, Apache-2.0),
language pairs en-de and zh-en:

* ``sources/``, ``references/`` (MQM's system ``ref`` is ``refA``, ``refB`` is ``refB``),
  ``system-outputs/LP/`` (every MT system and the references, as MTME ships them),
  ``documents/LP.docs`` (domain ``ted``, MQM's ``doc``), one line per annotated segment in
  ``seg_id`` order, MQM's ``<v>`` error marks removed;
* ``human-scores/LP.mqm.seg.score``: MQM's average segment score ``mqm_avg_score`` of
  ``mqm_ted_LP.avg_seg_scores.tsv`` as stored there, which is already minus the error
  penalty (0 or below, higher is better, as in MTME's files; ``-0.0`` is written as ``0.0``),
  ``None`` where unrated; ``LP.mqm.sys.score``: each system's mean over its rated segments.
  The human files leave out ``metricsystem5`` (a system with outputs and no human scores, as
  in every WMT22-WMT25 folder);
* ``metric-scores/LP/``: sacrebleu 2's ``BLEU`` (sys), ``sentBLEU`` (seg, sys = mean) and
  ``chrF`` (seg and sys), against the standard reference (and refA too for zh-en), and
  mtpalette's ROUGE-L (``mtpalette-rougeL``: seg, doc, domain = mean of the segments, sys =
  corpus score) written by :func:`mtpalette.io.mtme_write.write_mtme_scores`.

``golden`` (MTME's environment) runs google-research/mt-metrics-eval on the folder:
``data.EvalSet`` and ``data.GetCorrelations`` for every configuration of :data:`CONFIGS`,
then ``stats.Correlation`` (Pearson, Kendall tau-b, KendallVariants) and
``stats.KendallWithTiesOpt`` (acc-eq with tie calibration), and prints JSON.

Usage (from the repository root)::

    python scripts/mtme_folder.py build --out /tmp/real --docs 3 --per-doc 6
    export PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1
    PYTHONPATH=$MTME_SRC $MTME_PYTHON scripts/mtme_folder.py golden \\
        /tmp/real > tests/data/mtme_folder/golden.json
    PYTHONPATH=$MTME_SRC $MTME_PYTHON scripts/mtme_folder.py small \\
        > tests/data/mtme_folder/small_golden.json

(MTME packs the systems in the order of a Python set, so the last bits of ``golden``'s floats
depend on ``PYTHONHASHSEED``: 3e-16 between seeds.)

``PYTHONPATH=$MTME_SRC python scripts/mtme_folder.py meta`` (mtpalette's environment)
checks that :data:`mtpalette.io.mtme_meta.BUILTIN` equals MTME's ``meta_info.DATA`` (177 test
set/language pair entries at 68a481a).

``small`` builds the small folders of ``tests/io/mtme_cases.py`` (an unjudged system, a
system without any rated segment, references as systems and a close reference, an outlier
from MTME's meta_info, ``esa-human1``/``esa-human2``, document/domain/system levels,
``.rating`` files, WMT24++'s JSON Lines layout) and records what MTME reads from each and which
systems its ``GetCorrelations`` keeps.

(``$MTME_SRC``: a checkout of mt-metrics-eval at 68a481aea1a787392d55af8f76ac8ef40c5f4664;
``$MTME_PYTHON``: a Python with numpy, scipy, dacite and absl-py; ``apache_beam`` is replaced
by an empty module.)
Without ``--docs`` the whole annotated set (529 segments per pair) is written.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import re
import sys
import types
from pathlib import Path

LPS = {"en-de": "ende", "zh-en": "zhen"}
STD_REF = {"en-de": "refA", "zh-en": "refB"}
REF_NAMES = {"ref": "refA", "refB": "refB"}
#: the references' names in the average-score files (checked: equal scores on all 529 segments)
AVG_NAMES = {"ref": "ref-A", "refB": "ref-B"}
#: a system whose human scores are left out of the human files
UNJUDGED = "metricsystem5"
TEST_SET = "wmt21.tedtalks"
SPAN = re.compile(r"</?v>")
#: (name, lp, level, main ref or None for the standard one, include_human, outliers)
CONFIGS = [("std", lp, level, None, False, []) for lp in LPS for level in ("sys", "seg")] + [
    ("with_refs", "zh-en", "seg", None, True, []),
    ("with_refs", "zh-en", "sys", None, True, []),
    ("ref_a", "zh-en", "seg", "refA", False, []),
    ("outlier", "en-de", "seg", None, False, ["Online-W"]),
]


def shared_data() -> Path:
    """``$MTPALETTE_SHARED_DATA`` when set, else ``../shared/data`` next to the repository (as
    ``scripts/shared_data.py`` finds it; this script is also loaded by path, without it)."""
    env = os.environ.get("MTPALETTE_SHARED_DATA")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data"


def read_mqm_ted(folder: Path, code: str):
    """Texts, sources, documents and average MQM scores of one language pair."""
    texts: dict[str, dict[int, str]] = {}
    sources: dict[int, str] = {}
    docs: dict[int, str] = {}
    with open(folder / f"mqm_ted_{code}.tsv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            seg = int(row["seg_id"])
            target = SPAN.sub("", row["target"]).replace("\n", " ")
            seen = texts.setdefault(row["system"], {}).setdefault(seg, target)
            if seen != target:
                raise SystemExit(f"{row['system']} segment {seg} has two targets")
            sources.setdefault(seg, row["source"])
            docs.setdefault(seg, row["doc"])
    avg: dict[tuple[str, int], float | None] = {}
    with open(folder / f"mqm_ted_{code}.avg_seg_scores.tsv", encoding="utf-8") as f:
        next(f)
        for line in f:
            system, score, seg = line.split()
            avg[(system, int(seg))] = None if score == "None" else float(score)
    return texts, sources, docs, avg


def choose_segments(docs: dict[int, str], n_docs: int | None, per_doc: int | None) -> list[int]:
    order = sorted(docs)
    if n_docs is None:
        return order
    kept, seen = [], {}
    for seg in order:
        d = docs[seg]
        if d not in seen and len(seen) == n_docs:
            continue
        seen[d] = seen.get(d, 0) + 1
        if per_doc is None or seen[d] <= per_doc:
            kept.append(seg)
    return kept


def sentence_wise(fn, hyps: list[str], ref: list[str]) -> list[float]:
    """sacrebleu's sentence score of every line against the one reference."""
    return [fn(h, [r]).score for h, r in zip(hyps, ref, strict=True)]


def write_lines(path: Path, lines) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")


def build(
    out: Path,
    n_docs: int | None,
    per_doc: int | None,
    *,
    stored_metrics: bool = True,
    shared: Path | None = None,
) -> None:
    """Write the folder from ``shared`` (default :func:`shared_data`); ``stored_metrics=False``
    leaves out ``metric-scores/``."""
    import numpy as np
    import sacrebleu

    from mtpalette.api import corpus_score, sentence_scores
    from mtpalette.io.mtme_write import write_mtme_scores

    shared = shared_data() if shared is None else shared
    if not (shared / "mqm" / "ted").is_dir():
        print(f"{shared}/mqm/ted not found (set MTPALETTE_SHARED_DATA): nothing built")
        return
    root = out / TEST_SET
    for lp, code in LPS.items():
        texts, sources, docs, avg = read_mqm_ted(shared / "mqm" / "ted" / code, code)
        segs = choose_segments(docs, n_docs, per_doc)
        names = {s: REF_NAMES.get(s, s) for s in texts}
        outputs = {names[s]: [texts[s][k] for k in segs] for s in texts}
        write_lines(root / "sources" / f"{lp}.txt", [sources[k] for k in segs])
        write_lines(root / "documents" / f"{lp}.docs", [f"ted {docs[k]}" for k in segs])
        for mqm_name, ref in REF_NAMES.items():
            if mqm_name in texts:
                write_lines(root / "references" / f"{lp}.{ref}.txt", outputs[ref])
        for name, lines in outputs.items():
            write_lines(root / "system-outputs" / lp / f"{name}.txt", lines)
        seg_lines, sys_lines = [], []
        for system in sorted(texts):
            if system == UNJUDGED:
                continue
            # mqm_avg_score is stored higher-is-better (minus the penalty): kept as is;
            # ``+ 0.0`` turns the files' -0.000000 into 0.0
            values = [
                None if v is None else v + 0.0
                for v in (avg[(AVG_NAMES.get(system, system), k)] for k in segs)
            ]
            seg_lines += [f"{names[system]}\t{'None' if v is None else repr(v)}" for v in values]
            rated = [v for v in values if v is not None]
            mean = float(np.mean(rated)) if rated else None
            sys_lines.append(f"{names[system]}\t{'None' if mean is None else repr(mean)}")
        write_lines(root / "human-scores" / f"{lp}.mqm.seg.score", seg_lines)
        write_lines(root / "human-scores" / f"{lp}.mqm.sys.score", sys_lines)

        if not stored_metrics:
            print(f"{lp}: {len(segs)} segments, {len(outputs)} outputs -> {root}", file=sys.stderr)
            continue
        doc_of = [docs[k] for k in segs]
        doc_names = list(dict.fromkeys(doc_of))
        refs = [STD_REF[lp]] + (["refA"] if lp == "zh-en" else [])
        folder = root / "metric-scores" / lp
        for ref in refs:
            scored = {s: h for s, h in sorted(outputs.items()) if s != ref}
            r = outputs[ref]
            bleu = {s: sacrebleu.corpus_bleu(h, [r]).score for s, h in scored.items()}
            sent = {s: sentence_wise(sacrebleu.sentence_bleu, h, r) for s, h in scored.items()}
            chrf_seg = {s: sentence_wise(sacrebleu.sentence_chrf, h, r) for s, h in scored.items()}
            chrf_sys = {s: sacrebleu.corpus_chrf(h, [r]).score for s, h in scored.items()}
            tables = {
                f"BLEU-{ref}.sys.score": {s: [v] for s, v in bleu.items()},
                f"sentBLEU-{ref}.seg.score": sent,
                f"sentBLEU-{ref}.sys.score": {s: [float(np.mean(v))] for s, v in sent.items()},
                f"chrF-{ref}.seg.score": chrf_seg,
                f"chrF-{ref}.sys.score": {s: [v] for s, v in chrf_sys.items()},
            }
            folder.mkdir(parents=True, exist_ok=True)
            for name, table in tables.items():
                write_lines(folder / name, [f"{s}\t{v!r}" for s, vs in table.items() for v in vs])
            # mtpalette's own metric, exported by mtpalette
            rouge_seg, rouge_sys = {}, {}
            for s, h in scored.items():
                seg_scores = sentence_scores(h, [r], "rouge-l")["rouge-l"]
                rouge_seg[s] = [float(x) for x in seg_scores]
                rouge_sys[s] = float(corpus_score(h, [r], "rouge-l")[0].value)
            by_doc = {
                s: [
                    float(np.mean([v for v, d in zip(vs, doc_of, strict=True) if d == doc]))
                    for doc in doc_names
                ]
                for s, vs in rouge_seg.items()
            }
            by_domain = {s: {"ted": float(np.mean(vs))} for s, vs in rouge_seg.items()}
            write_mtme_scores(
                root,
                lp,
                "mtpalette-rougeL",
                {"seg": rouge_seg, "doc": by_doc, "domain": by_domain, "sys": rouge_sys},
                ref=ref,
            )
        print(f"{lp}: {len(segs)} segments, {len(outputs)} outputs -> {root}", file=sys.stderr)


def golden(folder: Path) -> dict:
    sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
    from mt_metrics_eval import data, stats  # noqa: PLC0415

    def clean(x):
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)

    out: dict = {
        "provenance": {
            "tool": "google-research/mt-metrics-eval",
            "commit": "68a481aea1a787392d55af8f76ac8ef40c5f4664",
            "calls": "data.EvalSet(name, lp, read_stored_metric_scores=True, path=FOLDER); "
            "evs.SetOutlierSysNames(outliers); data.GetCorrelations(evs, level, {ref}, set(), "
            "include_human, False, 'std', False); stats.Correlation.{Pearson, Kendall, "
            "KendallVariants}; stats.Agreement; stats.KendallWithTiesOpt(sample_rate=1.0)",
            "command": "PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 PYTHONPATH=$MTME_SRC "
            "$MTME_PYTHON scripts/mtme_folder.py golden src/mtpalette/data/mtme",
        },
        "configs": [],
    }
    for name, lp, level, ref, include_human, outliers in CONFIGS:
        evs = data.EvalSet(TEST_SET, lp, read_stored_metric_scores=True, path=str(folder))
        if outliers:
            evs.SetOutlierSysNames(set(outliers))
        main = ref or evs.std_ref
        corrs = data.GetCorrelations(evs, level, {main}, set(), include_human, False, "std", False)
        entry = {
            "name": name,
            "lp": lp,
            "level": level,
            "ref": main,
            "include_human": include_human,
            "outliers": outliers,
            "std_ref": evs.std_ref,
            "human_sys_names": sorted(evs.human_sys_names),
            "metrics": {},
        }
        for metric, corr in sorted(corrs.items()):
            values = {"num_sys": corr.num_sys}
            if level == "sys":
                values["pearson"] = clean(corr.Pearson()[0])
                values["kendall"] = clean(corr.Kendall()[0])
                values["kendall_b"] = clean(corr.KendallVariants()[0])
                agree, pairs = stats.Agreement(corr.gold_scores, corr.metric_scores)
                values["pairwise_accuracy"] = clean(agree / pairs)
            else:
                values["pearson_none"] = clean(corr.Pearson("none")[0])
                values["pearson_item"] = clean(corr.Pearson("item")[0])
                values["kendall_b_none"] = clean(corr.KendallVariants("none", "b")[0])
                values["kendall_b_item"] = clean(corr.KendallVariants("item", "b")[0])
                acc, eps, _ = stats.KendallWithTiesOpt(
                    corr.gold_scores,
                    corr.metric_scores,
                    "acc23",
                    corr.num_sys,
                    "item",
                    sample_rate=1.0,
                )
                values["acc_eq_item_calibrated"] = [clean(acc), clean(eps)]
            entry["metrics"][metric] = values
        out["configs"].append(entry)
    return out


def text_digest(value) -> str:
    """sha256 of ``value`` as sorted, unescaped JSON: what the golden file keeps of real texts."""
    import hashlib

    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def small() -> dict:
    """What MTME reads from each small folder of ``tests/io/mtme_cases.py``, and which
    systems its ``GetCorrelations`` keeps (read off a source-based metric whose score is each
    system's index)."""
    import tempfile

    sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "io"))
    import mtme_cases  # noqa: PLC0415
    from mt_metrics_eval import data, meta_info  # noqa: PLC0415

    def values(scores):
        return {
            s: [None if v is None else float(v) for v in vs] for s, vs in sorted(scores.items())
        }

    out: dict = {
        "provenance": "scripts/mtme_folder.py small (mt-metrics-eval 68a481a)",
        "cases": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, case in mtme_cases.CASES.items():
            parent = Path(tmp) / name
            root = mtme_cases.build_case(parent, name)
            lp = case["lp"]
            names = mtme_cases.write_id_metric(root, lp, sorted({c[0] for c in case["configs"]}))
            info = None
            if case["info"] is not None:
                info = meta_info.MetaInfo(case["info"][0], dict(case["info"][1]), set(), set())
            evs = data.EvalSet(
                root.name,
                lp,
                read_stored_metric_scores=True,
                info=info,
                path=str(parent),
                read_stored_ratings=True,
            )
            entry = {
                "std_ref": evs.std_ref,
                "ref_names": sorted(evs.ref_names),
                "sys_names": sorted(evs.sys_names),
                "human_sys_names": sorted(evs.human_sys_names),
                "outliers": sorted(evs.outlier_sys_names),
                "human_scores": {
                    level: {
                        h: values(evs.Scores(level, h))
                        for h in sorted(evs.human_score_names)
                        if evs.Scores(level, h) is not None
                    }
                    for level in sorted(evs.levels)
                },
                "ratings": {
                    r: {
                        s: [None if x is None else x.ToDict() for x in rs]
                        for s, rs in sorted(evs.Ratings(r).items())
                    }
                    for r in sorted(evs.rating_names)
                },
                "rater_ids": {r: dict(evs.RaterIdsPerSeg(r)) for r in sorted(evs.rating_names)},
                "configs": [],
            }
            for level, ref, gold, include_human, include_outliers, close in case["configs"]:
                corrs = data.GetCorrelations(
                    evs, level, {ref}, set(close), include_human, include_outliers, gold, False
                )
                kept = sorted({int(v) for v in corrs["id-src"].metric_scores})
                entry["configs"].append(
                    {
                        "level": level,
                        "ref": ref,
                        "gold": gold,
                        "include_human": include_human,
                        "include_outliers": include_outliers,
                        "close_refs": close,
                        "systems": [names[k] for k in kept],
                    }
                )
            out["cases"][name] = entry
        parent = Path(tmp) / "jsonl"
        root = mtme_cases.build_jsonl(parent)
        evs = data.EvalSet("wmt24pp", "en-de_DE", path=str(parent))
        out["cases"]["jsonl"] = {  # the real texts as digests: no third-party text stored
            "std_ref": evs.std_ref,
            "src_sha256": text_digest(evs.src),
            "all_refs_sha256": text_digest(dict(sorted(evs.all_refs.items()))),
            "sys_outputs_sha256": text_digest(dict(sorted(evs.sys_outputs.items()))),
            "human_sys_names": sorted(evs.human_sys_names),
        }
    return out


def check_meta() -> str:
    """Compare mtpalette's built-in meta information with MTME's ``meta_info.DATA`` (run with
    mtpalette installed and MTME on PYTHONPATH)."""
    from mt_metrics_eval import meta_info  # noqa: PLC0415

    from mtpalette.io.mtme_meta import BUILTIN

    if set(meta_info.DATA) != set(BUILTIN):
        raise SystemExit(f"test sets differ: {sorted(set(meta_info.DATA) ^ set(BUILTIN))}")
    n = 0
    for test_set, pairs in meta_info.DATA.items():
        if set(pairs) != set(BUILTIN[test_set]):
            raise SystemExit(
                f"{test_set}: pairs differ: {sorted(set(pairs) ^ set(BUILTIN[test_set]))}"
            )
        for lp, theirs in pairs.items():
            ours = BUILTIN[test_set][lp]
            base = theirs.baseline_metrics
            same = (
                theirs.std_ref == ours.std_ref
                and dict(theirs.std_gold) == dict(ours.std_gold)
                and set(theirs.outlier_systems) == ours.outlier_systems
                and set(theirs.primary_metrics) == ours.primary_metrics
                and (None if base is None else set(base)) == ours.baseline_metrics
            )
            if not same:
                raise SystemExit(f"{test_set} {lp} differs")
            n += 1
    return f"{n} test set/language pair entries equal MTME's meta_info.DATA"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--docs", type=int, default=None, help="keep the first N documents")
    b.add_argument("--per-doc", type=int, default=None, help="and their first K segments")
    g = sub.add_parser("golden")
    g.add_argument("folder", type=Path)
    sub.add_parser("small", help="MTME on the small folders of tests/io/mtme_cases.py")
    sub.add_parser("meta", help="compare the built-in meta information with MTME's")
    args = parser.parse_args()
    if args.cmd == "build":
        build(args.out, args.docs, args.per_doc)
        return
    if args.cmd == "meta":
        print(check_meta())
        return
    result = golden(args.folder) if args.cmd == "golden" else small()
    json.dump(result, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
