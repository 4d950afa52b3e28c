"""The workbench of variant authors: sheet, lint, self-play and balance."""
