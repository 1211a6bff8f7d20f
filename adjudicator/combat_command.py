"""`adjudicate combat`: disputed combats audited, the log's claims against the computation (docs/disputes.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from adjudicator.exits import could_not_run, leave
from adjudicator.options import DATA, GivenPath, logs_with_stdin, parse_at
from wargame.exit_status import ExitStatus

# What the command runs is imported inside it: `adjudicate combat --help` imports only the options
# (tests/test_cli_startup.py).
if TYPE_CHECKING:
    from adjudicator.contract import StateT
    from adjudicator.engine import Replay
    from wargame.game import Game


def _refuse_odd_sides(game: Game, attackers: list[str], defenders: list[str]) -> None:
    """A combat's units: each known and given once."""
    from wargame.errors import WargameError
    for unit in (*attackers, *defenders):
        if unit not in game.units_by_id:
            raise WargameError(game.unknown_unit(unit))
    # A unit on both sides is the dispute's own refusal (impossible_what_if), with its reason.
    twice = sorted({u for units in (attackers, defenders) for u in units if units.count(u) > 1})
    if twice:
        raise WargameError(f"{', '.join(twice)} given more than once: a unit attacks or defends, once")
    # The sides of the units are the dispute's own check (adjudicator.dispute.impossible_what_if).


def _off_the_map(result: Replay[StateT], index: int) -> str | None:
    """`LINE: why` when a unit the combat at `index` names is not on the map then (not arrived, in a box):
    the log's breach for `check` (a finding), but a combat with no place to compute."""
    entry = result.entries[index]
    game = result.game
    places = {u: at.place for u, at in result.system.position(result.states[index]).units.items()}
    for unit in (*getattr(entry, "attackers", ()), *getattr(entry, "support", ())):
        if unit in game.units_by_id and not game.grid.is_label(places.get(unit, "")):
            where = places.get(unit)
            return (f"{entry.line}: {unit} is not on the map {'(in ' + where + ')' if where else ''} at the combat: "
                    "it cannot be audited (`check` gives the breach)").replace("map  at", "map at")
    return None


def _stopped_before(result: Replay[StateT]) -> str | None:
    """`the replay stops: FILE:LINE:COL: why`, or None when the replay reached the end."""
    return None if result.stopped is None else f"the replay stops: {result.stopped}"


@click.command(short_help="Audit disputed combats: the claims against the computation, odds, results, retreats.")
@click.argument("logs", metavar="[LOG...]", nargs=-1, type=GivenPath(path_type=Path, exists=True, allow_dash=True),
                callback=logs_with_stdin)
@click.option("--at", "at_line", metavar="[LOG:]LINE", callback=parse_at, default=None,
              help="The line of the attack or bombardment (with several logs or a game's folder, LOG:LINE); "
                   "default: a list of every one and whether its claims hold.")
@click.option("--game", "game_id", default=None, help="Without a log: the game.")
@click.option("--attack", "attack_units", multiple=True, help="Without a log: an attacker, UNIT@HEX (repeat).")
@click.option("--defend", "defend_units", multiple=True, help="Without a log: a defender, UNIT@HEX (repeat).")
@click.option("--die", type=click.IntRange(1, 6), default=None,
              help="The die roll; with a log and --at, what the result would have been with this die.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True,
              help="text: for a person; json: for tools; markdown: a forum post.")
