"""Browser tests: Playwright driving Debian's Chromium against a parlour server started here.

Playwright cannot download its own browsers on this network, so it drives Debian's Chromium:
its headless shell (the package `chromium-headless-shell`, which `.ci/run` installs) where there
is one, else `/usr/bin/chromium` (the package `chromium`), or $PARLOUR_CHROMIUM. The shell is the
same Blink without the desktop browser around it, and what Playwright itself launches for
headless runs: the browser tests took about a third less CPU with it (docs/lab/test-suite.md).
Without a Chromium the tests skip with a loud reason on a user's machine and fail under CI=true.

Screenshots go to `build/screenshots/` (or $PARLOUR_SCREENSHOTS); the README shows copies of a run's
screenshots kept in `docs/screenshots/`.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the shell's binary itself, not /usr/bin's wrapper script: Playwright ends the process it started
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM = (
    os.environ.get("PARLOUR_CHROMIUM")
    or (HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else None)
    or shutil.which("chromium")
    or "/usr/bin/chromium"
)
SHOTS = Path(os.environ.get("PARLOUR_SCREENSHOTS") or ROOT / "build" / "screenshots")
PHONE = {"width": 390, "height": 844}
# Playwright's waits on a condition (`wait_for_function`) evaluate their text in the page, which
# the server's Content-Security-Policy refuses (no 'unsafe-eval'): the tests' browsers bypass it,
# and test_content_security_policy.py visits every page under the policy as a person's browser
# does.
DESKTOP = {"width": 1280, "height": 900}
# A table page has drawn its first message
TABLE_READY = "window.parlourTable && window.parlourTable.msg !== null"
# The flags a closed network needs: no background calls home, no first-run, no GPU.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def _chromium_problem() -> str | None:
    if not Path(CHROMIUM).exists():
        return (
            f"no Chromium at {CHROMIUM} (install Debian's package: "
            "apt-get install chromium-headless-shell)"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install -e '.[dev]')"
    return None


# Module scope, not session: while Playwright's sync API is open, its event loop runs in this
# thread, and any later test of the same worker that calls asyncio.run() fails ("cannot be called
# from a running event loop"); which tests follow a browser test depends on how xdist shares them
# out, so a session-long browser made failures that came and went with the machine's core count.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    problem = _chromium_problem()
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run under CI: {problem}")
        pytest.skip(f"SKIPPING BROWSER TESTS: {problem}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


class Server:
    """A `parlour serve` process on a free loopback port with its own SQLite file."""

    def __init__(
        self,
        tmp: Path,
        bot_delay: float = 0.05,
        env: dict[str, str] | None = None,
        host: str = "127.0.0.1",
        settings: list[str] | None = None,
    ) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"  # also with --host 0.0.0.0: tests stay local
        self.log = tmp / "server.log"
        cmd = [sys.executable, "-m", "parlour.cli", "serve", "--port", str(self.port)]
        cmd += ["--host", host]
        cmd += ["--database", f"sqlite:///{tmp / 'parlour.sqlite3'}", "--bot-delay", str(bot_delay)]
        cmd += ["--log-level", "warning"]
        # the tests open many tables from one address, some of bots only, quickly, and every
        # person in them sits down from that address too (a module's tables stay open)
        for setting in ("tables_per_minute=100000", "tables_per_client=100000",
                        "bot_table_min_delay=0", "joins_per_minute=100000",
                        "seats_per_client=100000",
                        *(settings or ())):  # fmt: skip
            cmd += ["--setting", setting]
        self.proc = subprocess.Popen(
            cmd,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            cwd=tmp,
            env={**os.environ, **(env or {})},
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()}")
            try:
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start in 30 s")

    def api(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path, data=data, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("server"))
    try:
        yield s
    finally:
        s.stop()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "reduced_motion: the test's `page` asks for no animation (`prefers-reduced-motion`), as "
        "some people's browsers do",
    )


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh browser context (its own localStorage: a different person) at desktop size;
    without animations for a test marked `reduced_motion`."""
    still = request.node.get_closest_marker("reduced_motion") is not None
    ctx = browser.new_context(
        viewport=DESKTOP, bypass_csp=True, reduced_motion="reduce" if still else "no-preference"
    )
    p = ctx.new_page()
    p.set_default_timeout(15_000)
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield p
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def watch_policy(page: Any) -> list[str]:
    """What the browser refused under the server's Content-Security-Policy (an inline style, a
    script from elsewhere), as it reports it on the console: the pages must need nothing of it."""
    refused: list[str] = []

    def seen(msg: Any) -> None:
        if "Content Security Policy" in msg.text:
            refused.append(msg.text)

    page.on("console", seen)
    return refused


