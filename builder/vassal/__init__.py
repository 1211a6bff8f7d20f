"""VASSAL 3.7 module export: piece encoding, buildFile, saved games and the .vmod archive."""
