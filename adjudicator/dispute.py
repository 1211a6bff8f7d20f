"""`adjudicate combat`: a disputed combat or bombardment, its claims against the computation (docs/disputes.md).

One way out (house style 20), as for a verdict: the audits make one document (`CombatReport`: every combat of a log,
or one combat's whole account), and a renderer per format writes it: text for people, JSON for tools, Markdown for
a forum post, with the pieces every report shares (`adjudicator.rendering`, `adjudicator.markdown_escape`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from adjudicator.contract import CombatAccount
from adjudicator.findings import Finding
from adjudicator.markdown_escape import text as md_text
from adjudicator.rendering import json_document, markdown_table
from adjudicator.notation.entries import Attack, Bombard
from wargame.errors import WargameError
from wargame.game import Game
from wargame.records import frozen


@frozen
class Audited:
    """One combat of a log (or a what-if) with its account, how its claims differ, and the referee's findings."""

    file: str
    line: int
    """The entry's line in its file (0: a what-if without a log)."""
    entry: Attack | Bombard
    account: CombatAccount
    differences: tuple[str, ...]
    findings: tuple[Finding, ...]
    what_if: int | None = None
    """The die asked about (`--die`), in place of the log's."""
    logged_result: str | None = None
    """With a what-if: the result of the log's own die."""

    @property
    def holds(self) -> bool:
        """True when the log's claims are the computation's and no rule is broken on the line."""
        return not self.differences and not any(f.severity == "error" for f in self.findings)

    @property
    def headline(self) -> str:
        """What the combat is and what the log claims: `attack on 0319 by a b (odds 3:1, die 5, result DR)`."""
        return _headline(self)

    @property
    def verdict(self) -> str:
        """`claims hold`, or what differs and how many rules are broken on the line."""
        return _verdict(self)


@frozen
class CombatReport:
    """What `adjudicate combat` reports, for every format alike: a log's combats, or one combat's whole account."""

    file: str
    """The logs given (`what-if` for a combat set up by hand)."""
    audits: tuple[Audited, ...]
    one: bool
    """One combat's whole account (`--at`, a what-if) rather than the list."""


def _differential(text: str) -> int | None:
    body = text.lstrip("+")
    return int(text) if body.lstrip("-").isdigit() else None


def claim_differences(entry: Attack | Bombard, account: CombatAccount) -> list[str]:
    """Each claim of the entry (odds or differential, result) that is not the computation's, named."""
    out = []
    if entry.odds is not None:
        differs = entry.odds != account.odds if ":" in account.odds else \
            _differential(entry.odds) != _differential(account.odds)
        if differs:
            what = "odds" if ":" in account.odds else "differential"
            out.append(f"{what}: the log claims {entry.odds}, the computation gives {account.odds}")
    if entry.die is not None and not 1 <= entry.die <= 6:
        out.append(f"die: the log claims {entry.die}, but a die roll is 1 to 6")
    elif entry.result is not None and account.result is not None and entry.result not in (account.result,
                                                                                          account.effect):
        out.append(f"result: the log claims {entry.result}, but die {entry.die} on column {account.column} gives "
                   f"{account.result}")
    return out


def impossible_what_if(game: Game, attackers: Mapping[str, str], defenders: Mapping[str, str]) -> str | None:
    """Why an attack set up by hand cannot happen (units on both sides, one side against itself, defenders
    apart, attackers not adjacent), or None."""
    both = sorted(set(attackers) & set(defenders))
    if both:
        return f"{', '.join(both)} cannot attack and defend in the same combat"
    sides = {game.units_by_id[u].side for u in attackers}
    defending = {game.units_by_id[u].side for u in defenders}
    if len(sides) > 1:
        return f"the attackers are of {' and '.join(sorted(sides))}: one side attacks"
    if sides & defending:
        side = next(iter(sides & defending))
        return f"attackers and defenders are all {side}: a side attacks the enemy's units, not its own"
    hexes = sorted(set(defenders.values()))
    if len(hexes) > 1:
        return f"the defenders stand in {', '.join(hexes)}: an attack is on one hex"
    target = game.grid.hex_of(hexes[0])
    for unit, where in attackers.items():
        if not game.grid.hex_of(where).is_adjacent(target):
            return f"{unit} at {where} is not adjacent to {hexes[0]}: attackers are next to the hex they attack"
    return None


def _fraction(p: float, faces: int) -> str:
    return f"{round(p * faces)}/{faces} ({p:.0%})"


def _headline(audited: Audited) -> str:
    """What the combat is and what the log claims."""
    entry = audited.entry
    attack = entry.as_attack()
    what = (f"attack on {'+'.join(attack.defending_hexes())} by {' '.join(attack.attackers)}" if attack is not None
            else f"bombardment of {entry.hex} with {' '.join(entry.support)}")
    claims = [f"{'odds' if entry.odds and ':' in entry.odds else 'diff'} {entry.odds}" if entry.odds else "",
              f"die {entry.die}" if entry.die is not None else "", f"result {entry.result}" if entry.result else ""]
    said = ", ".join(c for c in claims if c)
    return f"{what}" + (f" ({said})" if said else "")


def _verdict(audited: Audited) -> str:
    """`claims hold`, or what differs and how many rules are broken on the line."""
    if audited.holds:
        return "claims hold"
    errors = sum(1 for f in audited.findings if f.severity == "error")
    parts = list(audited.differences) + ([f"{errors} rule breach(es) on this line"] if errors else [])
    return "claims do not hold: " + "; ".join(parts)


