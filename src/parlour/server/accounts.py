"""Accounts: usernames and passwords checked, passwords hashed, sessions and their CSRF tokens.

Accounts are optional: a guest plays with a name and a link as always. An account is a username
and a password, hashed with Argon2id (`argon2-cffi`). Logging in gives a session: a random token in
an HttpOnly, SameSite=Lax cookie (Secure when the request came over HTTPS), stored only as its
SHA-256, revocable one by one or all at once.

CSRF. Writes authenticated by the session cookie must carry `X-CSRF-Token`, a token the server
derives from the session token with a key of its own (HMAC: the *signed* double-submit pattern).
The browser gets it in the answer to logging in and in a readable (not HttpOnly) cookie beside the
session's. A page on another site can make the browser send the session cookie (SameSite=Lax
stops that for cross-site POSTs in today's browsers, not in every browser, and not from a sibling
subdomain), but it can neither read the token nor work it out, and a custom header on a
cross-origin request needs a CORS preflight this server never grants. Unlike a plain
double-submit cookie, a token an attacker plants as a cookie (from a sibling subdomain) does not
match: it must be the HMAC of the victim's own session. An Origin header, when the browser sends
one, must also be this server's. This keeps the server stateless about CSRF (no token table) and
works for every gateway of a cluster alike (they share the key).

Usernames. NFKC-normalised, 3–24 characters: letters of one script, ASCII digits, `_` and `-`.
Two names that differ only in case share one `name_key` (what a log-in looks up); two that look
alike — letters of other scripts or of IPA and small capitals that pass for Latin ones, `0` for
`o` — share one confusable skeleton (UTS #39, `name_skeleton`). Both are unique: the second name
is refused as taken. A name mixing scripts (`pаypal` with a Cyrillic `а`) is refused outright.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.low_level import Type
from disarm import skeleton_key

from .clients import RateMeter
from .tables import TableError

if TYPE_CHECKING:
    from .database import Database
    from .settings import Settings

__all__ = [
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "Accounts",
    "Passwords",
    "check_password",
    "check_username",
    "csrf_token",
    "name_key",
    "name_skeleton",
    "new_session_token",
    "session_hash",
]

MIN_NAME, MAX_NAME = 3, 24
MIN_PASSWORD = 10
MAX_PASSWORD = 1024  # hashing a megabyte of "password" is a way to spend the server's time
SESSION_COOKIE = "parlour_session"
CSRF_COOKIE = "parlour_csrf"
CSRF_HEADER = "x-csrf-token"


def _script(ch: str) -> str:
    """The script of a letter, by its Unicode name's first word (LATIN, CYRILLIC, GREEK, …)."""
    name = unicodedata.name(ch, "")
    first = name.split(" ")[0] if name else "UNKNOWN"
    return "CJK" if first in ("CJK", "HIRAGANA", "KATAKANA") else first


def check_username(raw: Any) -> str:
    """The username to keep (NFKC-normalised), or TableError saying what is wrong with it."""
    if not isinstance(raw, str):
        raise TableError("a username is text", 400, "bad_username")
    name = unicodedata.normalize("NFKC", raw.strip())
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise TableError(
            f"a username is {MIN_NAME} to {MAX_NAME} characters long", 400, "bad_username"
        )
    scripts = set()
    for ch in name:
        if ch in "_-" or ("0" <= ch <= "9"):
            continue
        if unicodedata.category(ch) not in ("Lu", "Ll", "Lo"):
            raise TableError(
                "a username holds letters, digits (0-9), _ and - only", 400, "bad_username"
            )
        scripts.add(_script(ch))
    if not scripts:
        raise TableError("a username needs at least one letter", 400, "bad_username")
    if len(scripts) > 1:
        raise TableError(
            "a username's letters are of one script (mixing them makes look-alike names)",
            400,
            "bad_username",
        )
    return name


def name_key(name: str) -> str:
    """The form a name is logged in by: NFKC, case folded, `-` as `_` (unique per account)."""
    return unicodedata.normalize("NFKC", name).casefold().replace("-", "_")


def name_skeleton(name: str) -> str:
    """The form that names looking alike share: Unicode's confusable skeleton (UTS #39, from
    disarm's tables of the current Unicode release: `ɑlice`, `alıce` and Cyrillic `аlice` are
    all `alice`, `ᴀdmin` is `admin`), case folded, with TR39's digit classes (`0` is `o`, `1` is
    `l`) and `-` as `_`. Unique per account: a new name whose skeleton is an existing one's is
    refused as taken."""
    return skeleton_key(unicodedata.normalize("NFKC", name), digit_policy="tr39").replace("-", "_")


def check_password(password: Any, username: str) -> str:
    if not isinstance(password, str):
        raise TableError("a password is text", 400, "bad_password")
    if len(password) < MIN_PASSWORD:
        raise TableError(
            f"a password is at least {MIN_PASSWORD} characters long", 400, "bad_password"
        )
    if len(password) > MAX_PASSWORD:
        raise TableError(f"a password is at most {MAX_PASSWORD} characters", 400, "bad_password")
    if username.casefold() in password.casefold():
        raise TableError("a password must not contain the username", 400, "bad_password")
    return password


