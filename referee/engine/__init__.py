"""The engine: a GameSpec's moves, state and turn flow; every rule enforced."""
