"""The classic series' leftovers of session 22, on Battle for Moscow: one mistake, one error (a unit eliminated
against the result and then retreated or advanced as the result wanted)."""

from __future__ import annotations

from pathlib import Path

from classic_support import line_of, run, upto, verdict

DR = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n"
"""21 against so-30's 4 at 0302: 5:1, a 1 is DR (8.1: the German player retreats so-30 two hexes)."""


def messages(tmp_path: Path, log: str, severity: str) -> list[str]:
    """The messages of a log's findings of one severity."""
    return [f.message for f in run(tmp_path, log).findings if f.severity == severity]


def test_a_defender_eliminated_against_a_retreat_and_retreated_is_one_error(tmp_path: Path) -> None:
    """8.1 (rulings register): so-30 eliminated on a DR (it could retreat) is one error, at the loss; the retreat the
    players then write is the result carried out, from 0302 (a note; it was a second error, 'so-30 is in
    soviet_eliminated, not 0302'), and so-30 stands at its end. A retreat that breaks a rule of its own is its own
    error."""
    log = DR + "Soviet> eliminate so-30\nGerman: retreat so-30 0302-0402-0502\nGerman: advance ge-xli 0201-0302\n" \
        "Phase german_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, "eliminate"), "error", "8.1")]
    assert messages(tmp_path, log, "note") == ["so-30 was eliminated on line 7 against the result (its one error "
                                               "there); its retreat is read from 0302, where the result found it"]
    final = run(tmp_path, log).final_state
    assert (final.location["so-30"], final.location["ge-xli"]) == ("0502", "0302")
    short = DR + "Soviet> eliminate so-30\nGerman: retreat so-30 0302-0402\nPhase german_movement\n"
    assert verdict(tmp_path, short) == [(line_of(short, "eliminate"), "error", "8.1"),
                                        (line_of(short, "retreat"), "error", "8.1")]


def test_an_attacker_eliminated_past_an_exchange_and_advanced_is_one_error(tmp_path: Path) -> None:
    """8.0 (rulings register): on the EX at 0510, ge-xxiv eliminated (one step of it pays the 4 points owed) is one
    error; its advance after is read from 0410 (a note; it was a second error, 8.2), and it stands in 0510 on its
    reduced face, the face the exchange leaves it, so the game goes on without a cascade."""
    log = upto(1, "german_combat") + "German: attack 0510 with ge-xxiv ge-liii odds 3:1 die 4 result EX\n" \
        "Soviet> eliminate so-13\nGerman: eliminate ge-xxiv\nGerman: advance ge-xxiv 0410-0510\nPhase german_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, "eliminate ge-xxiv"), "error", "8.0")]
    assert messages(tmp_path, log, "note") == ["ge-xxiv was eliminated on line 8 against the result (its one error "
                                               "there); its advance is read from 0410, where the result found it"]
    final = run(tmp_path, log).final_state
    assert final.location["ge-xxiv"] == "0510" and "ge-xxiv" in final.reduced


SAMPLE = (Path(__file__).resolve().parent.parent / "examples" / "moscow" / "legal-sample-game.log").read_text(
    encoding="utf-8")
"""The bundled legal sample game (turns 1-4), which the harness of session 23 edited a line at a time."""


def edited(old: str, new: str) -> str:
    """The sample game with one line changed (written twice, or left out)."""
    assert SAMPLE.count(old) == 1, old
    return SAMPLE.replace(old, new)


def test_an_attack_written_twice_is_one_error(tmp_path: Path) -> None:
    """7.0: the attack on 0405 written twice is one error, at the second (a unit attacks once); the DRL before it is
    still the one carried out after it (it was a second error, 'so-20 still owes 1 step loss(es)')."""
    line = "German: attack 0405 with ge-xl ge-xlvi odds 3:1 die 6 result DRL\n"
    log = edited(line, line * 2)
    assert verdict(tmp_path, log) == [(line_of(log, "attack 0405") + 1, "error", "7.0")]


def test_a_loss_left_out_before_the_advance_is_one_error(tmp_path: Path) -> None:
    """8.2 / 8.0: so-20's elimination on the DRL at 0405 left out, ge-xlvi's advance into 0405 is one error; the loss
    still owed is a note naming the advance, and so-20 is in the eliminated box from then on, where the table puts it
    (its rebuilding on line 62 and its move on 75 were errors, four in all)."""
    log = edited("Soviet> eliminate so-20\n", "")
    assert verdict(tmp_path, log) == [(line_of(log, "advance ge-xlvi 0406-0405"), "error", "8.2")]
    assert "so-20 still owes 1 step loss(es) from the DRL on 0405 (line 31) (not a breach of its own: the advance on " \
        "line 33 went into 0405 before it)" in messages(tmp_path, log, "note")


def test_an_elimination_left_out_is_one_error(tmp_path: Path) -> None:
    """8.0: so-3's elimination on the DRL at 0509 never written is one error as the log moves on; so-3 is then in the
    eliminated box, so its rebuilding is lawful (it was a second error, 11.0)."""
    log = (Path(__file__).resolve().parent.parent / "examples" / "moscow" /
           "legal-replace-empty-city-in-zoc.log").read_text(encoding="utf-8").replace("Soviet> eliminate so-3\n", "")
    assert verdict(tmp_path, log) == [(line_of(log, "Phase german_movement"), "error", "8.0")]


