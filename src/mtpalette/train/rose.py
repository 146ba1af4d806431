"""Training ROSE (Song and Cohn, 2011): a metric over the features of
:mod:`mtpalette.metrics.rose_features`, fitted by a support vector machine.

* ROSE-reg: support vector regression on absolute human scores (DA, MQM, WMT12 win rates).
  The default is the paper's: epsilon-insensitive loss (SVM-light's ``-z r``, epsilon 0.1 by
  default), ``loss="epsilon"``; ``loss="squared"`` is L2-regularised least squares (squared
  epsilon-insensitive loss with epsilon 0, what earlier versions of mtpalette trained).
* ROSE-rank: a ranking SVM (Joachims, 2002): the feature differences of human preference
  pairs (better minus worse) classified with no intercept. The default is SVM-light's hinge
  loss (``loss="hinge"``); ``loss="squared"`` is the squared hinge.
* Kernels (the paper's Table 3): ``linear`` (the paper's choice), ``poly``
  ((gamma z.z' + coef0)^degree, coef0 = 1) and ``rbf`` (exp(-gamma |z - z'|^2)), gamma
  1 / n_features by default. Non-linear models are exact (scikit-learn's ``SVR``, or ``SVC`` on
  a precomputed pair kernel for ranking) up to :data:`EXACT_LIMIT` training rows or pairs;
  beyond that, or with the squared losses (libsvm has none), a Nystroem approximation (Williams
  and Seeger, 2001): ``components`` landmarks drawn (seeded) from the training rows, the
  kernel's feature map ``phi(z) = K(z, L) K(L, L)^-1/2``, and the linear machine on it.

Features are standardised (mean 0, scale 1 on the training data) and the model stores the
scaler. A linear model stores its weights (one dot product per sentence); a kernel model
stores its expansion ``score(z) = sum_j coef_j K(z, v_j) + bias`` (support vectors, or
landmarks with ``K(L, L)^-1/2 w`` folded into ``coef``), so ``rose:@model.json`` scores both
the same way. scikit-learn's ``LinearSVR``/``LinearSVC``/``SVR``/``SVC`` replace SVM-light.

References
----------
Song and Cohn (2011), Regression and ranking based optimisation for sentence level MT
evaluation, WMT, sections 3.2 and 4.2. Joachims (1999, 2002), SVM-light and ranking SVMs.
Smola and Schoelkopf (2004), a tutorial on support vector regression.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.runfile import read_json
from mtpalette.metrics.rose_features import FUNCTION_WORDS, feature_names, features
from mtpalette.text.tokenizers import get_tokenizer

KERNELS = ("linear", "poly", "rbf")
LOSSES = {"reg": ("epsilon", "squared"), "rank": ("hinge", "squared")}
#: the most training rows (regression) or pairs (ranking) fitted with an exact kernel machine
EXACT_LIMIT = {"reg": 8000, "rank": 3000}
APPROX = ("auto", "exact", "nystroem")


def kernel_matrix(Z: np.ndarray, V: np.ndarray, kernel: str, params: dict[str, Any]) -> np.ndarray:
    """``K(z_i, v_j)`` for rows of ``Z`` and ``V``.

    Examples
    --------
    >>> Z, V = np.array([[1.0, 0.0]]), np.array([[1.0, 0.0], [0.0, 2.0]])
    >>> kernel_matrix(Z, V, "poly", {"gamma": 0.5, "degree": 2, "coef0": 1.0}).tolist()
    [[2.25, 1.0]]
    >>> kernel_matrix(Z, V, "rbf", {"gamma": 0.5}).round(4).tolist()  # exp(-0.5 * 5)
    [[1.0, 0.0821]]
    """
    Z, V = np.asarray(Z, dtype=float), np.asarray(V, dtype=float)
    if kernel == "linear":
        return Z @ V.T
    gamma = float(params["gamma"])
    if kernel == "poly":
        return (gamma * (Z @ V.T) + float(params["coef0"])) ** int(params["degree"])
    if kernel == "rbf":
        d2 = (Z * Z).sum(1)[:, None] + (V * V).sum(1)[None, :] - 2 * (Z @ V.T)
        return np.exp(-gamma * np.maximum(d2, 0.0))
    raise UserInputError(f"unknown kernel {kernel!r}; expected {', '.join(KERNELS)}")


@dataclass
class RoseModel:
    """A ROSE model: its feature set, scaler, and either linear weights or a kernel expansion.

    ``loss``, ``kernel`` and ``function_words`` record how it was trained (model files written
    before they existed load as ``squared``, ``linear`` and ``stopwordsiso``).
    """

    kind: str
    lang: str
    pos: bool
    tokenize: str
    lowercase: bool
    features: list[str]
    mean: list[float]
    scale: list[float]
    weights: list[float]
    bias: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)
    loss: str = "squared"
    kernel: str = "linear"
    function_words: str = "stopwordsiso"
    kernel_params: dict[str, Any] = field(default_factory=dict)
    vectors: list[list[float]] = field(default_factory=list)
    coef: list[float] = field(default_factory=list)

    def standardise(self, X: np.ndarray) -> np.ndarray:
        return (np.asarray(X, dtype=float) - np.asarray(self.mean)) / np.asarray(self.scale)

    def score(self, X: np.ndarray) -> np.ndarray:
        """The model's value for each feature row of ``X``."""
        z = self.standardise(X)
        if self.kernel == "linear":
            return z @ np.asarray(self.weights) + self.bias
        V, coef = np.asarray(self.vectors, dtype=float), np.asarray(self.coef, dtype=float)
        out = np.empty(len(z))
        for lo in range(0, len(z), 2048):  # bounded memory for long inputs
            out[lo : lo + 2048] = (
                kernel_matrix(z[lo : lo + 2048], V, self.kernel, self.kernel_params) @ coef
            )
        return out + self.bias

    def to_dict(self) -> dict[str, Any]:
        from mtpalette._version import __version__

        return {"metric": "rose", "version": __version__, **asdict(self)}

    def save(self, path: str | Path) -> None:
        from mtpalette.io.runfile import write_json

        write_json(path, self.to_dict())

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:16]

    @classmethod
    def load(cls, path: str | Path) -> RoseModel:
        p = Path(path)
        obj = read_json(p, "a ROSE model (JSON)")
        if not isinstance(obj, dict) or obj.get("metric") != "rose":
            raise UserInputError('not a ROSE model (expected "metric": "rose")', path=str(p))
        fields = {k: obj[k] for k in cls.__dataclass_fields__ if k in obj}
        try:
            model = cls(**fields)
        except TypeError as exc:
            raise UserInputError(f"incomplete ROSE model: {exc}", path=str(p)) from None
        if model.features != feature_names(model.pos):
            raise UserInputError("the model's feature list is not this version's", path=str(p))
        if model.kernel not in KERNELS:
            raise UserInputError(f"unknown kernel {model.kernel!r} in the model", path=str(p))
        if model.function_words not in FUNCTION_WORDS:
            raise UserInputError(
                f"unknown function-word list {model.function_words!r} in the model", path=str(p)
            )
        n = len(model.features)
        if model.kernel == "linear":
            ok = len(model.weights) == n
        else:
            ok = len(model.vectors) == len(model.coef) > 0 and all(
                len(v) == n for v in model.vectors
            )
        if not ok or len(model.mean) != n or len(model.scale) != n:
            raise UserInputError(
                "the model's weights or vectors do not match its features", path=str(p)
            )
        return model


