"""Rolls mailed to the players (issue 27, item 5): every roll goes at once to every player of its game with an
address, through a real SMTP server on loopback (aiosmtpd) that the tests start and stop; a mail that fails is
retried and recorded, and never delays, fails or loses the roll."""

from __future__ import annotations

import email
import socket
import threading
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import httpx
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from ledger.mail import MailSender, MailSettings, Outbox
from ledger.store import RateLimit, Store, open_store
from ledger_support import LedgerProcess, db_url, fixed_key, free_port, postgres, write_test_key
from wargame.receipts import receipt_from_token

__all__ = ["db_url", "postgres"]  # fixtures used by the tests below
PLAYERS = {"Allied": "allied-token-0123456789", "German": "german-token-0123456789"}
EMAILS = {"Allied": "allied@example.org", "German": "german@example.org"}


class Inbox:
    """An aiosmtpd handler that keeps what it is given and refuses the addresses it is told to."""

    def __init__(self, refuse: dict[str, str] | None = None) -> None:
        self.refuse = refuse or {}
        self.received: list[tuple[list[str], Message]] = []
        self.tls: list[dict[str, object] | None] = []
        """Each mail's TLS session as aiosmtpd saw it (None: sent in the clear)."""
        self.arrived = threading.Condition()

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        assert isinstance(envelope.content, bytes)
        with self.arrived:
            self.received.append((list(envelope.rcpt_tos), email.message_from_bytes(envelope.content)))
            self.tls.append(session.ssl)
            self.arrived.notify_all()
        return "250 OK"

    def wait(self, count: int, timeout_s: float = 15) -> list[tuple[list[str], Message]]:
        """The mails received once there are `count` of them (or whatever came within the timeout)."""
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.received) >= count, timeout_s)
            return list(self.received)


@pytest.fixture
def smtp_port() -> int:
    return free_port()


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = open_store(db_url, fixed_key(), RateLimit(1000, 60))
    opened.open_game("g", PLAYERS, "onslaught", EMAILS)
    yield opened
    opened.close()


def running(inbox: Inbox, port: int, **options: object) -> Controller:
    controller = Controller(inbox, hostname="127.0.0.1", port=port, **options)  # type: ignore[arg-type]
    controller.start()
    return controller


def settings(port: int, **changes: object) -> MailSettings:
    return MailSettings(**{"host": "127.0.0.1", "port": port, "sender": "ledger@example.org", "retry_s": 0.2,
                           "poll_s": 0.2, "timeout_s": 5.0, **changes})  # type: ignore[arg-type]


def text_of(message: Message) -> str:
    """A mail's body as its reader sees it (quoted-printable undone)."""
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def wait_until(done: object, timeout_s: float = 15) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and not done():  # type: ignore[operator]
        time.sleep(0.05)


def test_each_roll_is_mailed_at_once_to_every_player(store: Store, smtp_port: int) -> None:
    """One mail per roll, to both players, with who rolled what, the purpose and the receipt line to paste."""
    inbox = Inbox()
    controller = running(inbox, smtp_port)
    sender = MailSender(store, settings(smtp_port, public_url="https://dice.example.org/"))
    sender.start()
    try:
        receipt = store.roll("g", "Allied", PLAYERS["Allied"], "turn 3 step action: Allied attack 1718", "1d6")
        sender.notify()
        (recipients, message), = inbox.wait(1)
    finally:
        sender.stop()
        controller.stop()
    assert sorted(recipients) == sorted(EMAILS.values())
    assert message["To"] == "allied@example.org, german@example.org"
    assert message["Subject"] == f"[g] #1 Allied rolled 1d6 = {receipt.result[0]}"
    body = text_of(message)
    assert "Purpose: turn 3 step action: Allied attack 1718" in body
    assert f"receipt {receipt.token()}" in body
    assert receipt_from_token(body.split("receipt ")[1].split()[0]) == receipt
    assert "https://dice.example.org/games/g" in body
    assert Outbox(store).rows("g") == [(1, "allied@example.org", "sent", 1, None),
                                       (1, "german@example.org", "sent", 1, None)]


def test_a_mail_server_down_is_retried_and_the_roll_is_kept(store: Store, smtp_port: int) -> None:
    """With nothing listening, the roll is acknowledged and kept; the failure is recorded in the database and the
    mail sent once the server is back."""
    sender = MailSender(store, settings(smtp_port))
    receipt = store.roll("g", "German", PLAYERS["German"], "turn 1: German roll", "1d6")
    assert sender.send_due() == 1
    rows = Outbox(store).rows("g")
    assert [(state, attempts) for _, _, state, attempts, _ in rows] == [("pending", 1), ("pending", 1)]
    assert all(error and "ConnectionRefusedError" in error for *_, error in rows), rows
    assert store.receipts("g") == [receipt]
    inbox = Inbox()
    controller = running(inbox, smtp_port)
    sender.start()
    try:
        wait_until(lambda: all(state == "sent" for _, _, state, _, _ in Outbox(store).rows("g")))
    finally:
        sender.stop()
        controller.stop()
    assert [(state, attempts) for _, _, state, attempts, _ in Outbox(store).rows("g")] == [("sent", 2), ("sent", 2)]
    assert len(inbox.received) == 1


