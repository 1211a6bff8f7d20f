"""`umpire-ledger`: run the dice and ledger service, make its key, open games, export ledgers."""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from typing import NoReturn

import click

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.keys import KeyFileError, load_private_key, write_new_key
from ledger.mail import MailSettings
from ledger.client import EntryError, RollRefused, purpose_for_entry, roll_request, send_roll
from ledger.store import MIN_TOKEN, PlayerKey, RateLimit, Refusal, Store, open_store, redact
from wargame.files import write_atomically
from wargame.receipts import Ledger, key_id, public_key_text

DB_HELP = ("sqlite:///RELATIVE/PATH, sqlite:////ABSOLUTE/PATH, a bare PATH, or postgresql://USER@HOST:PORT/DB; "
           "default: ledger.sqlite here")
DEFAULT_DB = "ledger.sqlite"


def _stop(message: str) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(2)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="umpire")
def main() -> None:
    """The dice and ledger service of Umpire (docs/ledger.md)."""


@main.command(short_help="Make the server's signing key and print its public key.")
@click.argument("key_file", type=click.Path(path_type=Path))
def keygen(key_file: Path) -> None:
    """Make the server's Ed25519 signing key in KEY_FILE (never overwrites) and print its public key."""
    try:
        key = write_new_key(key_file)
    except FileExistsError:
        _stop(f"{key_file} exists; a key that signed receipts is never replaced")
    except OSError as e:
        _stop(f"{key_file}: {e.strerror}")
    click.echo(f"key id {key_id(key.public_key())}")
    click.echo(f"public key {public_key_text(key.public_key())}")


def _load_key(key_file: Path) -> Ed25519PrivateKey:
    try:
        return load_private_key(key_file)
    except KeyFileError as e:
        _stop(str(e))
    except OSError as e:
        _stop(f"{key_file}: {e.strerror}")


def _store(db: str, key: Ed25519PrivateKey) -> Store:
    """The store, or a clear error (never the URL's password) and exit 2."""
    try:
        return open_store(db, key)
    except Refusal as e:
        _stop(f"database {redact(db)}: {redact(str(e.__cause__ or e.reason))}")
    except Exception as e:  # the database's own errors vary by driver (sqlite3, psycopg); all mean "cannot run"
        _stop(f"database {redact(db)}: {redact(str(e))}")


@main.command("public-key", short_help="Print a key file's key id and public key.")
@click.argument("key_file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
def public_key(key_file: Path) -> None:
    """Print the key id and public key of KEY_FILE, as the server publishes them at /public-key."""
    key = _load_key(key_file)
    click.echo(f"key id {key_id(key.public_key())}")
    click.echo(f"public key {public_key_text(key.public_key())}")


@main.command(short_help="Serve the ledger's API and pages until stopped (Ctrl+C).")
@click.option("--db", default=DEFAULT_DB, show_default=True, help=DB_HELP)
@click.option("--key", "key_file", required=True, type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="the signing key made by `umpire-ledger keygen`")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="the address to listen on (0.0.0.0: every interface, for players on other machines)")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="the port to listen on")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="worker processes (several need PostgreSQL or share the SQLite file)")
@click.option("--rate", default="30/60", show_default=True, help="at most ROLLS/SECONDS per player of a game")
@click.option("--admin-token-env", default="UMPIRE_LEDGER_ADMIN_TOKEN", show_default=True,
              help="environment variable holding the token that may open games over HTTP")
@click.option("--smtp-host", envvar="UMPIRE_LEDGER_SMTP_HOST", default=None,
              help="the SMTP server that mails each roll to the game's players (env UMPIRE_LEDGER_SMTP_HOST)")
@click.option("--smtp-port", envvar="UMPIRE_LEDGER_SMTP_PORT", default=25, show_default=True,
              type=click.IntRange(1, 65535), help="its port (env UMPIRE_LEDGER_SMTP_PORT)")
@click.option("--smtp-user", envvar="UMPIRE_LEDGER_SMTP_USER", default=None,
              help="the SMTP login (env UMPIRE_LEDGER_SMTP_USER); its password is read from --smtp-password-env")
@click.option("--smtp-password-env", default="UMPIRE_LEDGER_SMTP_PASSWORD", show_default=True, metavar="VAR",
              help="environment variable holding the SMTP password")
@click.option("--smtp-starttls", envvar="UMPIRE_LEDGER_SMTP_STARTTLS", is_flag=True,
              help="upgrade with STARTTLS first; nothing is sent to a server that does not offer it")
@click.option("--smtp-ca-file", envvar="UMPIRE_LEDGER_SMTP_CA_FILE", default=None,
              type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="verify the SMTP server's certificate against these CA certificates (PEM) instead of the "
                   "system's (env UMPIRE_LEDGER_SMTP_CA_FILE)")
@click.option("--mail-from", envvar="UMPIRE_LEDGER_MAIL_FROM", default=None,
              help="the mails' From address (default umpire-ledger@HOSTNAME)")
