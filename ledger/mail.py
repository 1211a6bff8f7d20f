"""Rolls mailed to the players: a durable outbox in the ledger's database, sent over SMTP by a thread.

A roll's mail is queued in the roll's own transaction (one row per player with an address), so a roll
acknowledged to its player is never without its mail, and sending happens after the commit, off the
request: an SMTP server that is down, slow or refusing never delays or fails a roll. Each attempt is
recorded in the row (attempts, next try, last error); a row is claimed with a lease before it is sent,
so several workers sharing the database send each mail once (or, after a crash mid-send, again: at
least once).
"""

from __future__ import annotations

import json
import logging
import smtplib
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime

from ledger.store import Store, timestamp
from wargame.receipts import Receipt, receipt_from_fields

log = logging.getLogger("umpire-ledger.mail")

LEASE_S = 120.0
"""How long a claimed mail is left to its sender before another may try it (a sender that died mid-send)."""
MAX_BACKOFF_S = 3600.0
BATCH = 50
"""Mails claimed at once: one SMTP connection sends them."""


@dataclass(frozen=True)
class MailSettings:
    """The operator's SMTP server and how the ledger uses it."""

    host: str
    port: int = 25
    sender: str = "umpire-ledger@localhost"
    user: str | None = None
    password_env: str = "UMPIRE_LEDGER_SMTP_PASSWORD"
    """The environment variable holding the SMTP password: never on a command line, never in a message."""
    starttls: bool = False
    """Upgrade with STARTTLS before anything else is said; a server that does not offer it gets nothing."""
    ca_file: str | None = None
    """The CA certificates (PEM) to verify the server's certificate against, instead of the system's (a club's
    own CA, or a self-signed server's certificate)."""
    timeout_s: float = 15.0
    retry_s: float = 30.0
    """The first retry's delay; each later one doubles, up to an hour."""
    max_attempts: int = 10
    poll_s: float = 5.0
    """How often the outbox is looked at for retries and for rolls taken by other workers."""
    public_url: str | None = None
    """The server's public address, to link the game's page in each mail."""

    def to_json(self) -> str:
        """The settings for `serve`'s workers (the password stays in its environment variable)."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> MailSettings:
        return cls(**json.loads(text))


@dataclass(frozen=True)
class Outgoing:
    """One roll's mail: the receipt, every address of its game (the To: line), and those still to send."""

    receipt: Receipt
    players: tuple[str, ...]
    pending: tuple[tuple[str, int], ...]
    """(address, attempts so far, this one included)."""


def compose(settings: MailSettings, receipt: Receipt, to: tuple[str, ...]) -> EmailMessage:
    """The mail of one roll: who rolled what for which purpose, and the receipt line to paste."""
    message = EmailMessage()
    faces = " ".join(str(r) for r in receipt.result)
    message["Subject"] = f"[{receipt.game}] #{receipt.seq} {receipt.player} rolled {receipt.dice} = {faces}"
    message["From"] = settings.sender
    message["To"] = ", ".join(to)
    message["Date"] = format_datetime(datetime.strptime(receipt.time, "%Y-%m-%dT%H:%M:%S.%fZ")
                                      .replace(tzinfo=timezone.utc))
    # The same roll's mail always has the same id, so a mail sent twice (a crash mid-send) reads as one.
    message["Message-ID"] = f"<{receipt.game}.{receipt.seq}.{receipt.key}@umpire-ledger>"
    page = f"\nThe game's ledger: {settings.public_url.rstrip('/')}/games/{receipt.game}\n" \
        if settings.public_url else ""
    message.set_content(
        f"{receipt.player} rolled {receipt.dice} = {faces} (total {receipt.total}) in game {receipt.game},\n"
        f"roll #{receipt.seq} of the game, at {receipt.time}.\n\n"
        f"Purpose: {receipt.purpose}\n\n"
        f"The receipt, to paste after the entry in the log:\n\nreceipt {receipt.token()}\n{page}")
    return message


