"""`parlour serve`'s settings from everywhere an operator keeps them (pydantic-settings).

Every field of `settings.Settings` (but `bot_limits`, a value made in code) comes, the first
source that has it winning, from:

1. the command line: `--host`, `--port`, `--database`, … and `--setting KEY=VALUE`;
2. an environment variable `PARLOUR_<KEY>` (`PARLOUR_MAX_TABLES=2000`);
3. a file named by `PARLOUR_<KEY>_FILE`, its text the value (a secret: the database's URL, the
   moderators' token; systemd's credentials and Docker's secrets are such files);
4. the settings file, TOML, named by `--config FILE` or `PARLOUR_CONFIG` (`max_tables = 2000`);
5. the default in `Settings`.

A password can stay out of the URLs: `database_password` and `bus_password` (from any source,
`PARLOUR_DATABASE_PASSWORD_FILE` most likely) are put into the database's and the bus's URLs.
Values are checked by type (a port is a whole number, `trust_forwarded` true or false) and a
bad one, or a key no setting has, is refused in words naming it.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any, get_type_hints
from urllib.parse import quote, urlsplit, urlunsplit

from pydantic import ValidationError, create_model
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from parlour.core import ParlourError

from .settings import Settings

__all__ = [
    "ENV_PREFIX",
    "SECRET_KEYS",
    "SKIPPED",
    "load_settings",
    "setting_names",
    "shown_settings",
]

ENV_PREFIX = "PARLOUR_"
SKIPPED = ("bot_limits",)  # set in code only (tests, tools): no text form
# shown as *** by `parlour serve --print-settings`; a URL shows all but its password
SECRET_KEYS = ("admin_token", "database_password", "bus_password")
PASSWORDS = {"database_password": "database", "bus_password": "bus"}


def setting_names() -> list[str]:
    return sorted(
        [f.name for f in fields(Settings) if f.name not in SKIPPED] + list(PASSWORDS),
    )


class FileSecrets(PydanticBaseSettingsSource):
    """`PARLOUR_<KEY>_FILE=/path`: the file's text is the setting (a trailing newline dropped)."""

    def __init__(self, settings_cls: type[BaseSettings], env: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        self.env = env

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # everything is read in __call__

    def __call__(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.settings_cls.model_fields:
            var = f"{ENV_PREFIX}{name.upper()}_FILE"
            path = self.env.get(var)
            if not path:
                continue
            try:
                out[name] = Path(path).read_text(encoding="utf-8").rstrip("\r\n")
            except OSError as exc:
                raise ParlourError(f"{var}={path}: cannot read it ({exc.strerror})") from None
        return out


class _Env(PydanticBaseSettingsSource):
    """`PARLOUR_<KEY>` from the given environment (not always os.environ: the tests pass
    their own)."""

    def __init__(self, settings_cls: type[BaseSettings], env: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        self.env = {k.upper(): v for k, v in env.items()}

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.settings_cls.model_fields:
            value = self.env.get(f"{ENV_PREFIX}{name.upper()}")
            if value is not None:
                out[name] = value
        return out


def _model(config: Path | None, env: Mapping[str, str], defaults: dict[str, Any]) -> Any:
    """A pydantic-settings model of `Settings`' fields, reading the sources in their order."""
    hints = get_type_hints(Settings)
    spec: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name in SKIPPED:
            continue
        default = f.default if f.default is not MISSING else None
        spec[f.name] = (hints[f.name], defaults.get(f.name, default))
    for name in PASSWORDS:
        spec[name] = (str | None, None)

    class Base(BaseSettings):
        model_config = SettingsConfigDict(extra="forbid", validate_default=False)

        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            sources: list[PydanticBaseSettingsSource] = [
                init_settings,  # the command line
                _Env(settings_cls, env),
                FileSecrets(settings_cls, env),
            ]
            if config is not None:
                sources.append(TomlConfigSettingsSource(settings_cls, toml_file=config))
            return tuple(sources)

    return create_model("ServeSettings", __base__=Base, **spec)


def _with_password(url: str | None, password: str | None) -> str | None:
    """A URL with its password set (`postgresql://parlour@host/db` + `s3cret`)."""
    if url is None or not password or "://" not in url:
        return url
    parts = urlsplit(url)
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    if parts.port is not None:
        host += f":{parts.port}"
    netloc = f"{quote(user, safe='')}:{quote(password, safe='')}@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _words(exc: ValidationError) -> str:
    said = []
    for e in exc.errors():
        where = ".".join(str(x) for x in e.get("loc", ())) or "settings"
        msg = e.get("msg", "not valid")
        if e.get("type") == "extra_forbidden":
            msg = f"no such setting (the settings: {', '.join(setting_names())})"
        said.append(f"{where}: {msg}")
    return "; ".join(said)


def load_settings(
    flags: Mapping[str, Any] | None = None,
    *,
    config: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    defaults: Mapping[str, Any] | None = None,
) -> Settings:
    """The server's settings: `flags` (the command line's, as given) over the environment
    (`env`, default os.environ), secret files, the settings file (`config`, or
    `PARLOUR_CONFIG`) and `defaults` over `Settings`' own. ParlourError says what is wrong."""
    env = os.environ if env is None else env
    path = config or env.get(f"{ENV_PREFIX}CONFIG") or None
    config_path = Path(path) if path else None
    if config_path is not None:
        try:
            with config_path.open("rb") as fh:
                tomllib.load(fh)
        except OSError as exc:
            raise ParlourError(f"settings file {config_path}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ParlourError(f"settings file {config_path} is not TOML: {exc}") from None
    model = _model(config_path, env, dict(defaults or {}))
    try:
        read = model(**dict(flags or {}))
    except ValidationError as exc:
        raise ParlourError(f"bad settings: {_words(exc)}") from None
    values = read.model_dump()
    for secret, key in PASSWORDS.items():
        values[key] = _with_password(values[key], values.pop(secret))
    return Settings(**values)


def shown_settings(settings: Settings) -> dict[str, Any]:
    """Settings to print: the moderators' token as ***, a URL without its password."""
    out: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name in SKIPPED:
            continue
        value = getattr(settings, f.name)
        if f.name in SECRET_KEYS and value:
            value = "***"
        elif isinstance(value, str) and "://" in value and "@" in value:
            parts = urlsplit(value)
            if parts.password:
                value = value.replace(f":{parts.password}@", ":***@", 1)
        out[f.name] = value
    return out
