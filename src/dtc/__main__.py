from dtc.cli import main

# Not run(): under `python -m` (profilers, coverage) the process ends normally, so they report.
main()