@click.option("--mail-retry", default=30.0, show_default=True, type=click.FloatRange(0.1, 3600), metavar="SECONDS",
              help="the first retry of a mail that failed; each later one doubles, up to an hour")
@click.option("--public-url", default=None, help="the server's address as players reach it, to link the game's page "
              "in each mail")
def serve(db: str, key_file: Path, host: str, port: int, workers: int, rate: str, admin_token_env: str,
          smtp_host: str | None, smtp_port: int, smtp_user: str | None, smtp_password_env: str, smtp_starttls: bool,
          smtp_ca_file: Path | None, mail_from: str | None, mail_retry: float, public_url: str | None) -> None:
    """Serve the ledger's API and pages; with --smtp-host, mail each roll to the players of its game."""
    import uvicorn

    from ledger.http_protocol import loop_name, protocol_name

    try:
        RateLimit.parse(rate)
    except ValueError as e:
        _stop(str(e))
    admin_token = os.environ.get(admin_token_env, "")
    if admin_token and (len(admin_token) < MIN_TOKEN or not admin_token.isascii() or not admin_token.isprintable()):
        _stop(f"the admin token in {admin_token_env} must be printable ASCII of at least {MIN_TOKEN} characters")
    _store(db, _load_key(key_file)).close()
    mail = ""
    if smtp_host:
        import socket
        import ssl
        if smtp_ca_file is not None:
            if not smtp_starttls:
                _stop("--smtp-ca-file verifies the certificate of STARTTLS: add --smtp-starttls")
            try:
                ssl.create_default_context(cafile=str(smtp_ca_file))
            except (ssl.SSLError, ValueError) as e:
                _stop(f"--smtp-ca-file {smtp_ca_file}: not PEM CA certificates ({e})")
        if mail_from is not None and (not mail_from.isprintable() or "@" not in mail_from):
            _stop(f"--mail-from {mail_from!r} is not an e-mail address")
        if smtp_user and not os.environ.get(smtp_password_env):
            _stop(f"--smtp-user {smtp_user} needs its password in the environment variable {smtp_password_env}")
        if smtp_user and not smtp_starttls and smtp_host not in ("localhost", "127.0.0.1", "::1"):
            click.echo("warning: the SMTP password would cross the network in the clear; add --smtp-starttls",
                       err=True)
        mail = MailSettings(host=smtp_host, port=smtp_port, sender=mail_from or f"umpire-ledger@{socket.gethostname()}",
                            user=smtp_user, password_env=smtp_password_env, starttls=smtp_starttls,
                            ca_file=str(smtp_ca_file.resolve()) if smtp_ca_file else None,
                            retry_s=mail_retry, public_url=public_url).to_json()
    os.environ.update({"UMPIRE_LEDGER_MAIL": mail,"UMPIRE_LEDGER_DB": db, "UMPIRE_LEDGER_KEY": str(key_file.resolve()),
                       "UMPIRE_LEDGER_RATE": rate, "UMPIRE_LEDGER_ADMIN_TOKEN": admin_token,
                       # Workers watch their supervisor and stop when it dies (ledger.app.die_with_supervisor).
                       "UMPIRE_LEDGER_SUPERVISOR": str(os.getpid()) if workers > 1 else ""})
    # Idle keep-alive connections are closed after 5 s; after SIGTERM, requests still open after 5 s are
    # cut, so one slow client cannot keep a stopping server alive.
    # A server that says nothing looks hung: where it is, how to stop it, and what it cannot do without its token.
    address = f"http://{_reachable_host(host)}:{port}"
    click.echo(f"umpire-ledger: serving {db} at {address} (a game's page: {address}/games/GAME); stop with Ctrl+C")
    if not admin_token:
        click.echo(f"warning: the environment variable {admin_token_env} is not set: games cannot be opened over "
                   "HTTP; open them with `umpire-ledger open` on this machine, or set it to a long secret",
                   err=True)
    # Each response in one write, on uvloop where installed (ledger/http_protocol.py); no access log: it is below
    # the warning level anyway, and uvicorn computes each line's arguments before it checks the level.
    uvicorn.run("ledger.app:app_from_environment", factory=True, host=host, port=port, workers=workers,
                log_level="warning", access_log=False, http=protocol_name(), loop=loop_name(), timeout_keep_alive=5,
                timeout_graceful_shutdown=5)


def _reachable_host(host: str) -> str:
    """The host to name in the server's address: a wildcard address is listened on, not browsed to."""
    if host in ("0.0.0.0", "::", ""):
        import socket
        return socket.gethostname()
    return f"[{host}]" if ":" in host else host


@main.command(short_help="Roll dice for a player and print the receipt to paste into the log.")
@click.option("--url", required=True, help="the ledger, e.g. http://club.example:8000")
@click.option("--token-env", default=None, metavar="VAR", help="environment variable holding the player's token")
@click.option("--key", "key_file", default=None, type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="the player's own Ed25519 key (umpire-ledger keygen), to sign the request instead")
@click.option("--entry", default=None, metavar="LINE",
              help="the log entry the die is for ('Allied: attack 1718 with ...', or 'Roll' for a roll-off): the "
                   "structured purpose is made from it, with --turn and --step")
