"""The ORANGE-premise audit on real data: how often do MT systems outrank the references?

* MQM TED zh-en (bundled): 13 systems, references ``ref`` and ``refB``, both rated by MQM like
  the systems: the metric part and the human part;
* MQM TED en-de (bundled): one reference, rated: the human part only;
* WMT21 de-en (19 systems, references A and B) and en-de (20 systems, references A, C, D)
  from ``--data-dir``: the metric part only.

Writes ``OUT/audit.md`` and ``OUT/audit.json``.

Usage::

    python scripts/audit_experiments.py --out-dir results
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shared_data import mqm_ted as real_mqm_ted  # noqa: E402  (scripts/shared_data.py)
from shared_data import shared_data  # noqa: E402

METRICS = ["bleus:4", "nist", "wer", "per", "rouge-l", "rouge-w:1.2", "rouge-s:4", "chrf", "ter"]


def _pct(ci) -> str:
    if ci is None:
        return "-"
    return f"{100 * ci.value:.1f}% [{100 * ci.low:.1f}, {100 * ci.high:.1f}]"


def md(title: str, note: str, a) -> str:
    lines = [f"### {title}\n", note + "\n"]
    lines += [
        "| Metric | outranked | outranking candidates | humans >= | humans > |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in a.rows:
        lines.append(
            f"| {r.metric} | {_pct(r.outranked)} | {_pct(r.outranking_candidates)} | "
            f"{_pct(r.humans_agree)} | {_pct(r.humans_prefer)} |"
        )
    if a.human_outranked is not None:
        lines.append(
            f"| humans (MQM): some system >= the reference | {_pct(a.human_outranked)} "
            "| - | - | - |"
        )
        lines.append(
            f"| humans (MQM): some system > the reference | "
            f"{_pct(a.human_outranked_strict)} | - | - | - |"
        )
    return "\n".join(lines) + "\n"


def ted(lp: str, metrics, args):
    from mtpalette.io.judgments_read import read_judgments
    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.audit import audit
    from mtpalette.metaeval.candidates import CandidateLists
    from mtpalette.metaeval.segments import SegmentData

    paths = real_mqm_ted(lp)  # the real WMT21 TED MQM data, from the shared data
    judged = read_judgments(paths["judgments"])
    refs = [read_lines(p) for p in paths["refs"]]
    outs = {p.name[:-4]: read_lines(p) for p in paths["systems"]}
    data = SegmentData.from_judgments(judged, outs, refs, seg_ids=read_lines(paths["seg_ids"]))
    names = [p.stem for p in paths["refs"]]
    lists = CandidateLists.from_systems(
        {s: data.hyps[k] for k, s in enumerate(data.systems)}, data.refs, ref_names=names
    )
    ref_h = np.stack([judged.scores[judged.systems.index(n)] for n in names])
    return audit(
        lists,
        metrics if len(refs) > 1 else [],
        candidate_human=data.human.T.ravel(),
        reference_human=ref_h,
        n_resamples=args.bootstrap,
        seed=args.seed,
    )


def wmt21(lp: str, refs: str, tgt: str, metrics, args):
    from mtpalette.io.nbest import list_system_files, read_systems, system_names
    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.audit import audit
    from mtpalette.metaeval.candidates import CandidateLists

    txt = args.data_dir / "wmt21" / "txt"
    ref_files = [txt / "references" / f"newstest2021.{lp}.ref.{r}.{tgt}" for r in refs]
    files = list_system_files(txt / "system-outputs", pattern=f"newstest2021.{lp}.hyp.*")
    outs = read_systems(files, system_names(files))
    lists = CandidateLists.from_systems(
        outs, [read_lines(f) for f in ref_files], ref_names=[f.name for f in ref_files]
    )
    return audit(lists, metrics, n_resamples=args.bootstrap, seed=args.seed), len(outs)


def main(argv=None) -> int:
    from mtpalette.io.runfile import Run, atomic_writer
    from mtpalette.metrics import parse_specs

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--data-dir", type=Path, default=shared_data())
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    metrics = parse_specs(METRICS)
    parts = ["# Does machine output outrank the references? The ORANGE-premise audit\n"]
    results = {}
    common = (
        f"Percentile bootstrap over segments, {args.bootstrap} resamples, seed {args.seed}. "
        "Each reference is held out in turn and scored, like every candidate, against the "
        "other references."
    )
    a = ted("zhen", metrics, args)
    parts.append(
        md(
            "MQM TED zh-en (WMT21; 13 systems; references ref, refB rated by MQM)",
            f"{a.n_segments} segments. {common}",
            a,
        )
    )
    results["ted-zhen"] = a.to_dict()
    print("  ted zhen", flush=True)
    a = ted("ende", metrics, args)
    parts.append(
        md(
            "MQM TED en-de (one reference, rated by MQM: human part only)",
            f"{a.n_segments} segments. {common}",
            a,
        )
    )
    results["ted-ende"] = a.to_dict()
    print("  ted ende", flush=True)
    if (args.data_dir / "wmt21" / "txt").is_dir():
        for lp, refs, tgt in (("de-en", "AB", "en"), ("en-de", "ACD", "de")):
            a, n_sys = wmt21(lp, refs, tgt, metrics, args)
            parts.append(
                md(
                    f"WMT21 {lp} ({n_sys} systems; references {', '.join(refs)})",
                    f"{a.n_segments} segments; no human scores of the references. " + common,
                    a,
                )
            )
            results[f"wmt21-{lp}"] = a.to_dict()
            print(f"  wmt21 {lp}", flush=True)
    else:
        parts.append(f"_SKIP WMT21: {args.data_dir / 'wmt21'} is absent._\n")
    with atomic_writer(args.out_dir / "audit.md") as fh:
        fh.write("\n".join(parts))
    Run(
        "audit-experiment",
        settings={"metrics": METRICS, "bootstrap": args.bootstrap},
        seeds={"bootstrap": args.seed},
        results=results,
    ).save(args.out_dir / "audit.json")
    print(f"wrote {args.out_dir / 'audit.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
