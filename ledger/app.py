"""The ledger's HTTP API and pages (Starlette; served by uvicorn). Routes: docs/ledger.md."""

from __future__ import annotations

import base64
import binascii
import functools
import hmac
import html
import json
import os
import signal
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from anyio import CapacityLimiter, to_thread
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ledger.keys import load_private_key
from ledger.mail import MailSender, MailSettings
from ledger.page_cache import NoPage, PageCache
from ledger.throttle import LoginThrottle
from ledger.store import Credential, PlayerKey, RateLimit, Refusal, SignedRequest, Store, open_store
from wargame.receipts import Ledger, key_id, public_key_text

MAX_BODY = 16 * 1024
PUBLIC_KEY_PATH = "/public-key"


def _refusal(refusal: Refusal) -> JSONResponse:
    headers = {"Retry-After": str(refusal.retry_after)} if refusal.retry_after is not None else None
    return JSONResponse({"error": refusal.reason}, status_code=refusal.status, headers=headers)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def _json_body(request: Request) -> dict[str, object]:
    """The request's JSON object; Refusal for anything else."""
    return (await _json_body_and_bytes(request))[0]


def _credential(request: Request, body: bytes, data: dict[str, object], game: str) -> Credential:
    """The token of `Authorization: Bearer TOKEN`, or the signed request of `Authorization: Ed25519 SIGNATURE`."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "ed25519":
        return _bearer(request)
    try:
        signature = base64.b64decode(value.strip(), validate=True)
    except binascii.Error:
        raise Refusal(401, "the Ed25519 signature is not base64") from None
    nonce = data.get("nonce")
    if not isinstance(nonce, str):
        raise Refusal(400, "a signed request carries a 'nonce' string, used once")
    if data.get("game") != game:
        raise Refusal(400, f"a signed request names its game: 'game' must be {game!r}")
    return SignedRequest(signature, body, nonce)


async def _json_body_and_bytes(request: Request) -> tuple[dict[str, object], bytes]:
    """The request's JSON object and its exact bytes; Refusal for anything else."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise Refusal(413, f"the request body is over {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refusal(413, f"the request body is over {MAX_BODY} bytes")
    try:
        text = body.decode("utf-8")
        if _nested_deeper_than(text, MAX_JSON_DEPTH):
            # Counted here, not left to the parser: Python 3.13's parser takes 8,000 levels without a
            # RecursionError, 3.11's does not; the refusal must not depend on the interpreter.
            raise Refusal(400, "malformed JSON: nested too deep")
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError) as e:
        raise Refusal(400, f"malformed JSON: {e}") from None
    except RecursionError:
        # Arrays nested thousands deep exhaust the parser's stack before any credential is looked at.
        raise Refusal(400, "malformed JSON: nested too deep") from None
    if not isinstance(data, dict):
        raise Refusal(400, "the body must be a JSON object")
    return data, body


MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects a request body may have (ours are two or three deep)."""


def _nested_deeper_than(text: str, limit: int) -> bool:
    """Whether a JSON text nests arrays or objects deeper than `limit` (strings skipped, escapes honoured)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _address(request: Request) -> str:
    """The client's address as the server sees it (behind a proxy: the proxy's)."""
    return request.client.host if request.client is not None else "unknown"


