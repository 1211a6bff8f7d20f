"""Umpire's adjudicator: replays play-by-email logs and checks them against the rules."""