@click.option("--turn", type=click.IntRange(0, 9999), default=None, help="the game turn of --entry")
@click.option("--step", default=None, help="the step or phase of --entry (e.g. action), if the game has them")
@click.argument("game")
@click.argument("player")
@click.argument("dice")
@click.argument("purpose", required=False)
def roll(url: str, token_env: str | None, key_file: Path | None, entry: str | None, turn: int | None,
         step: str | None, game: str, player: str, dice: str, purpose: str | None) -> None:
    """Roll DICE (e.g. 1d6) for PLAYER of GAME and print the result and the receipt to paste into the log. The
    PURPOSE is given, or made from --entry, --turn and --step (`turn 3 step action: Allied attack 1718`)."""
    if (token_env is None) == (key_file is None):
        _stop("give --token-env VAR or --key PLAYER_KEY.pem")
    if entry is not None:
        if purpose is not None:
            _stop("give PURPOSE or --entry, not both: --entry makes the purpose")
        if turn is None:
            _stop("--entry needs --turn N (and --step STEP if the game has steps or phases)")
        try:
            purpose = purpose_for_entry(entry, turn, step, player)
        except EntryError as e:
            _stop(f"--entry {entry!r}: {e}")
    elif purpose is None:
        _stop("give PURPOSE, or --entry LINE --turn N [--step STEP] to make it from the log entry")
    elif turn is not None or step is not None:
        _stop("--turn and --step go with --entry")
    token = os.environ.get(token_env or "")
    if token_env is not None and not token:
        _stop(f"the environment variable {token_env} is empty")
    request = roll_request(game, player, purpose, dice, token=token,
                           key=_load_key(key_file) if key_file is not None else None)
    try:
        receipt = send_roll(url, game, request)
    except RollRefused as e:
        _stop(str(e))
    click.echo(f"#{receipt.seq} {receipt.dice} = {' '.join(map(str, receipt.result))} (total {receipt.total}) "
               f"for {receipt.purpose!r}")
    click.echo(f"receipt {receipt.token()}")


@main.command("open", short_help="Open a game for its players and print each player's token.")
@click.option("--db", default=DEFAULT_DB, show_default=True, help=DB_HELP)
@click.option("--key", "key_file", required=True, type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="the server's signing key made by `umpire-ledger keygen` (the one `serve` runs with)")
@click.option("--rules", default=None, metavar="GAME_ID",
              help="the game data whose dice the game rolls (e.g. onslaught): other dice are refused")
@click.option("--email", "emails", multiple=True, metavar="NAME=ADDRESS",
              help="a player's e-mail address: every roll of the game is mailed to all of them")
@click.argument("game")
@click.argument("players", nargs=-1, required=True)
def open_game(db: str, key_file: Path, rules: str | None, emails: tuple[str, ...], game: str,
              players: tuple[str, ...]) -> None:
    """Open GAME for PLAYERS: NAME (a token is made), NAME=TOKEN, or NAME:PUBLIC_KEY (the base64 key
    `umpire-ledger keygen` prints for the player's own key). Prints each token made or given, once."""
    credentials: dict[str, str | PlayerKey] = {}
    for item in players:
        if ":" in item and "=" not in item.partition(":")[0]:
            name, _, public = item.partition(":")
            credentials[name] = PlayerKey(public)
        else:
            name, _, token = item.partition("=")
            credentials[name] = token or secrets.token_urlsafe(24)
    addresses = dict(item.partition("=")[::2] for item in emails)
    store = _store(db, _load_key(key_file))
    try:
        store.open_game(game, credentials, rules, addresses)
    except Refusal as refusal:
        _stop(refusal.reason)
    finally:
        store.close()
    for name, credential in sorted(credentials.items()):
        click.echo(f"{name} {credential if isinstance(credential, str) else 'signs with its key'}")


@main.command(short_help="Write a game's whole ledger as a file (the server's download).")
@click.option("--db", default=DEFAULT_DB, show_default=True, help=DB_HELP)
@click.option("--key", "key_file", required=True, type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="the server's signing key made by `umpire-ledger keygen`")
@click.option("--out", type=click.Path(path_type=Path), help="file to write (default: standard output)")
@click.argument("game")
def export(db: str, key_file: Path, out: Path | None, game: str) -> None:
    """The whole ledger of GAME as a file, as the server's download gives it."""
    store = _store(db, _load_key(key_file))
    try:
        if not store.has_game(game):
            _stop(f"unknown game {game!r}")
        ledger = Ledger(game=game, public_key=public_key_text(store.key.public_key()),
                        receipts=tuple(store.receipts(game)))
    finally:
        store.close()
    if out is None:
        sys.stdout.buffer.write(ledger.file_bytes())
    else:
        write_atomically(out, ledger.file_bytes())
