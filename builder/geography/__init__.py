"""Authoring tool: derive a hex map from real geography (run on demand, never by build or tests).

`extract` reads the large public data packages (Natural Earth, GSHHG, GeoNames) once and
writes small clipped extracts into `maps/GAME/geodata/`; `derive` lays the game's hex grid
over those extracts and the hand-authored layers of `maps/GAME/geography.toml`, and writes
the map's data files.
"""
