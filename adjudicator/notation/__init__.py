"""Move logs: the entries, the text notation and its JSON twin."""
