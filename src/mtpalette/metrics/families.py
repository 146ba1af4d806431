"""Import every built-in metric family so that each registers its spec name."""

from mtpalette.metrics import blanc, bleu, chrf, edit, gtm, nist, plugin, rouge, ter  # noqa: F401
