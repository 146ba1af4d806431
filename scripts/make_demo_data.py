"""Write mtpalette's example data: invented by the project, not taken from anywhere.

Every text is generated here from a small parallel grammar (people, verbs, things, times and
places with their English, German and Chinese words) and every "human" score is derived from
the errors that this script puts into the "systems". Nothing is real: the sentences were never
translated by anyone, the systems are no MT systems, and the ratings are no human ratings.

Written, under ``src/mtpalette/data/example/`` (default; ``--out DIR`` elsewhere):

* ``mqm/{zhen,ende}/``: the layout :func:`mtpalette.io.judgments_mqm.bundled_mqm_ted` reads:
  ``source.txt``, ``ref.txt`` (and ``refB.txt``, an independent second English reference, for
  zh-en), one ``<system>.txt`` per invented system, ``seg_ids.txt``, and MQM-style ratings:
  ``mqm_<lp>.tsv`` (Google's MQM TSV columns, one row per error with its span marked
  ``<v>...</v>`` in the target, ``No-error`` rows for clean segments) and
  ``mqm_<lp>.avg_seg_scores.tsv`` (``system mqm_avg_score seg_id``).
* ``mtme/mtpalette.example/``: the same texts and ratings in mt-metrics-eval's layout
  (``sources/``, ``references/``, ``system-outputs/``, ``documents/``, ``human-scores/``
  ``LP.mqm.{seg,sys}.score``, ``metric-scores/``: mtpalette's BLEU, sentence BLEU, chrF and
  ROUGE-L, stored as ``BLEU``, ``sentBLEU``, ``chrF`` and ``mtpalette-rougeL``) and
  ``mtpalette.json`` naming its standard reference and human score.
* ``README.md`` saying all this.

How the systems and ratings are made (seeded, so the output is the same on every run):
each segment is a meaning (one or two clauses of subject, verb, object, time and place) that
the grammar realises in each language; a reference or a system output is one realisation, with
its synonyms and word order drawn at random (so outputs differ from the references without
errors). A system then gets errors at its own rate (Poisson, per segment): a wrong word
(Accuracy/Mistranslation), a dropped phrase (Accuracy/Omission), a source word left in
(Accuracy/Untranslated text), two words swapped (Fluency/Grammar), a misspelt word
(Fluency/Spelling) or a dropped full stop (Fluency/Punctuation), each Major or Minor with a
fixed probability. The "rater" of a document records each error with its span, but misses a
Minor error with probability 0.15 and gets a severity wrong with probability 0.1, so that the
ratings follow the errors as a careful but imperfect annotator would, and metrics that count
words correlate with them without predicting them.

Usage (from the repository root): ``python scripts/make_demo_data.py [--out DIR]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "src" / "mtpalette" / "data" / "example"
SEED = 56
TEST_SET = "mtpalette.example"
#: invented systems and their mean number of errors per segment
SYSTEMS = {
    "Aurora": 0.25, "Birch": 0.45, "Cobalt": 0.65, "Dune": 0.85,
    "Ember": 1.1, "Fjord": 1.4, "Garnet": 1.8, "Harbor": 2.4,
}  # fmt: skip
N_DOCS, PER_DOC = 6, 10
DOMAINS = ("daily", "work")

# Lexicon: English variants | German | Chinese. People are plural subjects (German verbs are
# then the infinitive's form, adjectives end in -en after "die").
PEOPLE = [
    ("teachers|instructors", "Lehrer", "老师们"), ("doctors|physicians", "Ärzte", "医生们"),
    ("students", "Studenten|Studierenden", "学生们"), ("farmers", "Bauern", "农民们"),
    ("engineers", "Ingenieure", "工程师们"), ("children|kids", "Kinder", "孩子们"),
    ("neighbours|neighbors", "Nachbarn", "邻居们"), ("scientists", "Wissenschaftler", "科学家们"),
    ("workers|employees", "Arbeiter|Angestellten", "工人们"), ("musicians", "Musiker", "音乐家们"),
    ("nurses", "Pfleger", "护士们"), ("artists", "Künstler", "艺术家们"),
    ("visitors|guests", "Besucher|Gäste", "游客们"), ("researchers", "Forscher", "研究人员"),
    ("cooks|chefs", "Köche", "厨师们"), ("drivers", "Fahrer", "司机们"),
]  # fmt: skip
HUMAN_ADJ = [
    ("young", "jungen", "年轻的"), ("old|elderly", "alten|älteren", "年长的"),
    ("tired|exhausted", "müden", "疲惫的"), ("happy|cheerful", "fröhlichen", "快乐的"),
    ("new", "neuen", "新来的"), ("busy", "beschäftigten", "忙碌的"),
    ("local", "örtlichen|hiesigen", "当地的"),
    ("famous|well-known", "berühmten|bekannten", "著名的"),
]  # fmt: skip
THING_ADJ = [
    ("new", "neuen", "新"), ("old", "alten", "旧"), ("small|little", "kleinen", "小"),
    ("big|large", "großen", "大"), ("interesting", "interessanten|spannenden", "有趣的"),
    ("simple|plain", "einfachen", "简单的"), ("important", "wichtigen", "重要的"),
    ("beautiful|lovely", "schönen", "漂亮的"),
    ("cheap|inexpensive", "billigen|günstigen", "便宜的"),
    ("strange|odd", "seltsamen", "奇怪的"), ("modern", "modernen", "现代的"),
    ("heavy", "schweren", "重的"),
]  # fmt: skip
#: things by kind
THINGS = {
    "text": [("books", "Bücher", "书"), ("letters", "Briefe", "信"),
             ("newspapers", "Zeitungen", "报纸"), ("stories", "Geschichten", "故事"),
             ("reports", "Berichte", "报告"), ("poems", "Gedichte", "诗")],
    "food": [("apples", "Äpfel", "苹果"), ("cakes", "Kuchen", "蛋糕"), ("soups", "Suppen", "汤"),
             ("tomatoes", "Tomaten", "西红柿"), ("noodles", "Nudeln", "面条"),
             ("vegetables", "Gemüsesorten", "蔬菜")],
    "made": [("houses", "Häuser", "房子"), ("bridges", "Brücken", "桥"), ("boats", "Boote", "船"),
             ("chairs", "Stühle", "椅子"), ("tables", "Tische", "桌子"),
             ("bicycles|bikes", "Fahrräder", "自行车"), ("machines", "Maschinen", "机器")],
    "idea": [("ideas", "Ideen", "想法"), ("problems|issues", "Probleme", "问题"),
             ("plans", "Pläne", "计划"), ("questions", "Fragen", "问题"),
             ("results|findings", "Ergebnisse", "结果"), ("rules", "Regeln", "规则")],
}  # fmt: skip
#: verbs (present tense, plural subject) and the kinds of thing they take
VERBS = [
    ("read", "lesen", "读", "text"), ("write", "schreiben", "写", "text"),
    ("print", "drucken", "打印", "text"), ("collect|gather", "sammeln", "收集", "text"),
    ("cook|prepare", "kochen", "做", "food"), ("eat", "essen", "吃", "food"),
    ("buy|purchase", "kaufen", "买", "food"), ("sell", "verkaufen", "卖", "food"),
    ("build|construct", "bauen", "建造", "made"), ("repair|fix", "reparieren", "修理", "made"),
    ("paint", "streichen", "粉刷", "made"), ("clean", "putzen|reinigen", "打扫", "made"),
    ("discuss|talk about", "besprechen|diskutieren", "讨论", "idea"),
    ("explain", "erklären", "解释", "idea"), ("study|examine", "untersuchen", "研究", "idea"),
    ("present", "präsentieren", "介绍", "idea"),
]  # fmt: skip
TIMES = [
    ("every morning|each morning", "jeden Morgen", "每天早上"),
    ("on Sundays|every Sunday", "sonntags|jeden Sonntag", "每个星期天"),
    ("in the evening|at night", "am Abend|abends", "晚上"),
    ("every week|each week", "jede Woche", "每周"),
    ("after lunch", "nach dem Mittagessen", "午饭后"),
    ("in the summer|during the summer", "im Sommer", "夏天"),
    ("today", "heute", "今天"), ("in winter|during the winter", "im Winter", "冬天"),
    ("on Mondays|every Monday", "montags|jeden Montag", "每个星期一"),
    ("before dinner", "vor dem Abendessen", "晚饭前"),
]  # fmt: skip
PLACES = [
    ("in the library", "in der Bibliothek", "在图书馆"), ("at school", "in der Schule", "在学校"),
    ("in the park", "im Park", "在公园"), ("at home", "zu Hause|daheim", "在家"),
    ("in the village", "im Dorf", "在村子里"),
    ("in the city centre|downtown", "in der Innenstadt|im Zentrum", "在市中心"),
    ("at the market", "auf dem Markt", "在市场上"), ("in the kitchen", "in der Küche", "在厨房"),
    ("in the laboratory|in the lab", "im Labor", "在实验室"),
    ("in the garden|in the yard", "im Garten", "在花园里"),
    ("at the station", "am Bahnhof", "在车站"), ("in the museum", "im Museum", "在博物馆"),
]  # fmt: skip
CONJ = [("and", "und", "，而且"), ("but", "aber", "，但是"), ("because", "denn", "，因为")]
LANGS = ("en", "de", "zh")
#: error kinds: (category, probability of Major, share among errors)
ERRORS = {
    "mistranslation": ("Accuracy/Mistranslation", 0.7, 0.3),
    "omission": ("Accuracy/Omission", 0.5, 0.2),
    "untranslated": ("Accuracy/Untranslated text", 0.8, 0.07),
    "swap": ("Fluency/Grammar", 0.2, 0.18),
    "spelling": ("Fluency/Spelling", 0.0, 0.13),
    "punctuation": ("Fluency/Punctuation", 0.0, 0.12),
}


@dataclass
class Chunk:
    """A phrase of a realised sentence: its text and what it is (for errors)."""

    text: str
    kind: str  # det adj noun verb time place conj punct
    source: str = ""  # the source language's word(s) for the same meaning
    words: tuple = ()  # the lexicon entry's row (for a wrong word of the same kind)


@dataclass
class Error:
    kind: str
    severity: str
    chunk: int | None  # the span's chunk in the output (None: no span, as an omission)


@dataclass
class Output:
    chunks: list[Chunk]
    errors: list[Error] = field(default_factory=list)


def pick(variants: str, rng: np.random.Generator) -> str:
    options = variants.split("|")
    return options[int(rng.integers(len(options)))]


def draw_meaning(rng: np.random.Generator) -> list[dict]:
    """One segment: one or two clauses of lexicon indices."""
    clauses = []
    for _ in range(1 if rng.random() < 0.55 else 2):
        verb = int(rng.integers(len(VERBS)))
        kind = VERBS[verb][3]
        clauses.append({
            "people": int(rng.integers(len(PEOPLE))),
            "hadj": int(rng.integers(len(HUMAN_ADJ))) if rng.random() < 0.5 else None,
            "verb": verb,
            "thing": (kind, int(rng.integers(len(THINGS[kind])))),
            "tadj": int(rng.integers(len(THING_ADJ))) if rng.random() < 0.6 else None,
            "time": int(rng.integers(len(TIMES))) if rng.random() < 0.7 else None,
            "place": int(rng.integers(len(PLACES))) if rng.random() < 0.7 else None,
        })  # fmt: skip
    return [{**c, "conj": int(rng.integers(len(CONJ)))} for c in clauses]


def realise(meaning: list[dict], lang: str, src: str, rng: np.random.Generator) -> list[Chunk]:
    """One realisation of ``meaning`` in ``lang`` (synonyms and word order drawn)."""
    li, si = LANGS.index(lang), LANGS.index(src)
    out: list[Chunk] = []

    def chunk(row: tuple, kind: str) -> Chunk:
        return Chunk(pick(row[li], rng), kind, row[si].split("|")[0], row)

    for k, c in enumerate(meaning):
        if k:
            conj = CONJ[c["conj"]]
            out += [Chunk("," if lang != "zh" else "", "punct"), chunk(conj, "conj")]
        subj = [chunk(HUMAN_ADJ[c["hadj"]], "adj")] if c["hadj"] is not None else []
        subj.append(chunk(PEOPLE[c["people"]], "noun"))
        obj = [chunk(THING_ADJ[c["tadj"]], "adj")] if c["tadj"] is not None else []
        obj.append(chunk(THINGS[c["thing"][0]][c["thing"][1]], "noun"))
        verb = chunk(VERBS[c["verb"]], "verb")
        time = [chunk(TIMES[c["time"]], "time")] if c["time"] is not None else []
        place = [chunk(PLACES[c["place"]], "place")] if c["place"] is not None else []
        if lang == "zh":
            out += [*subj, *time, *place, verb, *obj]
        elif lang == "de":
            det = [Chunk("die", "det")]
            if time and rng.random() < 0.3:  # V2: time first, then verb, subject
                out += [*time, verb, *det, *subj, *det, *obj, *place]
            else:
                out += [*det, *subj, verb, *time, *det, *obj, *place]
        else:
            det = [Chunk("the", "det")]
            if time and rng.random() < 0.35:
                out += [*time, Chunk(",", "punct"), *det, *subj, verb, *det, *obj, *place]
            else:
                out += [*det, *subj, verb, *det, *obj, *place, *time]
    out.append(Chunk("。" if lang == "zh" else ".", "punct"))
    return out


def render(chunks: list[Chunk], lang: str, mark: int | None = None) -> str:
    """The sentence, its first letter capitalised; chunk ``mark`` inside ``<v>...</v>``."""
    text = ""
    for k, c in enumerate(chunks):
        word = c.text
        if k == 0 and word:
            word = word[0].upper() + word[1:]
        if k == mark:
            word = f"<v>{word}</v>"
        glue = "" if lang == "zh" or c.kind == "punct" or not text else " "
        text += glue + word
    return text


def corrupt(out: Output, lang: str, rate: float, rng: np.random.Generator) -> None:
    """Put a Poisson(``rate``) number of errors into ``out``, recording each."""
    kinds = list(ERRORS)
    shares = np.array([ERRORS[k][2] for k in kinds])
    for _ in range(int(rng.poisson(rate))):
        kind = kinds[int(rng.choice(len(kinds), p=shares / shares.sum()))]
        severity = "Major" if rng.random() < ERRORS[kind][1] else "Minor"
        ch = out.chunks
        words = [k for k, c in enumerate(ch) if c.kind in ("noun", "verb", "adj")]
        if kind == "mistranslation" and words:
            k = words[int(rng.integers(len(words)))]
            table = {"noun": PEOPLE + [t for ts in THINGS.values() for t in ts],
                     "verb": VERBS, "adj": HUMAN_ADJ + THING_ADJ}[ch[k].kind]  # fmt: skip
            other = [row for row in table if row[0] != ch[k].words[0]]
            row = other[int(rng.integers(len(other)))]
            ch[k] = Chunk(pick(row[LANGS.index(lang)], rng), ch[k].kind, ch[k].source, row)
            out.errors.append(Error(kind, severity, k))
        elif kind == "omission":
            drop = [k for k, c in enumerate(ch) if c.kind in ("adj", "time", "place")]
            if drop:
                k = drop[int(rng.integers(len(drop)))]
                del ch[k]
                _shift(out.errors, k, -1)
                out.errors.append(Error(kind, severity, None))
        elif kind == "untranslated" and words:
            k = words[int(rng.integers(len(words)))]
            ch[k] = Chunk(ch[k].source, ch[k].kind, ch[k].source, ch[k].words)
            out.errors.append(Error(kind, severity, k))
        elif kind == "swap":
            pairs = [k for k in range(len(ch) - 2) if "punct" not in (ch[k].kind, ch[k + 1].kind)]
            if pairs:
                k = pairs[int(rng.integers(len(pairs)))]
                ch[k], ch[k + 1] = ch[k + 1], ch[k]
                out.errors.append(Error(kind, severity, k))
        elif kind == "spelling" and lang != "zh":
            long = [k for k in words if len(ch[k].text) >= 5 and " " not in ch[k].text]
            if long:
                k = long[int(rng.integers(len(long)))]
                w = ch[k].text
                j = int(rng.integers(1, len(w) - 2))
                ch[k] = Chunk(w[:j] + w[j + 1] + w[j] + w[j + 2 :], ch[k].kind, ch[k].source,
                              ch[k].words)  # fmt: skip
                out.errors.append(Error(kind, "Minor", k))
        elif kind == "punctuation" and ch[-1].kind == "punct" and ch[-1].text:
            out.errors.append(Error(kind, "Minor", len(ch) - 1))
            ch[-1] = Chunk("", "punct")


def _shift(errors: list[Error], removed: int, by: int) -> None:
    for e in errors:
        if e.chunk is not None and e.chunk > removed:
            e.chunk += by
        elif e.chunk == removed:
            e.chunk = None


def rate(out: Output, rng: np.random.Generator) -> list[tuple[str, str, int | None]]:
    """What the invented rater records: (category, severity, span chunk) per error kept."""
    rows = []
    for e in out.errors:
        if e.severity == "Minor" and rng.random() < 0.15:
            continue
        severity = e.severity
        if e.kind != "punctuation" and rng.random() < 0.1:
            severity = "Minor" if severity == "Major" else "Major"
        rows.append((ERRORS[e.kind][0], severity, e.chunk))
    return rows


def weight(category: str, severity: str) -> float:
    if category == "Fluency/Punctuation" and severity == "Minor":
        return 0.1
    return 5.0 if severity == "Major" else 1.0


def build_pair(lp: str, rng: np.random.Generator) -> dict:
    """Texts, documents and ratings of one language pair (``zhen`` or ``ende``)."""
    src, tgt = ("zh", "en") if lp == "zhen" else ("en", "de")
    refs = ["ref", "refB"] if lp == "zhen" else ["ref"]
    n = N_DOCS * PER_DOC
    meanings = [draw_meaning(rng) for _ in range(n)]
    docs = [(DOMAINS[d % len(DOMAINS)], f"story.{d + 1}", d + 1) for d in range(N_DOCS)]
    seg_doc = [docs[k // PER_DOC] for k in range(n)]
    raters = [f"rater{1 + int(rng.integers(3))}" for _ in range(N_DOCS)]
    source = [render(realise(m, src, src, rng), src) for m in meanings]
    outputs: dict[str, list[Output]] = {}
    for name in refs:
        outputs[name] = [Output(realise(m, tgt, src, rng)) for m in meanings]
    for name, r in SYSTEMS.items():
        outs = [Output(realise(m, tgt, src, rng)) for m in meanings]
        for o in outs:
            corrupt(o, tgt, r, rng)
        outputs[name] = outs
    rows, avg = [], []
    for name, outs in outputs.items():
        for k, o in enumerate(outs):
            found = rate(o, rng)
            if name in refs and rng.random() < 0.1:  # a reference is not perfect either
                found = [("Style/Awkward", "Minor", int(rng.integers(len(o.chunks) - 1)))]
            domain, doc, doc_id = seg_doc[k]
            base = [name, doc, str(doc_id), str(k + 1), raters[doc_id - 1], source[k]]
            for category, severity, span in found or [("No-error", "No-error", None)]:
                rows.append([*base, render(o.chunks, tgt, span), category, severity])
            score = -round(sum(weight(c, s) for c, s, _ in found), 9) + 0.0
            avg.append(f"{name} {score!r} {k + 1}")
    texts = {name: [render(o.chunks, tgt) for o in outs] for name, outs in outputs.items()}
    domains, doc_names = [d for d, _, _ in seg_doc], [doc for _, doc, _ in seg_doc]
    return {"source": source, "texts": texts, "refs": refs, "rows": rows, "avg": avg,
            "domains": domains, "docs": doc_names}  # fmt: skip


def write_lines(path: Path, lines) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")


def write_mqm(pair: dict, lp: str, out: Path) -> None:
    d = out / "mqm" / lp
    write_lines(d / "source.txt", pair["source"])
    write_lines(d / "seg_ids.txt", range(1, len(pair["source"]) + 1))
    for name, lines in pair["texts"].items():
        write_lines(d / f"{name}.txt", lines)
    head = "system doc doc_id seg_id rater source target category severity".split()
    write_lines(d / f"mqm_{lp}.tsv", ["\t".join(r) for r in [head, *pair["rows"]]])
    write_lines(d / f"mqm_{lp}.avg_seg_scores.tsv", ["system mqm_avg_score seg_id", *pair["avg"]])


def write_mtme(pair: dict, lp: str, out: Path) -> None:
    """The same pair in mt-metrics-eval's layout, with mtpalette's metrics stored."""
    root = out / "mtme" / TEST_SET
    code = {"zhen": "zh-en", "ende": "en-de"}[lp]
    names = {"ref": "refA", "refB": "refB"}
    outputs = {names.get(s, s): lines for s, lines in pair["texts"].items()}
    write_lines(root / "sources" / f"{code}.txt", pair["source"])
    docs = [f"{d} {doc}" for d, doc in zip(pair["domains"], pair["docs"], strict=True)]
    write_lines(root / "documents" / f"{code}.docs", docs)
    for name in pair["refs"]:
        write_lines(root / "references" / f"{code}.{names[name]}.txt", outputs[names[name]])
    for name, lines in outputs.items():
        write_lines(root / "system-outputs" / code / f"{name}.txt", lines)
    seg: dict[str, list[float]] = {}
    for line in pair["avg"]:
        system, score, _ = line.split()
        seg.setdefault(names.get(system, system), []).append(float(score))
    write_lines(root / "human-scores" / f"{code}.mqm.seg.score",
                [f"{s}\t{v!r}" for s, vs in seg.items() for v in vs])  # fmt: skip
    write_lines(root / "human-scores" / f"{code}.mqm.sys.score",
                [f"{s}\t{float(np.mean(vs))!r}" for s, vs in seg.items()])  # fmt: skip
    for ref in ["refA", "refB"][: len(pair["refs"])]:
        write_metrics(root, code, pair, {s: h for s, h in outputs.items() if s != ref},
                      outputs[ref], ref)  # fmt: skip
    meta = {code: {"std_ref": "refA", "std_gold": {"seg": "mqm", "sys": "mqm"}}}
    path = root / "mtpalette.json"
    old = {} if not path.exists() else json.loads(path.read_text())
    path.write_text(json.dumps({**old, **meta}, indent=1) + "\n", encoding="utf-8")


def write_metrics(root: Path, code: str, pair: dict, scored: dict, ref_lines: list, ref: str):
    """mtpalette's scores against ``ref``, stored under MTME's usual names: ``BLEU`` (sys),
    ``sentBLEU`` (seg; sys = mean), ``chrF`` (seg, sys) and ``mtpalette-rougeL`` (seg, doc,
    domain = mean of the segments, sys = corpus score). mtpalette's ``bleu`` and ``chrf``
    equal sacrebleu's (tests/metrics), whose names MTME's folders use."""
    from mtpalette.api import corpus_score, sentence_scores
    from mtpalette.io.mtme_write import write_mtme_scores

    def seg(spec):
        return {s: [float(x) for x in sentence_scores(h, [ref_lines], spec)[spec]]
                for s, h in scored.items()}  # fmt: skip

    def corpus(spec):
        return {s: float(corpus_score(h, [ref_lines], spec)[0].value) for s, h in scored.items()}

    def mean_by(values, keys, names):
        return [float(np.mean([v for v, k in zip(values, keys, strict=True) if k == name]))
                for name in names]  # fmt: skip

    sent, chrf, rouge = seg("bleu"), seg("chrf"), seg("rouge-l")
    docs = list(dict.fromkeys(pair["docs"]))
    levels = {
        "BLEU": {"sys": corpus("bleu")},
        "sentBLEU": {"seg": sent, "sys": {s: float(np.mean(v)) for s, v in sent.items()}},
        "chrF": {"seg": chrf, "sys": corpus("chrf")},
        "mtpalette-rougeL": {
            "seg": rouge,
            "doc": {s: mean_by(v, pair["docs"], docs) for s, v in rouge.items()},
            "domain": {
                s: dict(zip(DOMAINS, mean_by(v, pair["domains"], DOMAINS), strict=True))
                for s, v in rouge.items()
            },
            "sys": corpus("rouge-l"),
        },
    }
    for metric, by_level in levels.items():
        write_mtme_scores(root, code, metric, by_level, ref=ref)


README = """# mtpalette's example data: invented, not real

