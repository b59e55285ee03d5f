"""``kingscrib serve``: the web server (needs the ``web`` extra)."""

from __future__ import annotations

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
@click.option("--limit", "limits", multiple=True, metavar="NAME=VALUE",
              help="Change a limit (repeatable): rate_per_second, rate_burst, address_rate, "
                   "address_burst, sockets_per_address, games_per_hour, hints_waiting, "
                   "computer_games, reviews_waiting.")
@click.option("--idle-hours", default=168.0, show_default=True, type=click.FloatRange(min=0.001),
              help="Close a game nobody has played for this long (it is kept as a record).")
@click.option("--trust-proxy", default=None, metavar="ADDRESSES",
              help="Comma-separated addresses of reverse proxies whose X-Forwarded-For "
                   "names the client (limits then apply to the real client address).")
def serve(host: str, port: int, database_url: str | None, computer_delay: float,
          allow_seed: bool, log_level: str, limits: tuple[str, ...],
          idle_hours: float, trust_proxy: str | None) -> None:
    """Play Kings Cribbage or Cribbage in the browser: start the web server."""
    try:
        from kingscrib.web.app import Settings, run
        from kingscrib.web.limits import parse_limits
        from kingscrib.web.storage import default_url
    except ImportError as e:  # pragma: no cover - depends on the install
        raise click.ClickException(
            f"the web server needs the web extra: pip install 'kingscrib[web]' ({e})") from None
    url = database_url or default_url()
    shown = url.split("@")[-1] if "@" in url else url
    click.echo(f"Kingscrib: open http://{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}"
               f":{port}/ in your browser (database: {shown}). Ctrl+C stops the server.")
    try:
        limit_settings = parse_limits(limits)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--limit") from None
    run(host, port, Settings(database_url=url, computer_delay=computer_delay,
                             allow_seed=allow_seed, limits=limit_settings,
                             trusted_proxies=trust_proxy, idle_timeout=idle_hours * 3600),
        log_level=log_level)


COMMANDS = [serve]