class Outbox:
    """The mail rows of a store's database (table mail_outbox, made by the store's migration 4)."""

    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None) -> None:
        self.store = store
        self.clock = clock or (lambda: datetime.now(timezone.utc))

    def has_due(self) -> bool:
        """Whether some mail is due (a read, so idle workers do not take SQLite's write lock)."""
        with self.store.transaction(write=False) as cursor:
            return cursor.execute(self.store.sql(
                "SELECT 1 FROM mail_outbox WHERE state = 'pending' AND next_try <= ? LIMIT 1"),
                (timestamp(self.clock()),)).fetchone() is not None

    def claim(self, limit: int = BATCH) -> list[Outgoing]:
        """The due mails, leased to this sender for LEASE_S, their attempts counted."""
        now = self.clock()
        sql = self.store.sql
        with self.store.transaction(write=True) as cursor:
            rows = cursor.execute(sql(
                "SELECT game, seq, address, attempts FROM mail_outbox WHERE state = 'pending' AND next_try <= ? "
                "ORDER BY next_try, game, seq, address LIMIT ?" + self.store.skip_locked),
                (timestamp(now), limit)).fetchall()
            lease = timestamp(now + timedelta(seconds=LEASE_S))
            grouped: dict[tuple[str, int], list[tuple[str, int]]] = {}
            for game, seq, address, attempts in rows:
                cursor.execute(sql("UPDATE mail_outbox SET attempts = ?, next_try = ? "
                                   "WHERE game = ? AND seq = ? AND address = ?"),
                               (int(attempts) + 1, lease, game, seq, address))
                grouped.setdefault((str(game), int(seq)), []).append((str(address), int(attempts) + 1))
            out = []
            for (game, seq), pending in sorted(grouped.items()):
                body = cursor.execute(sql("SELECT body FROM receipts WHERE game = ? AND seq = ?"),
                                      (game, seq)).fetchone()
                players = cursor.execute(sql("SELECT email FROM players WHERE game = ? AND email IS NOT NULL "
                                             "ORDER BY email"), (game,)).fetchall()
                out.append(Outgoing(receipt_from_fields(json.loads(str(body[0]))),
                                    tuple(str(p[0]) for p in players), tuple(pending)))
        return out

    def record(self, game: str, seq: int, address: str, state: str, error: str | None = None,
               retry_in_s: float = 0.0) -> None:
        """The outcome of an attempt: `sent`, `failed` (given up), or `pending` again after `retry_in_s`."""
        with self.store.transaction(write=True) as cursor:
            cursor.execute(self.store.sql(
                "UPDATE mail_outbox SET state = ?, error = ?, next_try = ? WHERE game = ? AND seq = ? AND address = ?"),
                (state, error, timestamp(self.clock() + timedelta(seconds=retry_in_s)), game, seq, address))

    def rows(self, game: str) -> list[tuple[int, str, str, int, str | None]]:
        """Every mail of a game: (seq, address, state, attempts, last error)."""
        with self.store.transaction(write=False) as cursor:
            found = cursor.execute(self.store.sql(
                "SELECT seq, address, state, attempts, error FROM mail_outbox WHERE game = ? ORDER BY seq, address"),
                (game,)).fetchall()
        return [(int(r[0]), str(r[1]), str(r[2]), int(r[3]), None if r[4] is None else str(r[4])) for r in found]


