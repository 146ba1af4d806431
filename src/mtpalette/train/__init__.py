"""Fitting trainable metrics: BLANC by hill-climbing (against human judgments or ORANGE)."""
