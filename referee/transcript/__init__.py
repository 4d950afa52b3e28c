"""Transcripts: read, resolved to moves, refereed event by event, written."""