def test_a_refused_address_is_given_up_and_the_others_are_sent(store: Store, smtp_port: int) -> None:
    """A 550 for one player's address is final for that address only; a 451 is tried again."""
    inbox = Inbox(refuse={"german@example.org": "550 5.1.1 no such mailbox"})
    controller = running(inbox, smtp_port)
    try:
        sender = MailSender(store, settings(smtp_port))
        store.roll("g", "Allied", PLAYERS["Allied"], "turn 1: Allied roll", "1d6")
        sender.send_due()
        assert [(a, s) for _, a, s, _, _ in Outbox(store).rows("g")] == [
            ("allied@example.org", "sent"), ("german@example.org", "failed")]
        assert "550" in str(Outbox(store).rows("g")[1][4])
        inbox.refuse = {"german@example.org": "451 4.3.0 try later"}
        store.roll("g", "Allied", PLAYERS["Allied"], "turn 1: Allied roll", "1d6")
        sender.send_due()
        assert [(a, s, n) for seq, a, s, n, _ in Outbox(store).rows("g") if seq == 2] == [
            ("allied@example.org", "sent", 1), ("german@example.org", "pending", 1)]
    finally:
        controller.stop()


def test_starttls_asked_of_a_server_without_it_sends_nothing_in_the_clear(store: Store, smtp_port: int) -> None:
    """The operator asked for STARTTLS: a server that does not offer it gets neither the password nor the mail."""
    logins: list[tuple[bytes, bytes]] = []

    def authenticator(server: SMTP, session: Session, envelope: Envelope, mechanism: str,
                      data: object) -> AuthResult:
        assert isinstance(data, LoginPassword)
        logins.append((data.login, data.password))
        return AuthResult(success=data.password == b"right-password-0123", handled=False)

    inbox = Inbox()
    controller = running(inbox, smtp_port, authenticator=authenticator, auth_require_tls=False)
    try:
        store.roll("g", "Allied", PLAYERS["Allied"], "turn 1: Allied roll", "1d6")
        MailSender(store, settings(smtp_port, user="ledger", starttls=True, retry_s=0.0), "right-password-0123").send_due()
        assert logins == [] and inbox.received == []
        assert all(state == "pending" and error and "STARTTLS" in error
                   for _, _, state, _, error in Outbox(store).rows("g"))
        MailSender(store, settings(smtp_port, user="ledger", retry_s=0.0), "wrong-password-0123").send_due()
        assert inbox.received == [] and all("535" in str(error) for *_, error in Outbox(store).rows("g"))
        assert "wrong-password" not in " ".join(str(error) for *_, error in Outbox(store).rows("g"))
        MailSender(store, settings(smtp_port, user="ledger"), "right-password-0123").send_due()
        assert len(inbox.received) == 1 and logins[-1] == (b"ledger", b"right-password-0123")
    finally:
        controller.stop()


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 signed by its own key (the PEM certificate, the PEM key): the only CA the
    ledger is told to trust."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "umpire test SMTP")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                                  critical=False)
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                   .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "smtp-cert.pem", folder / "smtp-key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def test_starttls_upgrades_verifies_the_certificate_and_logs_in_encrypted(store: Store, smtp_port: int,
                                                                         tmp_path: Path) -> None:
    """STARTTLS against a server with a self-signed certificate: verified against that certificate (--smtp-ca-file),
    the session is encrypted before the login and the mail; checked against the system's CAs instead, the
    certificate is refused and nothing, not even the password, is sent."""
    import ssl

    cert_file, key_file = self_signed(tmp_path)
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert_file, key_file)
    logins: list[tuple[bytes, bytes, bool]] = []

    def authenticator(server: SMTP, session: Session, envelope: Envelope, mechanism: str,
                      data: object) -> AuthResult:
        assert isinstance(data, LoginPassword)
        logins.append((data.login, data.password, session.ssl is not None))
        return AuthResult(success=data.password == b"right-password-0123", handled=False)

    inbox = Inbox()
    # The server refuses anything but STARTTLS, and a login before it, so a client that skipped it fails.
    controller = running(inbox, smtp_port, tls_context=server_tls, require_starttls=True, authenticator=authenticator,
                         auth_require_tls=True)
    try:
        store.roll("g", "Allied", PLAYERS["Allied"], "turn 1: Allied roll", "1d6")
        MailSender(store, settings(smtp_port, user="ledger", starttls=True, retry_s=0.0),
                   "right-password-0123").send_due()
        assert logins == [] and inbox.received == []
        assert all(state == "pending" and error and "CERTIFICATE_VERIFY_FAILED" in error
                   for _, _, state, _, error in Outbox(store).rows("g"))
        MailSender(store, settings(smtp_port, user="ledger", starttls=True, ca_file=str(cert_file)),
                   "right-password-0123").send_due()
        (recipients, message), = inbox.wait(1)
        assert sorted(recipients) == sorted(EMAILS.values()) and "rolled 1d6" in str(message["Subject"])
        assert logins == [(b"ledger", b"right-password-0123", True)]
        tls, = inbox.tls
        assert tls is not None and tls["cipher"]
        connection = tls["ssl_object"]
        assert isinstance(connection, ssl.SSLObject) and connection.version() in ("TLSv1.2", "TLSv1.3")
        assert [state for _, _, state, _, _ in Outbox(store).rows("g")] == ["sent", "sent"]
    finally:
        controller.stop()


