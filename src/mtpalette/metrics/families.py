"""Import every built-in metric family so that each registers its spec name."""

from mtpalette.metrics import (  # noqa: F401
    blanc,
    bleu,
    chrf,
    edit,
    gtm,
    length,
    nist,
    plugin,
    rose,
    rouge,
    rouge_lsum,
    synonym,
    ter,
)