def as_dict(audited: Audited) -> dict[str, object]:
    """The JSON form of one audit (docs/disputes.md)."""
    a = audited.account
    entry = audited.entry
    return {"file": audited.file, "line": audited.line, "kind": a.kind, "hex": a.hex, "attackers": list(a.attackers),
            "defenders": list(a.defenders),
            "claimed": {"odds": entry.odds, "die": entry.die, "result": entry.result},
            "computed": {"odds": a.odds, "column": a.column, "die": a.die, "result": a.result, "effect": a.effect},
            "holds": audited.holds, "differences": list(audited.differences),
            "findings": [f.as_dict() for f in audited.findings], "arithmetic": list(a.arithmetic),
            "by_die": {str(d): r for d, r in a.by_die}, "probabilities": a.probabilities(),
            "retreats": list(a.retreats), "advances": list(a.advances), "shifts": list(a.shifts),
            "what_if_die": audited.what_if, "logged_result": audited.logged_result}


def _text_list(report: CombatReport) -> str:
    """One line a combat: where, what, and whether its claims hold."""
    audits = report.audits
    lines = [f"{a.file}:{a.line}: {a.headline}: {a.verdict}" for a in audits]
    held = sum(1 for a in audits if a.holds)
    lines.append(f"{len(audits)} combat(s) and bombardment(s): {held} hold, {len(audits) - held} do not")
    return "\n".join(lines) + "\n"


def _text_one(audited: Audited) -> str:
    """The whole account of one combat for a person."""
    a = audited.account
    faces = len(a.by_die)
    where = f"{audited.file}:{audited.line}" if audited.line else audited.file
    lines = [f"{where}: {audited.headline}", "  computation:"]
    lines += [f"    {line}" for line in a.arithmetic]
    if audited.what_if is not None:
        lines.append(f"  what if the die had been {audited.what_if}: {a.result} (the log's die "
                     f"{audited.entry.die} gives {audited.logged_result})")
    elif audited.line:
        lines.append("  claims: " + ("the log's odds, die and result are the computation's" if not audited.differences
                                     else ""))
        lines += [f"    {d}" for d in audited.differences]
    for f in audited.findings:
        lines.append(f"  {f.severity} [{f.system} {f.rule}]: {f.message}")
    lines.append("  each face of the die: " + ", ".join(f"{d}: {r}" for d, r in a.by_die))
    lines.append("  chance of each result: " + ", ".join(f"{r} {_fraction(p, faces)}"
                                                         for r, p in a.probabilities().items()))
    lines += [f"  {line}" for line in (*a.shifts, *a.retreats, *a.advances)]
    if audited.line:
        lines.append(f"verdict: {audited.verdict}" if audited.what_if is None else "verdict: a what-if, not the log")
    return "\n".join(lines) + "\n"


def render_text(report: CombatReport) -> str:
    """For a person: a line a combat and the count, or one combat's whole account."""
    return _text_one(report.audits[0]) if report.one else _text_list(report)


def render_json(report: CombatReport) -> str:
    """For tools (docs/disputes.md): one combat's audit, or the file and every combat's."""
    return json_document(as_dict(report.audits[0]) if report.one
                         else {"file": report.file, "combats": [as_dict(a) for a in report.audits]})


def render_markdown(report: CombatReport) -> str:
    """For a forum post: a table of every combat, or one combat's whole account (every word a log gave made
    inert)."""
    t = md_text
    if not report.one:
        rows = markdown_table(["file", "line", "combat", "verdict"],
                              [(t(a.file), a.line, t(a.headline), t(a.verdict)) for a in report.audits])
        return f"# Combats of {t(report.file)}\n\n" + "\n".join(rows) + "\n"
    audited = report.audits[0]
    a = audited.account
    out = [f"# {t(audited.headline)}", "", f"{t(audited.file)}, line {audited.line}", "", "## Computation", ""]
    out += [f"- {t(line, line_start=True)}" for line in a.arithmetic]
    out += ["", "## Claims", ""]
    if audited.what_if is not None:
        out.append(f"- what if the die had been {audited.what_if}: **{t(a.result)}** (the log's die "
                   f"{audited.entry.die} gives {t(audited.logged_result)})")
    out += [f"- {t(d, line_start=True)}" for d in audited.differences] or ([] if audited.what_if is not None else
                                                          ["- the log's odds, die and result are the computation's"])
    out += [f"- {f.severity} [{t(f.system)} {t(f.rule)}]: {t(f.message)}" for f in audited.findings]
    out += ["", "## Each face of the die", "", *markdown_table(["die", "result"], [(d, t(r)) for d, r in a.by_die])]
    out += ["", *markdown_table(["result", "chance"], [(t(r), _fraction(p, len(a.by_die)))
                                                       for r, p in a.probabilities().items()])]
    out += ["", "## Retreat, advance and the columns around it", ""]
    out += [f"- {t(line, line_start=True)}" for line in (*a.shifts, *a.retreats, *a.advances)]
    out += ["", f"**Verdict**: {t(audited.verdict) if audited.what_if is None else 'a what-if, not the log'}"]
    return "\n".join(out) + "\n"


RENDERERS: Mapping[str, Callable[[CombatReport], str]] = {
    "text": render_text, "json": render_json, "markdown": render_markdown}
"""The renderer of each format `adjudicate combat --format` offers."""


def render(report: CombatReport, fmt: str) -> str:
    """The report in a format: `text`, `json` or `markdown`."""
    return RENDERERS[fmt](report)


def no_combat(line: int, file: str, lines: Sequence[int]) -> WargameError:
    """`--at` on a line without a combat: the lines that have one."""
    listed = ", ".join(map(str, lines[:20])) + (", ..." if len(lines) > 20 else "")
    return WargameError(f"no attack or bombardment on line {line} of {file}"
                        + (f"; the combats are on lines {listed}" if lines else "; the log has none"))