Everything in this folder was **written by the mtpalette project** with
`scripts/make_demo_data.py` (seed {seed}); none of it was taken from any data set. The sentences
come from a small grammar (people, verbs, things, times and places in English, German and
Chinese); the "systems" ({systems}) are no MT systems but the references' meanings realised
again with errors put in at a rate of their own; the "MQM ratings" are no human ratings but
those errors as an invented, imperfect rater records them (a Minor error missed now and then,
a severity sometimes wrong). Use it to try mtpalette's commands and to see what its outputs
look like; never as evidence about real metrics or real systems.

* `mqm/zhen/`, `mqm/ende/`: {n} segments in {docs} documents; `source.txt`, `ref.txt` (and
  `refB.txt`, a second independent reference, in zh-en), `<system>.txt`, `seg_ids.txt`,
  `mqm_<lp>.tsv` (MQM TSV: one row per error, its span marked `<v>...</v>`) and
  `mqm_<lp>.avg_seg_scores.tsv` (minus the summed error weights, higher is better).
* `mtme/{test_set}/`: the same, in mt-metrics-eval's folder layout (`--mtme`), with
  mtpalette's BLEU, sentence BLEU, chrF and ROUGE-L stored as metric scores (named `BLEU`,
  `sentBLEU`, `chrF`, `mtpalette-rougeL`), and `mtpalette.json` naming the
  standard reference (refA) and human score (mqm).

Real data (the WMT21 TED talks MQM ratings of google/wmt-mqm-human-evaluation and others) is
not part of mtpalette: see the README's "Real data" section.
"""


def main(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    rng = np.random.default_rng(SEED)
    for lp in ("zhen", "ende"):
        pair = build_pair(lp, rng)
        write_mqm(pair, lp, out)
        write_mtme(pair, lp, out)
        n, m = len(pair["source"]), len(pair["texts"])
        print(f"{lp}: {n} segments, {m} outputs", file=sys.stderr)
    text = README.format(seed=SEED, systems=", ".join(SYSTEMS), n=N_DOCS * PER_DOC, docs=N_DOCS,
                         test_set=TEST_SET)  # fmt: skip
    (out / "README.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    main(parser.parse_args().out)