def new_person(browser: Any, viewport: dict[str, int] | None = None) -> Any:
    """Another person's browser (a new context) — for two people at one table."""
    ctx = browser.new_context(viewport=viewport or DESKTOP, bypass_csp=True)
    p = ctx.new_page()
    p.set_default_timeout(15_000)
    return p


def open_table(
    page: Any,
    server: Server,
    game: str,
    *,
    preset: str | None = None,
    players: int | None = None,
    bots: str = "random",
    name: str = "Ada",
    friends: int = 0,
) -> str:
    """Open a table through the lobby form, as a person would; returns the table code.

    The first `friends` seats after the host are left for invited friends; the rest get `bots`.
    """
    page.goto(server.url + "/")
    page.select_option("#game", game)
    if preset:
        page.select_option("#preset", preset)
    if players:
        page.select_option("#players", str(players))
    for i, sel in enumerate(page.locator("select[data-seat]").all()):
        sel.select_option("" if i < friends else bots)
    page.fill("#name", name)
    page.click("#create")
    page.wait_for_url("**/t/*")
    code: str = page.url.rsplit("/", 1)[1]
    return code


def ada_and_bob(browser: Any, server: Server) -> tuple[Any, Any]:
    """Ada opens a Whot! table for two at a desktop; Bob joins it from a phone by its link."""
    host = new_person(browser)
    code = open_table(host, server, "whot", players=2, friends=1)
    friend = new_person(browser, PHONE)
    friend.goto(f"{server.url}/t/{code}")
    friend.fill("#join-name", "Bob")
    friend.click("#join-btn")
    for p in (host, friend):
        p.wait_for_function(TABLE_READY)
    return host, friend


def drawn(page: Any) -> None:
    """Wait until the page has drawn what it was last told: two animation frames (the layout of a
    resized page recomputed), and at a table its animations played out."""
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_function(
        "(() => { const t = window.parlourTable; return !t || (!t.motion.busy && !t.pumping); })()",
        timeout=60_000,
    )


def more_options(page: Any) -> None:
    """Unfold the lobby form's "More options" (bot speed, clock, match, privacy, rated), as a
    person taps it open."""
    if page.locator("#more-options:not([open])").count():
        page.click("#more-options > summary")


def shoot(page: Any, name: str) -> Path:
    """Save a screenshot of the page as build/screenshots/NAME.png (full page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


MY_TURN_OR_OVER = (
    "window.parlourTable && window.parlourTable.msg && "
    "(window.parlourTable.msg.legal.length > 0 || !!window.parlourTable.msg.result)"
)


def msg(page: Any) -> dict[str, Any]:
    m: dict[str, Any] = page.evaluate("window.parlourTable.msg")
    return m


def wait_turn(page: Any, after: int = -1, timeout: float = 30_000) -> dict[str, Any]:
    """Wait until it is this seat's turn (or the game is over) at a ply beyond `after`."""
    page.wait_for_function(
        f"({MY_TURN_OR_OVER}) && window.parlourTable.msg.ply > {after}", timeout=timeout
    )
    return msg(page)


def wait_my_turn(page: Any, timeout: float = 20_000) -> None:
    page.wait_for_selector("#turn.mine", timeout=timeout)