@DATA
def combat(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, game_id: str | None,
           attack_units: tuple[str, ...], defend_units: tuple[str, ...], die: int | None, fmt: str,
           data: Path | None) -> None:
    """Audit a disputed combat: odds or differential with the arithmetic, every modifier and why, the table's
    column as printed and the result; the log's claims against it; the chance of each result; the retreat
    and advance it opens. Without --at, every combat and bombardment of the log (or of a game's exchanges),
    each with whether its claims hold. Exit 0 the claims hold, 1 they do not, 2 could not run (an impossible
    what-if included)."""
    from adjudicator.dispute import (Audited, CombatReport, claim_differences, impossible_what_if, no_combat,
                                     render)
    from adjudicator.systems import system_for
    from wargame.game import load_game
    from adjudicator.notation.entries import Attack
    from adjudicator.sources import chain_line, expand_logs, open_logs
    from wargame.bundled import data_root
    from wargame.errors import WargameError

    with could_not_run():
        if logs:
            if attack_units or defend_units or game_id is not None:
                raise WargameError("with a log, the combat is the log's (--at LINE); --game, --attack and --defend "
                                   "set up a combat without a log")
            if die is not None and at_line is None:
                raise WargameError("--die asks what a combat's result would have been with another die: name the "
                                   "combat with --at LINE")
            logs = expand_logs(logs)
            if len(logs) == 1 and at_line is not None and at_line[0] is not None:
                raise WargameError(f"--at {at_line[0]}:{at_line[1]}: one log is given; give --at {at_line[1]}")
            source = open_logs(logs, data)
            result = source.replay()
            wanted = None if at_line is None else (at_line[1] if source.chain is None
                                                   else chain_line(source.chain, *at_line))
            where, cited = source.locate, source.cited
            auditor = result.system.auditor
            if auditor is None:
                raise WargameError(f"combat audits are not available for the {result.system.name} rule system yet")
            every = [i for i, e in enumerate(result.entries) if e.as_combat() is not None]
            # The entry the replay stopped at (an unknown unit, a hex off the map) and those after it have no
            # position to audit them in: `check` says why the replay stopped, exit 2, and so does this.
            combats = [i for i in every if i < min(result.applied, len(result.states))]
            stop = _stopped_before(result)
            if wanted is not None:
                chosen_ones = [i for i in combats if result.entries[i].line == wanted]
                if not chosen_ones and stop and any(result.entries[i].line == wanted for i in every):
                    raise WargameError(f"{stop}: the combat on line {where(wanted)[1]} cannot be audited")
                if not chosen_ones:
                    file, local = where(wanted)
                    raise no_combat(local, file, [where(result.entries[i].line)[1] for i in combats
                                                  if where(result.entries[i].line)[0] == file])
                combats = chosen_ones[:1]
            if not combats:
                raise WargameError(f"{stop}: no combat before it to audit" if stop and every
                                   else f"no attack or bombardment in {' '.join(map(str, logs))}")
            audits = []
            off_map = [(i, why) for i in combats if (why := _off_the_map(result, i)) is not None]
            if off_map and wanted is not None:
                raise WargameError(f"{where(result.entries[off_map[0][0]].line)[0]}:{off_map[0][1]}")
            for i, why in off_map:
                click.echo(f"{where(result.entries[i].line)[0]}:{why}", err=True)
            combats = [i for i in combats if i not in dict(off_map)]
            if off_map and not combats:
                leave(ExitStatus.COULD_NOT_RUN)
            for i in combats:
                entry = result.entries[i].as_combat()
                assert entry is not None
                state = result.states[i]
                account = auditor.account(state, entry)
                findings = tuple(cited(f) for f in result.findings if f.line == entry.line and f.system != "ledger")
                file, local = where(entry.line)
                if die is not None:
                    asked = auditor.account(state, replace(entry, die=die))
                    audits.append(Audited(file, local, entry, asked, (), findings, die, account.result))
                else:
                    audits.append(Audited(file, local, entry, account, tuple(claim_differences(entry, account)),
                                          findings))
            name = " ".join(map(str, logs))
            unaudited = (f"{stop}: the combats from there on are not audited"
                         if stop and len(combats) + len(off_map) < len(every) else None)
            if off_map and unaudited is None:
                unaudited = f"{len(off_map)} combat(s) with a unit off the map are not audited"
        else:
            unaudited = None
            if game_id is None or not attack_units or not defend_units:
                raise WargameError("without a log, give --game, --attack UNIT@HEX and --defend UNIT@HEX")
            game = load_game(data_root(data), game_id)
            system = system_for(game)
            _refuse_odd_sides(game, [a.partition("@")[0] for a in attack_units],
                              [d.partition("@")[0] for d in defend_units])
            if system.auditor is None:
                raise WargameError(f"combat audits are not available for the {system.name} rule system yet")

            def placed_of(specs: tuple[str, ...]) -> dict[str, str]:
                out: dict[str, str] = {}
                for spec in specs:
                    unit, _, hex_label = spec.partition("@")
                    if unit not in game.units_by_id:
                        raise WargameError(game.unknown_unit(unit))
                    if not hex_label:
                        raise WargameError(f"{spec}: give the unit's hex, UNIT@HEX")
                    game.grid.hex_of(hex_label)
                    out[unit] = hex_label
                return out

            attackers, defenders = placed_of(attack_units), placed_of(defend_units)
            why = impossible_what_if(game, attackers, defenders)
            if why is not None:
                raise WargameError(f"this combat cannot happen: {why}")
            state = system.auditor.with_units(system.initial_state(game, []), {**attackers, **defenders})
            target = next(iter(defenders.values()))
            side = game.units_by_id[next(iter(attackers))].side
            attack = Attack(hex=target, attackers=list(attackers), die=die, side=side)
            audits = [Audited("what-if", 0, attack, system.auditor.account(state, attack), (), ())]
            name = "what-if"
        text = render(CombatReport(name, tuple(audits), at_line is not None or not logs), fmt)
    click.echo(text, nl=False)
    if unaudited is not None:
        click.echo(unaudited, err=True)
        leave(ExitStatus.COULD_NOT_RUN)
    # A what-if is a question, not a claim.
    leave(ExitStatus.CLEAN if all(a.holds or a.what_if is not None for a in audits) else ExitStatus.BREACHES)
