"""``python -m referee``."""

from referee.cli.entry import main

main()
