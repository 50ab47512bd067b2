"""`parlour serve`'s settings from flags, the environment, secret files and a settings file: each
setting from the first source that has it (flags, PARLOUR_<KEY>, PARLOUR_<KEY>_FILE, the TOML
file, the default), checked by type, refused in words (server/configuration.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from parlour.core import ParlourError
from parlour.server.cli import add_commands, settings_from
from parlour.server.configuration import load_settings, shown_settings
from parlour.server.settings import DEFAULT_DATABASE, Settings


def serve_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command"), {})
    return parser.parse_args(["serve", *argv])


def test_with_no_source_every_setting_is_its_default() -> None:
    s = settings_from(serve_args(), env={})
    assert s.database == DEFAULT_DATABASE and s.port == 8000 and s.host == "127.0.0.1"
    assert s.max_tables == Settings().max_tables and s.role == "all"
    assert s.freeze_gc is True  # a serving process's own default (server/collector.py)


def test_the_environment_sets_any_setting_and_a_flag_wins_over_it() -> None:
    env = {"PARLOUR_MAX_TABLES": "2000", "PARLOUR_PORT": "8123", "PARLOUR_TRUST_FORWARDED": "true"}
    s = settings_from(serve_args(), env=env)
    assert (s.max_tables, s.port, s.trust_forwarded) == (2000, 8123, True)
    s = settings_from(serve_args("--port", "9000", "--setting", "max_tables=7"), env=env)
    assert (s.max_tables, s.port) == (7, 9000)


def test_a_settings_file_is_below_the_environment_and_the_flags(tmp_path: Path) -> None:
    config = tmp_path / "parlour.toml"
    config.write_text('max_tables = 300\nwaiting_ttl = 600.5\nbus = "redis://10.0.0.1:6379/0"\n')
    s = settings_from(serve_args("--config", str(config)), env={})
    assert (s.max_tables, s.waiting_ttl, s.bus) == (300, 600.5, "redis://10.0.0.1:6379/0")
    s = settings_from(serve_args(), env={"PARLOUR_CONFIG": str(config), "PARLOUR_MAX_TABLES": "9"})
    assert (s.max_tables, s.waiting_ttl) == (9, 600.5)
    s = settings_from(serve_args("--config", str(config), "--setting", "waiting_ttl=5"), env={})
    assert s.waiting_ttl == 5.0


def test_secrets_come_from_files_and_a_password_joins_its_url(tmp_path: Path) -> None:
    token = tmp_path / "admin-token"
    token.write_text("x" * 40 + "\n")
    password = tmp_path / "db-password"
    password.write_text("p@ss:w/rd\n")
    env = {
        "PARLOUR_ADMIN_TOKEN_FILE": str(token),
        "PARLOUR_DATABASE": "postgresql://parlour@10.0.0.1:5433/parlour",
        "PARLOUR_DATABASE_PASSWORD_FILE": str(password),
        "PARLOUR_BUS": "redis://10.0.0.1:6379/0",
        "PARLOUR_BUS_PASSWORD": "bus-secret",
    }
    s = settings_from(serve_args(), env=env)
    assert s.admin_token == "x" * 40  # the file's newline is not part of it
    assert s.database == "postgresql://parlour:p%40ss%3Aw%2Frd@10.0.0.1:5433/parlour"
    assert s.bus == "redis://:bus-secret@10.0.0.1:6379/0"
    from sqlalchemy.engine import make_url

    assert make_url(s.database).password == "p@ss:w/rd"  # as the driver reads it back
    shown = shown_settings(s)
    assert shown["admin_token"] == "***" and "p%40ss" not in shown["database"]
    assert "bus-secret" not in shown["bus"]


@pytest.mark.parametrize(
    ("env", "argv", "words"),
    [
        ({"PARLOUR_PORT": "eighty"}, (), "port: Input should be a valid integer"),
        ({"PARLOUR_TRUST_FORWARDED": "maybe"}, (), "trust_forwarded: Input should be a valid"),
        ({}, ("--setting", "max_tables"), "use KEY=VALUE with a KEY of"),
        ({}, ("--setting", "no_such=1"), "use KEY=VALUE with a KEY of"),
        ({"PARLOUR_ADMIN_TOKEN_FILE": "/nonexistent/token"}, (), "cannot read it"),
    ],
)
def test_a_bad_setting_is_refused_in_words(
    env: dict[str, str], argv: tuple[str, ...], words: str
) -> None:
    with pytest.raises(ParlourError, match=words):
        settings_from(serve_args(*argv), env=env)


def test_a_settings_file_with_an_unknown_key_or_no_toml_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("max_tabels = 3\n")
    with pytest.raises(ParlourError, match="max_tabels: no such setting"):
        load_settings(config=bad, env={})
    broken = tmp_path / "broken.toml"
    broken.write_text("max_tables = \n")
    with pytest.raises(ParlourError, match="is not TOML"):
        load_settings(config=broken, env={})
    with pytest.raises(ParlourError, match=r"settings file .*missing\.toml"):
        load_settings(config=tmp_path / "missing.toml", env={})


def test_print_settings_shows_every_setting_with_secrets_hidden(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from parlour.cli import main

    monkeypatch.setenv("PARLOUR_ADMIN_TOKEN", "t" * 40)
    monkeypatch.setenv("PARLOUR_WAITING_TTL", "77")
    assert main(["serve", "--print-settings", "--database", str(tmp_path / "x.db")]) == 0
    out = capsys.readouterr().out
    assert "waiting_ttl = 77.0" in out and 'admin_token = "***"' in out
    assert "t" * 40 not in out
    assert not (tmp_path / "x.db").exists()  # printed only: nothing opened
