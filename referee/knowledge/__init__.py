"""Hidden cards: what the events prove of them, and the solvers behind it."""
