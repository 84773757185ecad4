"""``python -m dtc``: the ``dtc`` command (Ctrl-C before the command starts ends it at once, as there)."""

from dtc.cli import stop_early

stop_early()

from dtc.cli import main  # noqa: E402 - after Ctrl-C is taken care of: this import takes a tenth of a second

# Not run(): under `python -m` (profilers, coverage) the process ends normally, so they report.
main()
