"""The live table: a game refereed one typed line at a time."""