class MailSender:
    """A thread that sends the outbox's due mails: woken by each roll, and every `poll_s` for retries."""

    def __init__(self, store: Store, settings: MailSettings, password: str | None = None) -> None:
        self.outbox = Outbox(store)
        self.settings = settings
        self.password = password
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name="ledger-mail", daemon=True)
        self.thread.start()

    def notify(self) -> None:
        """A roll was committed: send its mail now rather than at the next poll."""
        self.wake.set()

    def stop(self, timeout_s: float = 5.0) -> None:
        self.stopping.set()
        self.wake.set()
        if self.thread is not None:
            self.thread.join(timeout_s)

    def _run(self) -> None:
        while not self.stopping.is_set():
            self.wake.clear()
            try:
                while not self.stopping.is_set() and self.outbox.has_due() and self.send_due():
                    pass
            except Exception:  # the database or a bug: the mails stay queued; the next wake-up tries again
                log.exception("the mail outbox could not be read")
            self.wake.wait(self.settings.poll_s)

    def send_due(self) -> int:
        """Send the due mails once; how many rolls' mails were tried."""
        batch = self.outbox.claim()
        if not batch:
            return 0
        try:
            connection = self._connect()
        except (smtplib.SMTPException, OSError, ssl.SSLError) as e:
            for outgoing in batch:
                for address, attempts in outgoing.pending:
                    self._failed(outgoing.receipt, address, attempts, _reason(e), permanent=False)
            return len(batch)
        try:
            for outgoing in batch:
                self._send(connection, outgoing)
        finally:
            try:
                connection.quit()
            except (smtplib.SMTPException, OSError):
                connection.close()
        return len(batch)

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        connection = smtplib.SMTP(s.host, s.port, timeout=s.timeout_s, local_hostname=_hostname())
        try:
            connection.ehlo()
            if s.starttls:
                # starttls raises SMTPNotSupportedError when the server does not offer it: nothing, not even
                # the password, is then said in the clear.
                connection.starttls(context=ssl.create_default_context(cafile=s.ca_file))
                connection.ehlo()
            if s.user:
                connection.login(s.user, self.password or "")
        except BaseException:
            connection.close()
            raise
        return connection

    def _send(self, connection: smtplib.SMTP, outgoing: Outgoing) -> None:
        receipt = outgoing.receipt
        message = compose(self.settings, receipt, outgoing.players)
        addresses = [address for address, _ in outgoing.pending]
        attempts = dict(outgoing.pending)
        try:
            refused = connection.send_message(message, from_addr=self.settings.sender, to_addrs=addresses)
        except smtplib.SMTPRecipientsRefused as e:
            refused = e.recipients
        except (smtplib.SMTPException, OSError) as e:
            for address in addresses:
                self._failed(receipt, address, attempts[address], _reason(e),
                             permanent=isinstance(e, smtplib.SMTPResponseException) and 500 <= e.smtp_code < 600)
            return
        for address in addresses:
            if address in refused:
                code, text = refused[address]
                reason = f"{code} {text.decode('utf-8', 'replace') if isinstance(text, bytes) else text}"
                # 5xx: the server will never take it (no such mailbox); 4xx: try again later.
                self._failed(receipt, address, attempts[address], reason, permanent=500 <= code < 600)
            else:
                self.outbox.record(receipt.game, receipt.seq, address, "sent")

    def _failed(self, receipt: Receipt, address: str, attempts: int, reason: str, permanent: bool) -> None:
        if permanent or attempts >= self.settings.max_attempts:
            log.warning("mail of %s #%d to %s given up after %d attempt(s): %s", receipt.game, receipt.seq,
                        address, attempts, reason)
            self.outbox.record(receipt.game, receipt.seq, address, "failed", reason)
            return
        delay = min(MAX_BACKOFF_S, self.settings.retry_s * 2 ** (attempts - 1))
        self.outbox.record(receipt.game, receipt.seq, address, "pending", reason, retry_in_s=delay)


def _reason(e: BaseException) -> str:
    """An SMTP or network error as one line for the outbox (never the password: smtplib does not echo it)."""
    text = str(e) or type(e).__name__
    return f"{type(e).__name__}: {' '.join(text.split())}"[:500]


def _hostname() -> str:
    """The name this machine greets the SMTP server with."""
    return socket.getfqdn() or "localhost"
