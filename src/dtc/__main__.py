from dtc.cli import main

main()