def test_serve_verifies_starttls_against_its_ca_file(tmp_path: Path, smtp_port: int) -> None:
    """`serve --smtp-starttls --smtp-ca-file CERT`: a roll over HTTP is mailed over the encrypted session; the CA
    file without STARTTLS, or one that is not PEM, does not start the server (exit 2, said why)."""
    import ssl

    from click.testing import CliRunner

    from ledger.cli import main as umpire_ledger

    cert_file, key_file = self_signed(tmp_path)
    key = write_test_key(tmp_path / "key.pem")
    db = str(tmp_path / "l.sqlite")
    base = ["serve", "--db", db, "--key", str(key), "--smtp-host", "127.0.0.1", "--smtp-port", str(smtp_port)]
    result = CliRunner().invoke(umpire_ledger, [*base, "--smtp-ca-file", str(cert_file)])
    assert result.exit_code == 2 and "add --smtp-starttls" in result.stderr, result.output
    result = CliRunner().invoke(umpire_ledger, [*base, "--smtp-starttls", "--smtp-ca-file", str(key)])
    assert result.exit_code == 2 and "not PEM CA certificates" in result.stderr, result.output
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert_file, key_file)
    inbox = Inbox()
    controller = running(inbox, smtp_port, tls_context=server_tls, require_starttls=True)
    server = LedgerProcess(f"sqlite:///{db}", key, options=(
        "--smtp-host", "127.0.0.1", "--smtp-port", str(smtp_port), "--smtp-starttls", "--smtp-ca-file", str(cert_file)))
    server.start()
    try:
        server.open_game("g", PLAYERS, EMAILS)
        answer = httpx.post(server.url + "/games/g/rolls", json={"player": "German", "purpose": "turn 1: German roll",
                                                                "dice": "1d6"},
                            headers={"Authorization": f"Bearer {PLAYERS['German']}"}, timeout=10)
        assert answer.status_code == 201
        (recipients, message), = inbox.wait(1)
        assert sorted(recipients) == sorted(EMAILS.values()) and answer.json()["token"] in text_of(message)
        tls, = inbox.tls
        assert tls is not None and tls["cipher"]
    finally:
        server.stop()
        controller.stop()


def test_the_server_mails_rolls_and_a_stalled_mail_server_never_delays_one(tmp_path: Path, smtp_port: int) -> None:
    """`serve --smtp-host`: a roll over HTTP reaches both players' mailboxes; with the mail server accepting
    connections and never answering, rolls are still answered at once and their mails wait in the outbox."""
    key = write_test_key(tmp_path / "key.pem")
    inbox = Inbox()
    controller = running(inbox, smtp_port)
    server = LedgerProcess(f"sqlite:///{tmp_path / 'l.sqlite'}", key,
                           options=("--smtp-host", "127.0.0.1", "--smtp-port", str(smtp_port),
                                    "--mail-from", "ledger@example.org"))
    server.start()
    try:
        server.open_game("g", PLAYERS, EMAILS)
        answer = httpx.post(server.url + "/games/g/rolls", json={"player": "Allied", "purpose": "turn 1: Allied roll",
                                                                "dice": "1d6"},
                            headers={"Authorization": f"Bearer {PLAYERS['Allied']}"}, timeout=10)
        assert answer.status_code == 201
        (recipients, message), = inbox.wait(1)
        assert sorted(recipients) == sorted(EMAILS.values()) and answer.json()["token"] in text_of(message)
    finally:
        server.stop()
        controller.stop()
    stall = socket.create_server(("127.0.0.1", 0))  # accepts, never says a word
    stalled = LedgerProcess(f"sqlite:///{tmp_path / 's.sqlite'}", key,
                            options=("--smtp-host", "127.0.0.1", "--smtp-port", str(stall.getsockname()[1])))
    stalled.start()
    try:
        stalled.open_game("g", PLAYERS, EMAILS)
        for _ in range(3):
            started = time.monotonic()
            answer = httpx.post(stalled.url + "/games/g/rolls",
                                json={"player": "Allied", "purpose": "turn 1: Allied roll", "dice": "1d6"},
                                headers={"Authorization": f"Bearer {PLAYERS['Allied']}"}, timeout=10)
            assert answer.status_code == 201 and time.monotonic() - started < 2.0
        assert len(httpx.get(stalled.url + "/games/g/ledger.json", timeout=10).json()["receipts"]) == 3
    finally:
        stalled.stop()
        stall.close()
