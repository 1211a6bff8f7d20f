"""VASSAL logs and saved games of our modules translated into the log notation (issue 8)."""
