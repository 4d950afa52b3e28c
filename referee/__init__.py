"""referee: a rules-as-data interpreter and referee for the fishing card games."""