def test_results_of_an_attack_left_out_are_one_error(tmp_path: Path) -> None:
    """8.0-8.2 (rulings register, as Onslaught's 7.2): the attack on 0404 (line 82) left out, the loss, the attacker's
    loss, the retreat and the advance written for it have no combat to carry out: the first is one error, the others
    notes of it (it was four errors); the next attack ends that."""
    log = edited("Soviet: attack 0404 with so-24 so-43 so-16 odds 1:1 die 2 result EX\n", "")
    assert verdict(tmp_path, log) == [(line_of(log, "German> deplete ge-ix"), "error", "8.0")]
    notes = messages(tmp_path, log, "note")
    assert len([n for n in notes if "the result carried out on line 82 had no combat either" in n]) == 3, notes
    two = edited("German: attack 0405 with ge-xl ge-xlvi odds 3:1 die 6 result DRL\n", "").replace(
        "German: attack 0510 with ge-xxiv ge-liii odds 3:1 die 4 result EX\n", "")
    assert verdict(tmp_path, two) == [(line_of(two, "Soviet> eliminate so-20"), "error", "8.0"),
                                      (line_of(two, "Soviet> eliminate so-13"), "error", "8.0")]


def test_a_step_loss_left_out_is_one_error(tmp_path: Path) -> None:
    """8.0: ge-ix's step on the EX at 0404 never written is one error as the log moves on; ge-ix is then on its reduced
    face, as the table leaves it, so its restoring on turn 3 is lawful (it was a second error, 11.0 'at full strength
    already')."""
    log = edited("German> deplete ge-ix\n", "")
    assert verdict(tmp_path, log) == [(line_of(log, "Phase soviet_movement"), "error", "8.0")]


def test_a_unit_found_where_its_unwritten_retreat_could_end_is_read_as_retreated(tmp_path: Path) -> None:
    """8.1 / house style 16 (rulings register): so-50's retreat after the DR on 0508 never written is one error as the
    log moves on; its move from 0708 on line 91, the end of a retreat it could lawfully have made, reads the retreat as
    made there (a note; it was a second error, 'so-50 is in 0508, not 0708'). Found anywhere else it is still judged
    as it stands."""
    log = edited("German: retreat so-50 0508-0608-0708\n", "")
    assert verdict(tmp_path, log) == [(line_of(log, "attack 0510"), "error", "8.1")]
    assert any("read as made to 0708, where this entry finds it" in n for n in messages(tmp_path, log, "note"))
    elsewhere = log.replace("so-50 0708-0707-0806-0805", "so-50 0808-0807")
    assert (line_of(elsewhere, "so-50 0808-"), "error", "4.0") in verdict(tmp_path, elsewhere)


def test_an_attack_written_after_its_results_is_one_error(tmp_path: Path) -> None:
    """8.0 (rulings register): the attack on 0510 written after so-13's elimination is one error, at the loss (no
    combat to carry out); the attack is judged on the position the loss found (so-13 in 0510, a note), its exchange
    then owing the attackers' 4 points, which ge-xxiv's step pays (it was three errors: 'no enemy unit in 0510' and
    'the EX costs the attackers 0 step(s) more')."""
    log = edited("German: attack 0510 with ge-xxiv ge-liii odds 3:1 die 4 result EX\nSoviet> eliminate so-13\n",
                 "Soviet> eliminate so-13\nGerman: attack 0510 with ge-xxiv ge-liii odds 3:1 die 4 result EX\n")
    assert verdict(tmp_path, log) == [(line_of(log, "eliminate so-13"), "error", "8.0")]
    assert any(n.startswith("judged on the position before the results written for it from line")
               for n in messages(tmp_path, log, "note"))
    then = run(tmp_path, log.split("Phase german_movement\n", 1)[0]).final_state
    assert "ge-xxiv" in then.reduced and then.location["so-13"] != "0510" and then.location["ge-xxiv"] == "0510"


def test_an_advance_written_after_the_next_attack_is_one_error(tmp_path: Path) -> None:
    """8.2: ge-xli's advance into 0302 written after the attack on 0405 is one error (its battle came before); it
    spends none of the 0405 combat's one advance, so ge-xlvi's advance there is lawful (it was a second error, 'no more
    units may advance into 0405')."""
    log = edited("German: advance ge-xli 0201-0302\n", "").replace(
        "German: attack 0405 with ge-xl ge-xlvi odds 3:1 die 6 result DRL\n",
        "German: attack 0405 with ge-xl ge-xlvi odds 3:1 die 6 result DRL\nGerman: advance ge-xli 0201-0302\n")
    assert verdict(tmp_path, log) == [(line_of(log, "advance ge-xli"), "error", "8.2")]


def test_a_retreat_written_after_the_next_attack_is_one_error(tmp_path: Path) -> None:
    """8.1 (rulings register): so-50's retreat written after the attack on 0510 is one error (the DR's retreat never
    written as the log moved on); written late along a lawful path it is a note and so-50 stands at its end (it was a
    second error, 'no combat result makes so-50 retreat here')."""
    retreat = "German: retreat so-50 0508-0608-0708\n"
    attack = "German: attack 0510 with ge-xxiv ge-liii odds 3:1 die 4 result EX\n"
    log = edited(retreat, "").replace(attack, attack + retreat)
    assert verdict(tmp_path, log) == [(line_of(log, "attack 0510"), "error", "8.1")]
    assert any("written late here" in n for n in messages(tmp_path, log, "note"))
    assert run(tmp_path, log.split("Phase german_movement\n", 1)[0]).final_state.location["so-50"] == "0708"
