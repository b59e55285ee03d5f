"""``kingscrib serve``: the web server (needs the ``web`` extra)."""

from __future__ import annotations

import os
from typing import Any

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--database-url", envvar="KINGSCRIB_DATABASE_URL", default=None,
              help="SQLAlchemy URL, e.g. postgresql+psycopg://user:pw@host/db "
                   "(default: SQLite in the data folder; env KINGSCRIB_DATABASE_URL).")
@click.option("--computer-delay", default=0.4, show_default=True, type=click.FloatRange(0, 10),
              help="Seconds a computer seat waits before it moves.")
@click.option("--allow-seed", is_flag=True, hidden=True,
              help="Let new games choose their seed (tests and benchmarks only).")
@click.option("--log-level", default="warning", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@click.option("--log-format", default="text", show_default=True,
              type=click.Choice(["text", "json"]),
              help="json: one JSON object a line (for a log collector); secrets redacted "
                   "either way.")
@click.option("--limit", "limits", multiple=True, metavar="NAME=VALUE",
              help="Change a limit (repeatable): rate_per_second, rate_burst, address_rate, "
                   "address_burst, sockets_per_address, games_per_hour, hints_waiting, "
                   "computer_games, reviews_waiting, computer_moves_per_second; "
                   "unrate_shared_addresses=no rates games between accounts of one address.")
@click.option("--idle-hours", default=168.0, show_default=True, type=click.FloatRange(min=0.001),
              help="Close a game nobody has played for this long (it is kept as a record).")
@click.option("--trust-proxy", default=None, metavar="ADDRESSES",
              help="Comma-separated addresses (or networks) of reverse proxies whose "
                   "X-Forwarded-For names the client (limits then apply to the real client "
                   "address). Every address (*, 0.0.0.0/0) is refused: see docs/deploy.md.")
@click.option("--trust-any-proxy", is_flag=True,
              help="Allow --trust-proxy '*': only when nothing but the proxy can reach "
                   "the server.")
@click.option("--header-timeout", default=10.0, show_default=True,
              type=click.FloatRange(min=0.1),
              help="Seconds a request's headers may take (408 and closed past it).")
@click.option("--body-timeout", default=30.0, show_default=True,
              type=click.FloatRange(min=0.1),
              help="Seconds a request's body may take after its headers.")
@click.option("--keep-alive-timeout", default=5.0, show_default=True,
              type=click.FloatRange(min=0.1),
              help="Seconds an idle connection is kept open for its next request.")
@click.option("--connections-per-address", default=64, show_default=True,
              type=click.IntRange(min=1),
              help="HTTP connections one client address may hold open at once "
                   "(a trusted proxy's are not counted).")
@click.option("--smtp-host", envvar="KINGSCRIB_SMTP_HOST", default=None,
              help="SMTP server for the turn notices of correspondence games (none: no "
                   "e-mail is sent; env KINGSCRIB_SMTP_HOST). A user and password, if it "
                   "needs them, come from KINGSCRIB_SMTP_USER and KINGSCRIB_SMTP_PASSWORD.")
@click.option("--smtp-port", envvar="KINGSCRIB_SMTP_PORT", default=25, show_default=True,
              type=click.IntRange(1, 65535), help="The SMTP server's port.")
@click.option("--smtp-from", envvar="KINGSCRIB_SMTP_FROM", default="kingscrib@localhost",
              show_default=True, help="The notices' From address.")
@click.option("--smtp-starttls", envvar="KINGSCRIB_SMTP_STARTTLS", is_flag=True,
              help="Use STARTTLS with the SMTP server.")
@click.option("--site-url", envvar="KINGSCRIB_SITE_URL", default=None,
              help="The address players open, for the links in e-mails "
                   "(default: http://HOST:PORT).")
def serve(host: str, port: int, database_url: str | None, computer_delay: float,
          allow_seed: bool, log_level: str, log_format: str, limits: tuple[str, ...],
          idle_hours: float, trust_proxy: str | None, trust_any_proxy: bool,
          header_timeout: float, body_timeout: float, keep_alive_timeout: float,
          connections_per_address: int, smtp_host: str | None, smtp_port: int,
          smtp_from: str, smtp_starttls: bool, site_url: str | None) -> None:
    """Play Kings Cribbage or Cribbage in the browser: start the web server."""
    try:
        from kingscrib.web.app.factory import Settings, run
        from kingscrib.web.db.storage import default_url
        from kingscrib.web.mail.turn_mail import MailSettings
        from kingscrib.web.server.connections import ConnectionSettings
        from kingscrib.web.server.limits import parse_limits
        from kingscrib.web.server.proxies import UnsafeProxies, parse_proxies
    except ImportError as e:  # pragma: no cover - depends on the install
        raise click.ClickException(
            f"the web server needs the web extra: pip install 'kingscrib[web]' ({e})") from None
    if trust_proxy is not None:
        try:
            proxies = parse_proxies(trust_proxy, any_allowed=trust_any_proxy)
        except UnsafeProxies as e:
            raise click.BadParameter(str(e), param_hint="--trust-proxy") from None
        for warning in proxies.warnings(host):
            click.echo(f"Warning: {warning}.", err=True)
    elif trust_any_proxy:
        raise click.BadParameter("--trust-any-proxy goes with --trust-proxy '*'",
                                 param_hint="--trust-any-proxy")
    url = database_url or default_url()
    if log_format == "text":  # (a JSON log holds JSON lines only: uvicorn says where)
        click.echo(f"Kingscrib: open http://"
                   f"{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{port}/ in your"
                   f" browser (database: {_shown(url)}). Ctrl+C stops the server.")
    try:
        limit_settings = parse_limits(limits)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--limit") from None
    run(host, port, Settings(database_url=url, computer_delay=computer_delay,
                             allow_seed=allow_seed, limits=limit_settings,
                             trusted_proxies=trust_proxy, trust_any_proxy=trust_any_proxy,
                             idle_timeout=idle_hours * 3600,
                             connections=ConnectionSettings(
                                 header_timeout=header_timeout, body_timeout=body_timeout,
                                 keep_alive_timeout=keep_alive_timeout,
                                 per_address=connections_per_address),
                             mail=None if not smtp_host else MailSettings(
                                 smtp_host, smtp_port, smtp_from,
                                 site_url or f"http://{host}:{port}", smtp_starttls,
                                 os.environ.get("KINGSCRIB_SMTP_USER"),
                                 os.environ.get("KINGSCRIB_SMTP_PASSWORD"))),
        log_level=log_level, log_format=log_format)


_DATABASE_URL = click.option(
    "--database-url", envvar="KINGSCRIB_DATABASE_URL", default=None,
    help="The server's database (as for kingscrib serve; env KINGSCRIB_DATABASE_URL).")


@click.group("db")
def db() -> None:
    """The web server's database: its schema revision, and upgrading it."""


@db.command("upgrade")
@_DATABASE_URL
def db_upgrade(database_url: str | None) -> None:
    """Migrate the database to this kingscrib's newest schema and stop (kingscrib serve
    does it on start too; a database from before migrations keeps every game)."""
    engine, url = _engine(database_url)
    from kingscrib.web.db import schema

    try:
        before = schema.current(engine)
        after = schema.upgrade(engine)
    except schema.SchemaTooNew as e:
        raise click.ClickException(str(e)) from None
    finally:
        engine.dispose()
    said = "already at" if before == after else f"upgraded from {before or 'no revision'} to"
    click.echo(f"{_shown(url)}: {said} schema revision {after}")


@db.command("current")
@_DATABASE_URL
def db_current(database_url: str | None) -> None:
    """Say the database's schema revision and this kingscrib's newest; exit status 1
    when the database needs ``kingscrib db upgrade``."""
    engine, url = _engine(database_url)
    from kingscrib.web.db import schema

    try:
        found = schema.current(engine)
    finally:
        engine.dispose()
    newest = schema.head()
    click.echo(f"{_shown(url)}: schema revision {found or 'none'} (newest: {newest})")
    if found != newest:
        raise SystemExit(1)


def _engine(database_url: str | None) -> tuple[Any, str]:
    """An engine on the server's database (not the server's Store: no pool settings,
    nothing started), and its URL."""
    try:
        from sqlalchemy import create_engine

        from kingscrib.web.db.storage import default_url, postgres_driver
    except ImportError as e:  # pragma: no cover - depends on the install
        raise click.ClickException(
            f"the database commands need the web extra: pip install 'kingscrib[web]' ({e})"
        ) from None
    url = postgres_driver(database_url or default_url())
    return create_engine(url), url


def _shown(url: str) -> str:
    """The URL without its user and password."""
    return url.split("@")[-1] if "@" in url else url


COMMANDS = [serve, db]