@dataclass
class Passwords:
    """Argon2id hashing with the server's costs (argon2-cffi's defaults unless set smaller, as the
    tests do). A dummy hash is checked for an unknown username, so that a wrong name takes as
    long as a wrong password and the two cannot be told apart."""

    time_cost: int = 3
    memory_kib: int = 65536
    parallelism: int = 4

    def __post_init__(self) -> None:
        self.hasher = PasswordHasher(
            time_cost=self.time_cost,
            memory_cost=self.memory_kib,
            parallelism=self.parallelism,
            type=Type.ID,
        )
        self.dummy = self.hasher.hash(secrets.token_hex(16))

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether `password` matches `stored` (None: no such account — checked against the
        dummy all the same, and False)."""
        try:
            ok = self.hasher.verify(stored or self.dummy, password)
        except (VerificationError, InvalidHashError):
            return False
        return ok and stored is not None

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def session_hash(token: str) -> str:
    """Session tokens are stored and looked up only as hashes."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def csrf_token(secret: bytes, session_token: str) -> str:
    """The CSRF token of a session: an HMAC of its token under the server's key (see above)."""
    key = hmac.new(secret, b"parlour-csrf", hashlib.sha256).digest()
    return hmac.new(key, session_token.encode("utf-8"), hashlib.sha256).hexdigest()[:40]


class Accounts:
    """The accounts side of a gateway: sign-up, log-in (rate-limited per client, and per username
    from each client: docs/architecture.md, "Accounts"), sessions, passwords. Hashing runs in a
    thread: it takes tens of milliseconds on purpose."""

    def __init__(self, db: Database, settings: Settings, secret: bytes) -> None:
        self.db = db
        self.settings = settings
        self.secret = secret
        self.passwords = Passwords(
            settings.password_time_cost, settings.password_memory_kib, settings.password_parallelism
        )
        per_client = settings.logins_per_minute
        per_name = settings.logins_per_name_per_minute
        self.logins = RateMeter(per_client, max(1, int(per_client)))
        self.logins_by_name = RateMeter(per_name, max(1, int(per_name)))
        self.signups = RateMeter(
            settings.signups_per_minute, max(1, int(settings.signups_per_minute))
        )

    def csrf(self, session_token: str) -> str:
        return csrf_token(self.secret, session_token)

    async def signup(self, username: Any, password: Any, client: str) -> tuple[int, str, str]:
        """A new account, logged in: (id, username, session token)."""
        name = check_username(username)
        check_password(password, name)
        if not self.signups.take(client):
            raise TableError("too many new accounts from you: wait a minute", 429, "rate_limited")
        hashed = await asyncio.to_thread(self.passwords.hash, password)
        account_id = await self.db.call(
            self.db.store.accounts.create_account, name, name_key(name), hashed, name_skeleton(name)
        )
        if account_id is None:
            raise TableError(
                f"the username {name!r} is taken (or looks too much like one that is)",
                409,
                "taken",
            )
        return account_id, name, await self.new_session(account_id)

    async def login(self, username: Any, password: Any, client: str) -> tuple[int, str, str]:
        """Log in: (id, username, session token). An unknown name and a wrong password get the
        same answer after the same work (a dummy hash is checked), so the answer never tells
        whether a name has an account."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise TableError("send a username and a password", 400)
        key = name_key(unicodedata.normalize("NFKC", username.strip()))[: MAX_NAME * 2]
        # per address, and per username *from that address*: guesses from elsewhere never use up
        # the owner's attempts (a count per username from anywhere let anyone lock them out)
        if not self.logins.take(client) or not self.logins_by_name.take(f"{key}\n{client}"):
            raise TableError(
                "too many log-in attempts: wait a minute and try again", 429, "rate_limited"
            )
        # a password no account can have (empty, over the longest) is checked against the dummy
        possible = 0 < len(password) <= MAX_PASSWORD
        found = await self.db.call(self.db.store.accounts.account_by_key, key) if possible else None
        stored = found["password_hash"] if found else None
        ok = await asyncio.to_thread(self.passwords.verify, stored, password[:MAX_PASSWORD])
        if not ok or found is None:
            raise TableError("wrong username or password", 401, "bad_login")
        if found.get("suspended_at") is not None:  # said only to whoever knows the password
            raise TableError(
                "this account is suspended by the server's moderators", 403, "suspended"
            )
        if self.passwords.needs_rehash(stored or ""):
            new = await asyncio.to_thread(self.passwords.hash, password)
            await self.db.call(self.db.store.accounts.set_password, found["id"], new)
        return int(found["id"]), str(found["username"]), await self.new_session(found["id"])

    async def new_session(self, account_id: int) -> str:
        token = new_session_token()
        await self.db.call(self.db.store.accounts.new_session, account_id, session_hash(token))
        return token

    async def session(self, token: str | None) -> dict[str, Any] | None:
        """The account of a session token (None: none, unknown or expired)."""
        if not token or len(token) > 128:
            return None
        since = time.time() - self.settings.session_days * 86400
        return await self.db.call(
            self.db.store.accounts.session_account, session_hash(token), since
        )

    async def change_password(self, account_id: int, current: Any, new: Any, keep: str) -> None:
        """A new password (the current one checked); every other session of the account ends."""
        found = await self.db.call(self.db.store.accounts.account_by_id, account_id)
        assert found is not None
        await self.check_own_password(found, current)
        check_password(new, found["username"])
        hashed = await asyncio.to_thread(self.passwords.hash, new)
        await self.db.call(self.db.store.accounts.set_password, account_id, hashed)
        await self.db.call(self.db.store.accounts.drop_sessions, account_id, session_hash(keep))

    async def check_own_password(self, found: dict[str, Any], password: Any) -> None:
        ok = (
            isinstance(password, str)
            and len(password) <= MAX_PASSWORD
            and await asyncio.to_thread(self.passwords.verify, found["password_hash"], password)
        )
        if not ok:
            raise TableError("the password is not right", 403, "bad_password")
