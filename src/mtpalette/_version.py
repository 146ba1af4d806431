"""The package version, in a leaf module that every layer may import.

Kept apart from ``mtpalette/__init__.py`` (which re-exports the public API) so that modules
low in the house can name the version in signatures without importing the API back.
"""

__version__ = "0.1.0"
