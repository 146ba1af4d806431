"""Statistical models the feature-ranked Limited ORANGE needs: an n-gram language model and
IBM Model 1."""
