"""VASSAL recordings written out as text logs: one file's translation, or a game's files as one log, each
with the reader's notes as comments (verdicts on them: adjudicator.verdict)."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.notation.entries import Comment, Entry
from adjudicator.notation.text import write_text
from adjudicator.vassal.chain import Chain
from adjudicator.vassal.translate import Note, Translation, one_line


def annotated(translation: Translation, notes: Sequence[Note] | None = None, file: str | None = None) -> list[Entry]:
    """The entries with the reader's notes (`notes`, else the translation's) as comments after the
    step they concern, naming `file` if given (a chain of logs)."""
    out = list(translation.entries)
    where = f"{file} " if file else ""
    for note in reversed(translation.notes if notes is None else notes):
        at = next((i for i, e in enumerate(out) if e.line > note.step), len(out))
        out.insert(at, Comment(line=note.step, text=one_line(
            f"reader's note ({where}step {note.step}): {note.message}", 1000)))
    return out


def converted_text(translation: Translation) -> str:
    """The translation as a text log for a person to read or correct."""
    return write_text(annotated(translation))


def chain_entries(chain: Chain) -> list[Entry]:
    """The whole chain as one log: each file's entries, its notes and how it joins the one before, as comments."""
    out: list[Entry] = []
    for part in chain.parts:
        if part.translation is None:
            out += part.entries
            continue
        entries = annotated(part.translation, part.notes, part.name)
        joins = [Comment(line=0, text=one_line(f"{part.name}: saved position: {f.severity} [{f.system} {f.rule}]: "
                                               f"{f.message}", 1000))
                 for f in chain.findings if chain.locate(f.line)[0] is part]
        at = next((i for i, e in enumerate(entries) if e.line > 0 or not e.is_comment), len(entries))
        out += [*entries[:at], *joins, *entries[at:]]
    return out


def chain_text(chain: Chain) -> str:
    """The chain as a text log for a person to read or correct."""
    return write_text(chain_entries(chain))
