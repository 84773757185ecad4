"""The ``dtc`` command line: a thin click layer over the library.

Exit codes are named in :class:`~dtc.cli.base.Exit`. Each command lives in its own module of this
package and is listed in :data:`~dtc.cli.base.COMMANDS`, imported only when it runs.
"""

from __future__ import annotations

from dtc.cli.base import COMMANDS, Exit, main, run

__all__ = ["COMMANDS", "Exit", "main", "run"]
