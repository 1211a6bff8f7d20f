"""VASSAL 3.7 file formats shared by the builder (writing) and the adjudicator (reading)."""
