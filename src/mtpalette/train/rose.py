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

from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics.rose_features import feature_names
from mtpalette.metrics.rose_model import (
    KERNELS,
    LOSSES,
    FeatureExtractor,
    RoseModel,
    kernel_matrix,
)

#: the most training rows (regression) or pairs (ranking) fitted with an exact kernel machine
EXACT_LIMIT = {"reg": 8000, "rank": 3000}
APPROX = ("auto", "exact", "nystroem")


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
        self._check_read(kind)
        if self.kernel != "linear" and self.approx == "exact" and loss == "squared":
            raise UserInputError(
                "an exact kernel machine has no squared loss (libsvm): use --approx nystroem"
            )
        return replace(self, loss=loss, epsilon=float(eps))

    def _check_read(self, kind: str) -> None:
        """Refuse a setting the fit would not read (it was dropped without a word): a
        ranking's epsilon (the regression tube), a linear kernel's gamma, a degree other
        than the default off the poly kernel."""
        if kind == "rank" and self.epsilon:  # None, or 0.0 once checked: not given
            raise UserInputError("--epsilon is the regression tube of ROSE-reg; ROSE-rank "
                                 "does not read it")  # fmt: skip
        if self.kernel == "linear" and self.gamma is not None:
            raise UserInputError("--gamma is a parameter of --kernel poly and rbf, not linear")
        default_degree = type(self).__dataclass_fields__["degree"].default  # declared once
        if self.kernel != "poly" and self.degree != default_degree:
            raise UserInputError(f"--degree is a parameter of --kernel poly, not {self.kernel}")

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


def _checked(settings: SvmSettings | None, kind: str) -> SvmSettings:
    """``settings`` (default :class:`SvmSettings`) checked for ROSE-``kind``."""
    return (settings or SvmSettings()).checked(kind)


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
    elif kind == "reg":
        info["solver"] = "libsvm" if s.loss == "epsilon" and s.approx == "exact" else "liblinear"
    return info


def fit_regression(
    X: np.ndarray,
    y: np.ndarray,
    extractor: FeatureExtractor,
    settings: SvmSettings | None = None,
    info: dict[str, Any] | None = None,
) -> RoseModel:
    """ROSE-reg: support vector regression of the human scores on the standardised features
    (the paper's epsilon-insensitive SVR by default; see :class:`SvmSettings`).

    The targets are standardised too (mean 0, standard deviation 1 on the training data), so
    that ``epsilon`` and ``C`` mean the same on DA z-scores, MQM penalties in tens of points
    and WMT12 win rates; the fitted function is scaled back (weights, coefficients and bias
    times the standard deviation, plus the mean), so the model scores on the human scale.
    The model's ``info["targets"]`` records this and the two numbers.
    """
    s = _checked(settings, "reg")
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    if len(y) < 2 or np.ptp(y) == 0:
        raise UserInputError("ROSE-reg needs at least two different human scores")
    y_mean, y_sd = float(y.mean()), float(y.std())
    targets = {"standardised": True, "mean": y_mean, "sd": y_sd}
    model = _fit_standardised(
        X, (y - y_mean) / y_sd, extractor, s, {"targets": targets, **(info or {})}
    )
    model.weights = [w * y_sd for w in model.weights]
    model.coef = [c * y_sd for c in model.coef]
    model.bias = model.bias * y_sd + y_mean
    return model


def _fit_standardised(
    X: np.ndarray, y: np.ndarray, extractor: FeatureExtractor, s: SvmSettings, info: dict
) -> RoseModel:
    """:func:`fit_regression` on standardised targets ``y``."""
    from sklearn.svm import SVR, LinearSVR

    mean, scale = _scaler(X)
    Z = (X - mean) / scale
    kp = s.kernel_params(Z.shape[1])
    exact = s.exact("reg", len(y))
    loss = "epsilon_insensitive" if s.loss == "epsilon" else "squared_epsilon_insensitive"
    extra = _settings_info(s, "reg", exact)
    common = {"n_train": int(len(y)), **extra, **info}
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
    if s.kernel == "linear" and s.loss == "epsilon" and s.approx == "exact":
        # libsvm: SVM-light's dual, the intercept not regularised; its iterations grow fast
        # with C (43 s at C = 1 on 6,877 MQM rows, against 3 s for liblinear below)
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
            # liblinear regularises the intercept like a weight; on standardised targets it
            # is small (the solution's correlation with libsvm's unregularised one: 0.999 on
            # the bundled MQM zh-en rows), and a larger scaling costs 5-50x the iterations
            intercept_scaling=1.0,
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
    settings: SvmSettings | None = None,
    info: dict[str, Any] | None = None,
) -> RoseModel:
    """ROSE-rank: a ranking SVM on better-minus-worse differences (no intercept; hinge loss by
    default); the score is the learned function of one translation's features.

    A kernel ranking SVM scores ``f(x) = sum_i a_i (K(x, b_i) - K(x, w_i))``: exactly, an
    ``SVC`` on the pair kernel ``K(b,b') - K(b,w') - K(w,b') + K(w,w')`` with each pair's
    orientation drawn at random (seeded; hinge is symmetric, so this is the pairs and their
    negations); approximately, the linear machine on ``phi(b) - phi(w)``.
    """
    from sklearn.svm import SVC, LinearSVC

    s = _checked(settings, "rank")
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
