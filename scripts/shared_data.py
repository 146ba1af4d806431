"""Where the scripts find the shared data sets (not part of the package).

``$MTPALETTE_SHARED_DATA`` when set, else ``../shared/data`` next to the repository; never an
absolute path of one machine. ``bench/common.py`` finds it the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

#: the repository root (this file is scripts/shared_data.py)
REPO = Path(__file__).resolve().parents[1]


def shared_data() -> Path:
    """The shared data folder (it may be absent: callers skip with a message).

    Examples
    --------
    >>> shared_data().name == "data" or "MTPALETTE_SHARED_DATA" in os.environ
    True
    """
    env = os.environ.get("MTPALETTE_SHARED_DATA")
    return Path(env) if env else REPO.parent / "shared" / "data"
