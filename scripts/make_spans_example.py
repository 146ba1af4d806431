"""Write the span example shipped with mtpalette (``src/mtpalette/data/spans_example``): every
sentence, span and score is invented by the project (no shared-task data), in the generic
JSONL span format, for docs/spans.md and the tests.

Usage: python scripts/make_spans_example.py [OUT_DIR]

Two language pairs (en-de, en-cs), two invented systems (Birch, Cobalt), 8 test segments per
system and pair and 4 tuning segments: a gold annotator (anna, with ESA-like scores), a
second human (ben), and two invented span predictors (lexi: close to the gold; glint: noisy),
each with a quality score in [0, 1]. Seeded: the same files every run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

SENTENCES = {
    "en-de": [
        "Der Hafen öffnet morgen früh um sieben Uhr.",
        "Die Brücke wurde im letzten Sommer neu gestrichen.",
        "Wir haben den Zug nach Norden knapp verpasst.",
        "Das kleine Café am Markt verkauft warmes Brot.",
        "Im Winter frieren die Kanäle der Stadt selten zu.",
        "Der Bibliothekar legte die Karten auf den Tisch.",
        "Nach dem Regen roch der Garten nach Erde.",
        "Die Fähre fährt zweimal täglich zur Insel.",
        "Meine Nachbarin repariert alte Fahrräder.",
        "Der Turm ist von jedem Platz der Stadt zu sehen.",
        "Am Abend spielte eine Kapelle im Park.",
        "Die Straße war nach dem Sturm voller Äste.",
    ],
    "en-cs": [
        "Přístav se zítra otevírá v sedm hodin ráno.",
        "Most byl loni v létě znovu natřen.",
        "Vlak na sever nám těsně ujel.",
        "Malá kavárna na náměstí prodává teplý chléb.",
        "V zimě kanály ve městě zamrzají jen zřídka.",
        "Knihovník položil mapy na stůl.",
        "Po dešti voněla zahrada zeminou.",
        "Trajekt jezdí na ostrov dvakrát denně.",
        "Moje sousedka opravuje stará kola.",
        "Věž je vidět z každého náměstí ve městě.",
        "Večer hrála v parku kapela.",
        "Ulice byla po bouři plná větví.",
    ],
}
SYSTEMS = ("Birch", "Cobalt")
N_TEST = 8


def _words(text: str) -> list[tuple[int, int]]:
    out, start = [], None
    for i, ch in enumerate(text + " "):
        if ch.isalnum() and start is None:
            start = i
        elif not ch.isalnum() and start is not None:
            out.append((start, i))
            start = None
    return out


def _gold_spans(text: str, rng: np.random.Generator) -> list[dict]:
    words = _words(text)
    n = rng.choice(4, p=[0.35, 0.35, 0.2, 0.1])
    picks = sorted(rng.choice(len(words), size=n, replace=False)) if n else []
    out = []
    for k in picks:
        start, end = words[k]
        if rng.random() < 0.3 and k + 1 < len(words):
            end = words[k + 1][1]
        out.append(
            {
                "start": int(start),
                "end": int(end),
                "severity": str(rng.choice(["minor", "major"], p=[0.6, 0.4])),
            }
        )
    return out


def _perturbed(text, spans, rng, *, keep, shift, extra) -> list[dict]:
    out = []
    for s in spans:
        if rng.random() > keep:
            continue
        start = int(np.clip(s["start"] + rng.integers(-shift, shift + 1), 0, len(text)))
        end = int(np.clip(s["end"] + rng.integers(-shift, shift + 1), start, len(text)))
        sev = s["severity"] if rng.random() < 0.8 else ("minor" if s["severity"] == "major"
                                                          else "major")  # fmt: skip
        if end > start:
            out.append({"start": start, "end": end, "severity": sev})
    if rng.random() < extra:
        start, end = _words(text)[int(rng.integers(len(_words(text))))]
        out.append({"start": int(start), "end": int(end), "severity": "minor"})
    return out


def _quality(spans: list[dict], rng: np.random.Generator, noise: float) -> float:
    penalty = sum(5 if s["severity"] == "major" else 1 for s in spans)
    return float(np.clip(1.0 - 0.08 * penalty + rng.normal(0, noise), 0, 1).round(3))


def rows(rng: np.random.Generator) -> dict[str, list[dict]]:
    files: dict[str, list[dict]] = {n: [] for n in ("gold", "gold_ben", "lexi", "glint",
                                                    "dev_gold", "dev_lexi")}  # fmt: skip
    for lp, sentences in SENTENCES.items():
        for system in SYSTEMS:
            for seg, text in enumerate(sentences):
                test = seg < N_TEST
                key = {"lp": lp, "system": system, "doc": "harbour" if test else "dev",
                       "segment": seg, "domain": "news" if seg % 2 else "literary"}  # fmt: skip
                gold = _gold_spans(text, rng)
                weight = sum(25 if s["severity"] == "major" else 5 for s in gold)
                esa = float(np.clip(100 - weight - rng.integers(0, 12), 0, 100))

                def row(annotator, spans, score, key=key, text=text):
                    return {**key, "annotator": annotator, "score": score, "error_free": None,
                            "text": text, "spans": spans}  # fmt: skip

                lexi = _perturbed(text, gold, rng, keep=0.85, shift=1, extra=0.2)
                if test:
                    ben = _perturbed(text, gold, rng, keep=0.8, shift=2, extra=0.25)
                    glint = _perturbed(text, gold, rng, keep=0.4, shift=4, extra=0.6)
                    files["gold"].append(row("anna", gold, esa))
                    files["gold_ben"].append(row("ben", ben, None))
                    files["lexi"].append(row("lexi", lexi, _quality(lexi, rng, 0.05)))
                    files["glint"].append(row("glint", glint, _quality(glint, rng, 0.2)))
                else:
                    files["dev_gold"].append(row("anna", gold, esa))
                    files["dev_lexi"].append(row("lexi", lexi, _quality(lexi, rng, 0.05)))
    return files


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, content in rows(np.random.default_rng(57)).items():
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in content)
        (out / f"{name}.jsonl").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    default = Path(__file__).resolve().parents[1] / "src/mtpalette/data/spans_example"
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else default)