class FeatureExtractor:
    """ROSE features of (candidate, references) text, each distinct sentence tokenized and
    tagged once."""

    def __init__(
        self,
        *,
        lang: str = "en",
        pos: bool = False,
        tokenize: str = "13a",
        lowercase: bool = True,
        function_words: str = "fw100",
    ) -> None:
        from mtpalette.metrics.rose_features import function_words as fw_list

        fw_list(lang, function_words)  # an unknown list or language fails here, clearly
        self.lang, self.pos, self.lowercase = lang, pos, lowercase
        self.function_words = function_words
        self.tokenize = tokenize
        self._tok = get_tokenizer(tokenize)
        self._cache: dict[str, list[str]] = {}
        self.tagger = None
        if pos:
            from mtpalette.text.pos import load_tagger

            self.tagger = load_tagger(lang)

    def tokens(self, text: str) -> list[str]:
        out = self._cache.get(text)
        if out is None:
            out = self._tok(text.lower() if self.lowercase else text)
            self._cache[text] = out
        return out

    def __call__(self, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
        """``(len(hyps), n_features)``; ``refs[i]``: the references of ``hyps[i]``."""
        rows = [
            features(
                self.tokens(h),
                [self.tokens(r) for r in rs],
                lang=self.lang,
                pos=self.pos,
                tagger=self.tagger,
                function_words=self.function_words,
            )
            for h, rs in zip(hyps, refs, strict=True)
        ]
        return np.asarray(rows, dtype=float).reshape(len(hyps), len(feature_names(self.pos)))


def _scaler(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    return mean, np.where(scale > 0, scale, 1.0)


@dataclass(frozen=True)
class SvmSettings:
    """How to fit: loss, kernel and its parameters, cost, the exact/approximate choice.

    ``gamma=None`` is 1 / n_features (on standardised features, scikit-learn's ``scale``);
    ``epsilon`` is the regression tube (SVM-light's default 0.1; 0 with the squared loss).
    """

    loss: str | None = None
    kernel: str = "linear"
    C: float = 1.0
    epsilon: float | None = None
    degree: int = 2
    gamma: float | None = None
    coef0: float = 1.0
    approx: str = "auto"
    components: int = 300
    seed: int = 0

    def checked(self, kind: str) -> SvmSettings:
        from dataclasses import replace

        loss = self.loss or LOSSES[kind][0]
        if loss not in LOSSES[kind]:
            raise UserInputError(
                f"unknown loss {loss!r} for ROSE-{kind}; expected {' or '.join(LOSSES[kind])}"
            )
        if self.kernel not in KERNELS:
            raise UserInputError(f"unknown kernel {self.kernel!r}; expected {', '.join(KERNELS)}")
        if self.approx not in APPROX:
            raise UserInputError(
                f"unknown approximation {self.approx!r}; expected {', '.join(APPROX)}"
            )
        if not (self.C > 0 and np.isfinite(self.C)):
            raise UserInputError(f"C must be a positive number (got {self.C})")
        eps = self.epsilon if self.epsilon is not None else (0.1 if loss == "epsilon" else 0.0)
        if not (eps >= 0 and np.isfinite(eps)):
            raise UserInputError(f"epsilon must be >= 0 (got {eps})")
        if self.degree < 1 or self.components < 2:
            raise UserInputError("degree must be >= 1 and components >= 2")
        if self.gamma is not None and not (self.gamma > 0 and np.isfinite(self.gamma)):
            raise UserInputError(f"gamma must be a positive number (got {self.gamma})")
        if self.kernel != "linear" and self.approx == "exact" and loss == "squared":
            raise UserInputError(
                "an exact kernel machine has no squared loss (libsvm): use --approx nystroem"
            )
        return replace(self, loss=loss, epsilon=float(eps))

    def kernel_params(self, n_features: int) -> dict[str, Any]:
        if self.kernel == "linear":
            return {}
        gamma = self.gamma if self.gamma is not None else 1.0 / n_features
        out: dict[str, Any] = {"gamma": float(gamma)}
        if self.kernel == "poly":
            out.update(degree=int(self.degree), coef0=float(self.coef0))
        return out

    def exact(self, kind: str, n: int) -> bool:
        if self.kernel == "linear" or self.approx == "nystroem":
            return False
        if self.approx == "exact":
            return True
        return self.loss != "squared" and n <= EXACT_LIMIT[kind]


def _nystroem(Z: np.ndarray, kernel: str, kp: dict[str, Any], components: int, seed: int):
    """Landmarks (seeded sample of distinct rows) and ``K(L, L)^-1/2``."""
    uniq = np.unique(Z, axis=0)
    rng = np.random.default_rng(seed)
    take = rng.choice(len(uniq), size=min(components, len(uniq)), replace=False)
    L = uniq[np.sort(take)]
    vals, vecs = np.linalg.eigh(kernel_matrix(L, L, kernel, kp))
    inv_sqrt = (vecs / np.sqrt(np.maximum(vals, 1e-12))) @ vecs.T
    return L, inv_sqrt


def _settings_info(s: SvmSettings, kind: str, exact: bool) -> dict[str, Any]:
    info: dict[str, Any] = {"C": s.C, "seed": s.seed}
    if kind == "reg":
        info["epsilon"] = s.epsilon
    if s.kernel != "linear":
        info["solver"] = "exact" if exact else f"nystroem-{s.components}"
    return info


def fit_regression(
    X: np.ndarray,
    y: np.ndarray,
    extractor: FeatureExtractor,
    *,
    settings: SvmSettings | None = None,
    C: float | None = None,
    seed: int | None = None,
    info: dict[str, Any] | None = None,
) -> RoseModel:
    """ROSE-reg: support vector regression of the human scores on the standardised features
    (the paper's epsilon-insensitive SVR by default; see :class:`SvmSettings`)."""
    from dataclasses import replace

    from sklearn.svm import SVR, LinearSVR

    s = settings or SvmSettings()
    s = replace(s, C=s.C if C is None else C, seed=s.seed if seed is None else seed)
    s = s.checked("reg")
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    if len(y) < 2 or np.ptp(y) == 0:
        raise UserInputError("ROSE-reg needs at least two different human scores")
    mean, scale = _scaler(X)
    Z = (X - mean) / scale
    kp = s.kernel_params(Z.shape[1])
    exact = s.exact("reg", len(y))
    loss = "epsilon_insensitive" if s.loss == "epsilon" else "squared_epsilon_insensitive"
    extra = _settings_info(s, "reg", exact)
    common = {"n_train": int(len(y)), **extra, **(info or {})}
    if exact:
        svr = SVR(kernel=s.kernel, C=s.C, epsilon=s.epsilon, **kp).fit(Z, y)
        vectors, coef = svr.support_vectors_, svr.dual_coef_[0]
        return _model(
            "reg",
            extractor,
            s,
            mean,
            scale,
            [],
            float(svr.intercept_[0]),
            common,
            kp,
            vectors,
            coef,
        )
    if (
        s.kernel == "linear"
        and s.loss == "epsilon"
        and s.approx != "nystroem"
        and (len(y) <= EXACT_LIMIT["reg"] or s.approx == "exact")
    ):  # libsvm: SVM-light's dual, the intercept not regularised
        svr = SVR(kernel="linear", C=s.C, epsilon=s.epsilon).fit(Z, y)
        return _model(
            "reg", extractor, s, mean, scale, svr.coef_[0], float(svr.intercept_[0]), common
        )

    def linear_svr():
        return LinearSVR(
            C=s.C,
            epsilon=s.epsilon,
            loss=loss,
            dual=s.loss == "epsilon",
            max_iter=50000,
            random_state=s.seed,
            intercept_scaling=100.0,  # liblinear regularises the intercept: make that small
        )

    if s.kernel == "linear":
        lin = linear_svr().fit(Z, y)
        return _model("reg", extractor, s, mean, scale, lin.coef_, float(lin.intercept_[0]), common)
    L, M = _nystroem(Z, s.kernel, kp, s.components, s.seed)
    phi = kernel_matrix(Z, L, s.kernel, kp) @ M
    lin = linear_svr().fit(phi, y)
    return _model(
        "reg", extractor, s, mean, scale, [], float(lin.intercept_[0]), common, kp, L, M @ lin.coef_
    )


def fit_ranking(
    X_better: np.ndarray,
    X_worse: np.ndarray,
    extractor: FeatureExtractor,
    *,
    settings: SvmSettings | None = None,
    C: float | None = None,
    seed: int | None = None,
    info: dict[str, Any] | None = None,
) -> RoseModel:
    """ROSE-rank: a ranking SVM on better-minus-worse differences (no intercept; hinge loss by
    default); the score is the learned function of one translation's features.

    A kernel ranking SVM scores ``f(x) = sum_i a_i (K(x, b_i) - K(x, w_i))``: exactly, an
    ``SVC`` on the pair kernel ``K(b,b') - K(b,w') - K(w,b') + K(w,w')`` with each pair's
    orientation drawn at random (seeded; hinge is symmetric, so this is the pairs and their
    negations); approximately, the linear machine on ``phi(b) - phi(w)``.
    """
    from dataclasses import replace

    from sklearn.svm import SVC, LinearSVC

    s = settings or SvmSettings()
    s = replace(s, C=s.C if C is None else C, seed=s.seed if seed is None else seed)
    s = s.checked("rank")
    Xb, Xw = np.asarray(X_better, dtype=float), np.asarray(X_worse, dtype=float)
    if not len(Xb):
        raise UserInputError("ROSE-rank needs at least one preference pair")
    mean, scale = _scaler(np.vstack([Xb, Xw]))
    Zb, Zw = (Xb - mean) / scale, (Xw - mean) / scale
    kp = s.kernel_params(Zb.shape[1])
    exact = s.exact("rank", len(Zb))
    common = {"n_pairs": int(len(Zb)), **_settings_info(s, "rank", exact), **(info or {})}
    loss = "hinge" if s.loss == "hinge" else "squared_hinge"

    def linear_fit(D: np.ndarray) -> np.ndarray:
        Xd = np.vstack([D, -D])
        yd = np.r_[np.ones(len(D)), -np.ones(len(D))]
        svc = LinearSVC(
            C=s.C,
            loss=loss,
            fit_intercept=False,
            dual=s.loss == "hinge",
            max_iter=50000,
            random_state=s.seed,
        )
        return svc.fit(Xd, yd).coef_[0]

    if s.kernel == "linear":
        return _model("rank", extractor, s, mean, scale, linear_fit(Zb - Zw), 0.0, common)
    if exact:
        if len(Zb) < 2:
            raise UserInputError("an exact kernel ranking SVM needs at least two pairs")
        sign = np.where(np.random.default_rng(s.seed).random(len(Zb)) < 0.5, 1.0, -1.0)
        sign[:2] = [1.0, -1.0]  # both classes present
        K = kernel_matrix
        G = K(Zb, Zb, s.kernel, kp) - K(Zb, Zw, s.kernel, kp)
        G += -K(Zw, Zb, s.kernel, kp) + K(Zw, Zw, s.kernel, kp)
        G *= np.outer(sign, sign)  # the Gram matrix of the oriented differences
        svc = SVC(kernel="precomputed", C=s.C).fit(G, sign)
        # f(x) = sum_i dual_i <sign_i (phi(b_i) - phi(w_i)), phi(x)>; SVC's intercept only
        # shifts every score alike and is dropped (the ranking SVM has none)
        a = np.zeros(len(Zb))
        a[svc.support_] = svc.dual_coef_[0]
        a *= sign
        keep = np.flatnonzero(a)
        vectors = np.vstack([Zb[keep], Zw[keep]])
        coef = np.r_[a[keep], -a[keep]]
        return _model("rank", extractor, s, mean, scale, [], 0.0, common, kp, vectors, coef)
    L, M = _nystroem(np.vstack([Zb, Zw]), s.kernel, kp, s.components, s.seed)
    w = linear_fit((kernel_matrix(Zb, L, s.kernel, kp) - kernel_matrix(Zw, L, s.kernel, kp)) @ M)
    return _model("rank", extractor, s, mean, scale, [], 0.0, common, kp, L, M @ w)


def _model(
    kind,
    ex: FeatureExtractor,
    s: SvmSettings,
    mean,
    scale,
    w,
    b,
    info,
    kp=None,
    vectors=None,
    coef=None,
) -> RoseModel:
    return RoseModel(
        kind=kind,
        lang=ex.lang,
        pos=ex.pos,
        tokenize=ex.tokenize,
        lowercase=ex.lowercase,
        features=feature_names(ex.pos),
        mean=np.asarray(mean).tolist(),
        scale=np.asarray(scale).tolist(),
        weights=np.asarray(w, dtype=float).tolist(),
        bias=float(b),
        info=info,
        loss=str(s.loss),
        kernel=s.kernel,
        function_words=ex.function_words,
        kernel_params=dict(kp or {}),
        vectors=np.asarray(vectors if vectors is not None else [], dtype=float).tolist(),
        coef=np.asarray(coef if coef is not None else [], dtype=float).tolist(),
    )
