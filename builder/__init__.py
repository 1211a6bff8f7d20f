"""Umpire's builder: renders game art and exports VASSAL modules (imports wargame only)."""
