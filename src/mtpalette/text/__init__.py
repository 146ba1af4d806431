"""Text normalisation, tokenizers and the int encoding shared by every metric."""
