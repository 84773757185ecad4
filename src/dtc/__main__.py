from dtc.cli import run

run()
