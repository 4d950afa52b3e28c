"""``python -m referee``."""

from referee.entry import main

main()
