"""The meta information of an mt-metrics-eval test set: standard reference, standard human
score per level, outlier systems, primary and baseline metrics.

MTME keeps it in code (``mt_metrics_eval/meta_info.py``), not in the folders; the values of
its commit 68a481a for WMT19 to WMT25 are copied here as data (facts, cited, not code), so
``wmt22/en-de`` reads as MTME reads it. For any other folder :func:`resolve_meta` takes, in
this order: the caller's arguments, a ``mtpalette.json`` (or ``meta.json``) file in the
folder, and what the folder shows when it is unambiguous (a single reference, a single human
score name per level), said in a note; an ambiguous folder is refused with the choices.

``mtpalette.json``::

    {"std_ref": "refA", "std_gold": {"seg": "mqm", "sys": "mqm"},
     "outlier_systems": ["sysX"], "primary_metrics": ["BLEU"], "close_refs": ["refB"]}

or the same per language pair: ``{"en-de": {...}, "zh-en": {...}}``.

References
----------
google-research/mt-metrics-eval, ``mt_metrics_eval/meta_info.py``, commit
68a481aea1a787392d55af8f76ac8ef40c5f4664 (``MetaInfo``, ``DATA``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from mtpalette.errors import UserInputError
from mtpalette.io.jsonfile import loads

#: names of the meta file looked for in a test set folder, in order
META_FILES = ("mtpalette.json", "meta.json")


@dataclass(frozen=True)
class MetaInfo:
    """Meta information of one test set and language pair (MTME's ``MetaInfo``).

    ``std_gold`` maps a level (``sys``, ``domain``, ``doc``, ``seg``) to the name of its
    standard human score; ``close_refs`` (mtpalette's addition, MTME takes them as an
    argument of ``GetCorrelations``) are references too close to the standard one to be
    evaluated as systems (post-edits of it); ``source`` says where the values came from.
    """

    std_ref: str
    std_gold: Mapping[str, str]
    outlier_systems: frozenset[str] = frozenset()
    primary_metrics: frozenset[str] = frozenset()
    baseline_metrics: frozenset[str] | None = None
    close_refs: frozenset[str] = frozenset()
    source: str = "mt-metrics-eval meta_info.py (68a481a)"
    notes: tuple[str, ...] = field(default=(), compare=False)


def _info(std_ref, std_gold, outliers=(), primary=(), baselines=None) -> MetaInfo:
    return MetaInfo(
        std_ref,
        dict(std_gold),
        frozenset(outliers),
        frozenset(primary),
        None if baselines is None else frozenset(baselines),
    )


_MQM3 = {"sys": "mqm", "domain": "mqm", "seg": "mqm"}
WMT19 = _info("ref", {"sys": "wmt-z", "seg": "wmt-raw"})
WMT20 = _info("ref", {"sys": "wmt-z", "doc": "wmt-raw", "seg": "wmt-raw"})
WMT21_PRIMARIES = frozenset(
    "bleurt-20 COMET-MQM_2021 COMET-QE-MQM_2021 C-SPECpn MEE2 MTEQA OpenKiwi-MQM regEMT YiSi-1 "
    "YiSi-2 BERTScore sentBLEU BLEU chrF Prism TER".split()
)
WMT21 = _info("refA", {"sys": "wmt-z", "seg": "wmt-raw"}, (), WMT21_PRIMARIES)
_WMT21_MQM = {"sys": "mqm", "seg": "mqm"}
WMT22_PRIMARIES = frozenset(
    "BERTScore BLEURT-20 BLEU chrF COMET-20 COMET-22 COMETKiwi COMET-QE f200spBLEU "
    "HuaweiTSC_EE_BERTScore_0.3_With_Human HWTSC-Teacher-Sim MATESE-QE MATESE MEE4 "
    "metricx_xxl_MQM_2020 MS-COMET-22 MS-COMET-QE-22 REUSE SEScore UniTE UniTE-src "
    "YiSi-1".split()
)
WMT22 = _info("refA", _MQM3, (), WMT22_PRIMARIES)
WMT22_DA = _info("refA", {"sys": "wmt", "domain": "wmt", "seg": "wmt"}, (), WMT22_PRIMARIES)
WMT22_DA_NODOMAIN = _info("refA", {"sys": "wmt", "seg": "wmt"}, (), WMT22_PRIMARIES)
WMT22_APPRAISE = _info(
    "refA",
    {"sys": "wmt-appraise", "domain": "wmt-appraise", "seg": "wmt-appraise"},
    (),
    WMT22_PRIMARIES,
)
WMT22_NODOMAIN = _info("refA", {"sys": "wmt-appraise", "seg": "wmt-appraise"}, (), WMT22_PRIMARIES)
WMT23_BASELINES = frozenset(
    "BERTscore BLEU BLEURT-20 chrF COMET CometKiwi docWMT22CometDA docWMT22CometKiwiDA "
    "f200spBLEU MS-COMET-QE-22 prismRef prismSrc Random-sysname YiSi-1".split()
)
WMT23_PRIMARIES = WMT23_BASELINES | frozenset(
    "Calibri-COMET22 Calibri-COMET22-QE cometoid22-wmt22 eBLEU embed_llama GEMBA-MQM "
    "KG-BERTScore MaTESe MEE4 MetricX-23 MetricX-23-QE mre-score-labse-regular mbr-metricx-qe "
    "sescoreX tokengram_F XCOMET-Ensemble XCOMET-QE-Ensemble XLsim".split()
)
WMT23 = _info("refA", _MQM3, (), WMT23_PRIMARIES, WMT23_BASELINES)
WMT23_DA = _info(
    "refA",
    {"sys": "da-sqm", "domain": "da-sqm", "seg": "da-sqm"},
    (),
    WMT23_PRIMARIES,
    WMT23_BASELINES,
)
WMT24_BASELINES = frozenset(
    "BERTScore BLEU BLEURT-20 chrF COMET-22 CometKiwi PrismRefMedium PrismRefSmall spBLEU "
    "YiSi-1 sentinel-cand-mqm sentinel-ref-mqm sentinel-src-mqm".split()
)
WMT24_PRIMARIES = WMT24_BASELINES | frozenset(
    "BLCOM_1 bright-qe chrfS damonmonli gemba_esa MEE4 metametrics_mt_mqm_hybrid_kendall "
    "metametrics_mt_mqm_qe_kendall.seg.s MetricX-24-Hybrid MetricX-24-Hybrid-QE XCOMET "
    "XCOMET-QE XLsimMqm".split()
)
WMT24 = _info("refA", _MQM3, ("MSLC",), WMT24_PRIMARIES, WMT24_BASELINES)
WMT24_ESA = _info(
    "refA", {"sys": "esa", "domain": "esa", "seg": "esa"}, (), WMT24_PRIMARIES, WMT24_BASELINES
)
WMT24PP_PRIMARIES = frozenset(
    "BLEU ChrF MetricX-24 MetricX-24-QE XCOMET XCOMET-QE COMETKiwi-23 Gemini-DA "
    "Gemini-DA-QE".split()
)
WMT24PP = _info("posteditA", {}, (), WMT24PP_PRIMARIES)
_WMT24PP_LPS = (
    "en-ar_EG en-ar_SA en-bg_BG en-bn_IN en-ca_ES en-cs_CZ en-da_DK en-de_DE en-el_GR en-es_MX "
    "en-et_EE en-fa_IR en-fi_FI en-fil_PH en-fr_CA en-fr_FR en-gu_IN en-he_IL en-hi_IN en-hr_HR "
    "en-hu_HU en-id_ID en-is_IS en-it_IT en-ja_JP en-kn_IN en-ko_KR en-lt_LT en-lv_LV en-ml_IN "
    "en-mr_IN en-nl_NL en-no_NO en-pa_IN en-pl_PL en-pt_BR en-pt_PT en-ro_RO en-ru_RU en-sk_SK "
    "en-sl_SI en-sr_RS en-sv_SE en-sw_KE en-sw_TZ en-ta_IN en-te_IN en-th_TH en-tr_TR en-uk_UA "
    "en-ur_PK en-vi_VN en-zh_CN en-zh_TW en-zu_ZA"
).split()
WMT25_PRIMARIES = frozenset(
    "EnsembleSlick GEMBA-v2 MetricX-25 Polycand-2 Q_Relative-MQM SEGALE-QE TASER-No-Ref UvA-MT "
    "comet-multi hw-tsc mr7_2_1 rankedCOMET".split()
)
WMT25_BASELINES = frozenset(
    "BERTScore BLEU COMET22 COMETKiwi22 YiSi-1 chrF sentinel-cand spBLEU".split()
)
WMT25 = _info("refA", _MQM3, (), WMT25_PRIMARIES, WMT25_BASELINES)
_ESA1 = "esa-human1"
WMT25_ESA = _info(
    "refA", {"sys": _ESA1, "domain": _ESA1, "seg": _ESA1}, (), WMT25_PRIMARIES, WMT25_BASELINES
)


#: WMT21's MQM pairs (news and TED talks alike, but news en-de's standard reference is refC)
_WMT21_MQM_PAIRS = {
    "en-de": replace(
        WMT21,
        std_ref="refA",
        std_gold=_WMT21_MQM,
        primary_metrics=WMT21_PRIMARIES | {"cushLEPOR(LM)"},
    ),
    "en-ru": replace(
        WMT21, std_ref="refA", std_gold=_WMT21_MQM, primary_metrics=WMT21_PRIMARIES | {"hLEPOR"}
    ),
    "zh-en": replace(
        WMT21,
        std_ref="refB",
        std_gold=_WMT21_MQM,
        primary_metrics=WMT21_PRIMARIES | {"cushLEPOR(LM)", "RoBLEURT"},
    ),
}


def _same(info: MetaInfo, lps: str) -> dict[str, MetaInfo]:
    return dict.fromkeys(lps.split(), info)


#: MTME's built-in meta information: ``BUILTIN[test_set][lp]``
BUILTIN: dict[str, dict[str, MetaInfo]] = {
    "wmt25": {
        **_same(WMT25, "ja-zh_CN en-ko_KR"),
        **_same(
            WMT25_ESA,
            "cs-de_DE cs-uk_UA en-ar_EG en-bho_IN en-zh_CN en-cs_CZ en-et_EE en-is_IS en-it_IT "
            "en-ja_JP en-mas_KE en-ru_RU en-sr_Cyrl_RS en-uk_UA",
        ),
    },
    "wmt24pp": {
        lp: replace(
            WMT24PP, std_ref={"en-de_DE": "posteditB", "en-is_IS": "refA"}.get(lp, "posteditA")
        )
        for lp in _WMT24PP_LPS
    },
    "wmt24": {
        "en-de": replace(WMT24, std_ref="refB"),
        **_same(WMT24, "en-es ja-zh"),
        **_same(WMT24_ESA, "cs-uk en-cs en-hi en-is en-ja en-ru en-uk en-zh"),
    },
    "wmt23.sent": {"en-de": WMT23},
    "wmt23": {
        "en-de": replace(WMT23, outlier_systems=frozenset({"synthetic_ref"})),
        "he-en": replace(WMT23, std_ref="refB"),
        "zh-en": replace(WMT23, outlier_systems=frozenset({"synthetic_ref"})),
        **_same(WMT23_DA, "cs-uk de-en en-cs en-ja en-zh ja-en"),
        "en-he": replace(WMT23_DA, std_gold={}, std_ref="refB"),
        **_same(replace(WMT23_DA, std_gold={}), "en-ru en-uk ru-en uk-en"),
    },
    "wmt22": {
        "en-de": replace(WMT22, outlier_systems=frozenset({"M2M100_1.2B-B4"})),
        **_same(WMT22, "en-ru zh-en"),
        "cs-en": replace(WMT22_DA, std_ref="refB"),
        **_same(WMT22_NODOMAIN, "cs-uk en-liv liv-en sah-ru uk-cs"),
        **_same(WMT22_DA, "de-en ja-en ru-en"),
        **_same(replace(WMT22_APPRAISE, std_gold={}), "de-fr fr-de ru-sah"),
        "en-cs": replace(WMT22_APPRAISE, std_ref="refB"),
        **_same(WMT22_APPRAISE, "en-hr en-ja en-uk en-zh"),
        "uk-en": WMT22_DA_NODOMAIN,
    },
    "wmt21.news": {
        **_same(
            WMT21,
            "en-cs en-ha en-is en-ja en-zh cs-en de-en de-fr fr-de ha-en is-en ja-en ru-en",
        ),
        **_WMT21_MQM_PAIRS,
        "en-de": replace(_WMT21_MQM_PAIRS["en-de"], std_ref="refC"),
    },
    "wmt21.tedtalks": dict(_WMT21_MQM_PAIRS),
    "wmt21.flores": _same(WMT21, "bn-hi hi-bn xh-zu zu-xh"),
    "wmt20": {
        **_same(WMT20, "en-ru en-zh km-en ps-en"),
        **{
            lp: replace(WMT20, outlier_systems=frozenset(names.split()))
            for lp, names in {
                "cs-en": "zlabs-nlp.1149 CUNI-DocTransformer.1457",
                "de-en": "yolo.1052 zlabs-nlp.1153 WMTBiomedBaseline.387",
                "en-cs": "zlabs-nlp.1151 Online-G.1555",
                "en-de": "zlabs-nlp.179 WMTBiomedBaseline.388 Online-G.1556",
                "en-iu": "UEDIN.1281 OPPO.722 UQAM_TanLe.521",
                "en-ja": "Online-G.1557 SJTU-NICT.370",
                "en-pl": "Online-Z.1634 zlabs-nlp.180 Online-A.1576",
                "en-ta": "TALP_UPC.1049 SJTU-NICT.386 Online-G.1561",
                "iu-en": "NiuTrans.1206 Facebook_AI.729",
                "ja-en": "Online-G.1564 zlabs-nlp.66 Online-Z.1640",
                "pl-en": "zlabs-nlp.1162",
                "ru-en": "zlabs-nlp.1164",
                "ta-en": "Online-G.1568 TALP_UPC.192",
                "zh-en": "WMTBiomedBaseline.183",
            }.items()
        },
    },
    "wmt19": _same(
        WMT19,
        "de-cs de-en de-fr en-cs en-de en-fi en-gu en-kk en-lt en-ru en-zh fi-en fr-de gu-en "
        "kk-en lt-en ru-en zh-en",
    ),
}


def builtin_meta(test_set: str, lp: str) -> MetaInfo | None:
    """MTME's meta information of ``test_set``/``lp``, or None when MTME has none.

    Examples
    --------
    >>> m = builtin_meta("wmt22", "en-de")
    >>> m.std_ref, dict(m.std_gold)["seg"], sorted(m.outlier_systems)
    ('refA', 'mqm', ['M2M100_1.2B-B4'])
    """
    return BUILTIN.get(test_set, {}).get(lp)


def _strings(value: object, key: str, path: str) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UserInputError(f'"{key}" must be a list of names', path=path)
    return frozenset(value)


def read_meta_file(path: str | Path, lp: str) -> dict[str, object]:
    """The entries of a ``mtpalette.json`` meta file for ``lp`` (see the module docstring)."""
    name = str(path)
    try:
        obj = loads(Path(path).read_text(encoding="utf-8"), path=name)
    except json.JSONDecodeError as exc:
        raise UserInputError(f"invalid JSON ({exc.msg})", path=name, line=exc.lineno) from None
    if not isinstance(obj, dict):
        raise UserInputError("expected a JSON object", path=name)
    keys = {"std_ref", "std_gold", "outlier_systems", "primary_metrics", "close_refs"}
    if not set(obj) & keys:  # keyed by language pair
        if lp not in obj:
            return {}
        obj = obj[lp]
        if not isinstance(obj, dict):
            raise UserInputError(f'"{lp}" must map to an object', path=name)
    unknown = set(obj) - keys - {"baseline_metrics"}
    if unknown:
        raise UserInputError(
            f"unknown key(s) {', '.join(sorted(unknown))}; expected {', '.join(sorted(keys))}",
            path=name,
        )
    out: dict[str, object] = {}
    if "std_ref" in obj:
        if not isinstance(obj["std_ref"], str):
            raise UserInputError('"std_ref" must be a reference name', path=name)
        out["std_ref"] = obj["std_ref"]
    if "std_gold" in obj:
        gold = obj["std_gold"]
        if not isinstance(gold, dict) or not all(isinstance(v, str) for v in gold.values()):
            raise UserInputError('"std_gold" must map levels to human score names', path=name)
        out["std_gold"] = dict(gold)
    for key in ("outlier_systems", "primary_metrics", "close_refs", "baseline_metrics"):
        if key in obj:
            out[key] = _strings(obj[key], key, name)
    return out


def resolve_meta(
    root: str | Path,
    lp: str,
    *,
    refs: Iterable[str],
    human_names: Mapping[str, Iterable[str]],
    std_ref: str | None = None,
    std_gold: Mapping[str, str] | None = None,
    outliers: Iterable[str] | None = None,
    close_refs: Iterable[str] | None = None,
    test_set: str | None = None,
) -> MetaInfo:
    """The meta information of one language pair of the folder ``root``.

    Parameters
    ----------
    root, lp:
        The test set folder and the language pair.
    refs:
        The reference names the folder has.
    human_names:
        Per level, the human score names the folder has.
    std_ref, std_gold, outliers, close_refs:
        The caller's choices; they override everything else.
    test_set:
        The name MTME knows the folder by (default: the folder's name).

    Examples
    --------
    >>> m = resolve_meta("/data/my-set", "de-en", refs=["refA"], human_names={"seg": ["da"]})
    >>> m.std_ref, dict(m.std_gold), m.source
    ('refA', {'seg': 'da'}, 'inferred from the folder')
    """
    root = Path(root)
    test_set = test_set or root.name
    refs = sorted(refs)
    base = builtin_meta(test_set, lp)
    file_values: dict[str, object] = {}
    meta_path = next((root / n for n in META_FILES if (root / n).is_file()), None)
    if meta_path is not None:
        file_values = read_meta_file(meta_path, lp)
    notes: list[str] = []
    if base is not None and not file_values:
        source = f"mt-metrics-eval's meta_info.py (68a481a) for {test_set} {lp}"
    elif file_values:
        source = str(meta_path)
    else:
        source = "inferred from the folder"

    def pick(key: str, given: object, builtin: object) -> object:
        if given is not None:
            return given
        if key in file_values:
            return file_values[key]
        return builtin

    ref = pick("std_ref", std_ref, None if base is None else base.std_ref)
    if ref is None:
        if len(refs) == 1:
            ref = refs[0]
            notes.append(f"standard reference: {ref} (the only reference)")
        else:
            raise UserInputError(
                f"which reference is the standard one? the folder has "
                f"{', '.join(refs) or 'none'} for {lp}; give one (--mtme-ref REF) or write "
                f'{{"std_ref": "..."}} in {root / META_FILES[0]} (MTME\'s own values are known '
                f"for folders named {', '.join(sorted(BUILTIN))})",
                path=str(root),
            )
    gold = dict(pick("std_gold", None, None if base is None else base.std_gold) or {})
    if base is None and "std_gold" not in file_values:
        for level, names in sorted(human_names.items()):
            names = sorted(set(names))
            if len(names) == 1:
                gold[level] = names[0]
                notes.append(f"standard {level} human score: {names[0]} (the only one)")
    if std_gold:
        gold.update(std_gold)
    out = MetaInfo(
        str(ref),
        gold,
        frozenset(
            pick("outlier_systems", outliers, None if base is None else base.outlier_systems) or ()
        ),
        frozenset(
            pick("primary_metrics", None, None if base is None else base.primary_metrics) or ()
        ),
        pick("baseline_metrics", None, None if base is None else base.baseline_metrics),
        frozenset(pick("close_refs", close_refs, None) or ()),
        source,
        tuple(notes),
    )
    return out


def human_name_choice(meta: MetaInfo, level: str, names: Iterable[str], root: str | Path) -> str:
    """The human score of ``level``: the standard one, else refused with the choices."""
    names = sorted(set(names))
    if level in meta.std_gold:
        return meta.std_gold[level]
    raise UserInputError(
        f"which human score at {level} level? the folder has {', '.join(names) or 'none'}; "
        f'give one (--human NAME) or write {{"std_gold": {{"{level}": "..."}}}} in '
        f"{Path(root) / META_FILES[0]}",
        path=str(root),
    )