def build_app(store: Store, admin_token: str | None, mail: MailSender | None = None,
              throttle: LoginThrottle | None = None) -> Starlette:
    """The application over a store; games are opened over HTTP only with the admin token; each roll is
    mailed to the game's players by `mail` when given; failed logins are throttled."""
    public = store.key.public_key()
    logins = throttle or LoginThrottle()
    # Rolls beyond what the store can run at once wait on the event loop, not in threads holding a place in the
    # shared thread pool (the pages use it too): PostgreSQL's pool has 8 connections, so a 9th roll would only
    # wait in its thread for one; SQLite's group commit takes every roll waiting for its writer.
    writers = CapacityLimiter(store.writers)

    async def public_key(request: Request) -> Response:
        return JSONResponse({"algorithm": "Ed25519", "key_id": key_id(public), "public_key": public_key_text(public)})

    async def open_game(request: Request) -> Response:
        try:
            logins.check(_address(request))
            token = _bearer(request)
            # Bytes: compare_digest raises TypeError on a str that is not ASCII (a header may be Latin-1).
            if admin_token is None or token is None or \
                    not hmac.compare_digest(token.encode("utf-8"), admin_token.encode("utf-8")):
                logins.failed(_address(request))
                raise Refusal(401, "opening a game needs the server's admin token (Authorization: Bearer ...)")
            data = await _json_body(request)
            game, players, rules, emails = data.get("game"), data.get("players"), data.get("rules"), \
                data.get("emails", {})
            if rules is not None and not isinstance(rules, str):
                raise Refusal(400, "'rules' must be the game id of the data whose dice the game rolls, e.g. \"onslaught\"")
            if not isinstance(emails, dict) or not all(isinstance(v, str) for v in emails.values()):
                raise Refusal(400, "'emails' must be an object of player name to e-mail address")
            if not isinstance(game, str):
                raise Refusal(400, "'game' must be a string")
            if not isinstance(players, dict):
                raise Refusal(400, "'players' must be an object of player name to token or {\"public_key\": ...}")
            credentials: dict[str, str | PlayerKey] = {}
            for name, value in players.items():
                if isinstance(value, dict) and set(value) == {"public_key"} and isinstance(value["public_key"], str):
                    credentials[str(name)] = PlayerKey(value["public_key"])
                elif isinstance(value, str):
                    credentials[str(name)] = value
                else:
                    raise Refusal(400, f"player {name}: a token string or {{\"public_key\": BASE64}}")
            await run_in_threadpool(store.open_game, game, credentials, rules, emails)
        except Refusal as refusal:
            return _refusal(refusal)
        return JSONResponse({"game": game, "players": sorted(players)}, status_code=201)

    async def roll(request: Request) -> Response:
        game = request.path_params["game"]
        try:
            data, body = await _json_body_and_bytes(request)
            unknown = sorted(set(data) - {"player", "purpose", "dice", "game", "nonce"})
            if unknown:
                raise Refusal(400, f"unknown field(s) {', '.join(unknown)}: a roll names player, purpose and dice "
                                   "(and game and nonce when signed)")
            player = data.get("player")
            if not isinstance(player, str):
                raise Refusal(400, "'player' must be a string")
            logins.check(_address(request), game, player)
            try:
                credential = _credential(request, body, data, game)
                receipt = await to_thread.run_sync(functools.partial(
                    store.roll, game, player, credential, data.get("purpose"), data.get("dice")), limiter=writers)
            except Refusal as refusal:
                if refusal.status == 401:
                    logins.failed(_address(request), game, player)
                raise
        except Refusal as refusal:
            return _refusal(refusal)
        if mail is not None:
            mail.notify()  # the roll and its mails are committed: the sender's thread takes it from here
        return JSONResponse({"receipt": receipt.fields(), "token": receipt.token()}, status_code=201)

    pages = PageCache(store, public_key_text(public), key_id(public))

    async def page(request: Request) -> Response:
        """A page of the game's rolls (`?page=N`, default the latest), or of one player's."""
        game, player = request.path_params["game"], request.path_params.get("player")
        asked = request.query_params.get("page")
        try:
            if asked is not None and not (asked.isascii() and asked.isdigit() and len(asked) <= 9):
                raise NoPage(400, f"page {asked!r}: a page number, 1 or more")
            # Rendered in the thread pool: a page must not hold up the rolls the event loop is serving.
            text = await run_in_threadpool(pages.page, game, player, int(asked) if asked is not None else None)
        except NoPage as e:
            return HTMLResponse(f"<!doctype html><title>No such page</title><p>{html.escape(e.message)}</p>",
                                status_code=e.status)
        return HTMLResponse(text)

    async def download(request: Request) -> Response:
        game = request.path_params["game"]
        if not await run_in_threadpool(store.has_game, game):
            return _refusal(Refusal(404, f"unknown game {game!r}"))
        receipts = await run_in_threadpool(store.receipts, game)
        ledger = Ledger(game=game, public_key=public_key_text(public), receipts=tuple(receipts))
        return Response(ledger.file_bytes(), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="{game}.ledger.json"'})

    async def refused(request: Request, exc: Exception) -> Response:
        # A Refusal from a handler that does not catch its own (a database failure on a read): the documented JSON.
        assert isinstance(exc, Refusal)
        return _refusal(exc)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if mail is not None:
            mail.start()
        yield
        if mail is not None:
            mail.stop()
        store.close()

    return Starlette(routes=[
        Route(PUBLIC_KEY_PATH, public_key, methods=["GET"]),
        Route("/games", open_game, methods=["POST"]),
        Route("/games/{game}/rolls", roll, methods=["POST"]),
        Route("/games/{game}", page, methods=["GET"]),
        Route("/games/{game}/players/{player}", page, methods=["GET"]),
        Route("/games/{game}/ledger.json", download, methods=["GET"]),
    ], lifespan=lifespan, exception_handlers={Refusal: refused})


def die_with_supervisor(supervisor: int, interval_s: float = 0.5) -> None:
    """Stop this worker (SIGTERM, so it finishes gracefully) when its supervisor is gone: a SIGKILLed
    supervisor cannot stop its workers, which would otherwise hold the port for ever."""

    def watch() -> None:
        while os.getppid() == supervisor:
            time.sleep(interval_s)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="supervisor-watch", daemon=True).start()


def app_from_environment() -> Starlette:
    """The app uvicorn's workers build, configured by `umpire-ledger serve` through the environment."""
    supervisor = os.environ.get("UMPIRE_LEDGER_SUPERVISOR")
    if supervisor and supervisor.isdigit():
        die_with_supervisor(int(supervisor))
    rate = os.environ.get("UMPIRE_LEDGER_RATE")
    store = open_store(os.environ["UMPIRE_LEDGER_DB"], load_private_key(Path(os.environ["UMPIRE_LEDGER_KEY"])),
                       RateLimit.parse(rate) if rate else None)
    mail_settings = os.environ.get("UMPIRE_LEDGER_MAIL")
    mail = None
    if mail_settings:
        settings = MailSettings.from_json(mail_settings)
        mail = MailSender(store, settings, os.environ.get(settings.password_env))
    return build_app(store, os.environ.get("UMPIRE_LEDGER_ADMIN_TOKEN") or None, mail)
