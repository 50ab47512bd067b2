"""Reporting a chat line in the browser, as a player does: the line's "Report" button, reached by
keyboard and named for a screen reader, posts the report and says "Reported"; the server's
moderator reads it with `parlour admin reports` (the command itself, over HTTP) and removes the
line, which goes off every screen (docs/deploy.md, "Moderation")."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Server, ada_and_bob, shoot

TOKEN = "moderators-browser-test-token"
ENV = {"PARLOUR_ADMIN_TOKEN": TOKEN}


@pytest.fixture(scope="module")
def moderated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("moderated"), env=ENV)
    try:
        yield s
    finally:
        s.stop()


def parlour_admin(server: Server, *args: str) -> str:
    """`parlour admin` as a moderator types it, with the token from the environment."""
    done = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "admin", "--server", server.url, *args],
        env={**os.environ, **ENV},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def line_shown(page: Any, text: str) -> str:
    return (
        "[...document.querySelectorAll('#chat-lines .chat-text')]"
        f".some((e) => e.textContent === {text!r})"
    )


def say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def test_a_player_reports_a_line_and_the_moderator_reads_it_and_removes_it(
    browser: Any, moderated: Server
) -> None:
    ada, bob = ada_and_bob(browser, moderated)
    code = ada.evaluate("window.parlourTable.code")
    say(ada, "good luck")
    say(bob, "you play like a potato")
    for p in (ada, bob):
        p.wait_for_function(line_shown(p, "you play like a potato"))

    # one's own lines have no button; another's has one, named for a screen reader
    assert ada.locator("#chat-lines .chat-line[data-seat='0'] .chat-report").count() == 0
    button = ada.get_by_role("button", name="Report Bob's line to the moderators")
    assert button.count() == 1 and button.inner_text() == "Report"
    # reached by keyboard: Shift+Tab from the first quick reaction lands on it (the last line's)
    ada.focus(".chat-react >> nth=0")
    ada.keyboard.press("Shift+Tab")
    assert ada.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Report Bob's line to the moderators"
    )
    ada.keyboard.press("Enter")
    ada.get_by_role("button", name="Reported: Bob's line").wait_for()
    done = ada.locator("#chat-lines .chat-report").last
    assert done.inner_text() == "Reported" and done.get_attribute("aria-disabled") == "true"
    assert ada.evaluate("document.activeElement.dataset.report") is not None  # focus kept
    bob.get_by_role("button", name="Report Ada's line to the moderators").wait_for()
    bob.locator("#chat").scroll_into_view_if_needed()
    ada.locator("#chat").scroll_into_view_if_needed()
    shoot(ada, "chat-reported-desktop")
    shoot(bob, "chat-report-phone")

    out = parlour_admin(moderated, "reports")
    assert f"table {code}" in out
    assert "Bob (seat 2): you play like a potato" in out
    assert "reported by Ada (seat 1)" in out
    line_id = out.split(" line ", 1)[1].split()[0]

    assert "removed line" in parlour_admin(moderated, "remove-line", code, line_id)
    for p in (ada, bob):  # off every screen, and the other line stays
        p.wait_for_function(f"!({line_shown(p, 'you play like a potato')})")
        assert p.locator("#chat-lines .chat-text").all_inner_texts() == ["good luck"]
    assert parlour_admin(moderated, "reports").strip() == "No reports."
    for p in (ada, bob):
        p.context.close()
