"""What the ledger takes from a game's data: the dice each kind of log entry rolls (counters/GAME/game.toml's
`[[roll]]` tables), so a game opened with its rules refuses any other dice."""

from __future__ import annotations

from functools import lru_cache

from wargame.bundled import data_root, game_dir
from wargame.datafiles import load_toml
from wargame.errors import WargameError
from wargame.models import GameManifest
from wargame.receipts import parse_purpose


class UnknownRules(WargameError):
    """No game data of that id, or data that do not load."""


@lru_cache(maxsize=64)
def dice_by_entry(rules: str) -> dict[str, frozenset[str]]:
    """The dice of each entry kind (`attack`, `bombard`, `roll`) of the game whose data are `rules`."""
    root = data_root()
    try:
        manifest = load_toml(game_dir(root, rules) / "game.toml", GameManifest)
    except WargameError as e:
        raise UnknownRules(f"rules {rules!r}: {e}") from None
    if not manifest.roll:
        raise UnknownRules(f"rules {rules!r}: its game.toml declares no [[roll]] (the dice of its rolls)")
    return manifest.dice_by_entry()


def dice_problem(rules: str, purpose: str, dice: str) -> str | None:
    """Why the game's rules do not roll these dice for this purpose, or None: the dice of the entry a
    structured purpose names, or of some roll of the game for a free-text purpose."""
    table = dice_by_entry(rules)
    named = parse_purpose(purpose)
    if named is not None:
        allowed = table.get(named.entry)
        if allowed is None:
            return f"the rules of {rules} roll no dice for {_an(named.entry)} entry (they roll for {', '.join(table)})"
        what = f"{_an(named.entry)} entry"
    else:
        allowed = frozenset().union(*table.values())
        what = "any roll"
    if dice not in allowed:
        return f"the rules of {rules} roll {' or '.join(sorted(allowed))} for {what}, not {dice}"
    return None


def _an(word: str) -> str:
    """A word quoted after its article ("an 'attack'", "a 'move'")."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word!r}"
