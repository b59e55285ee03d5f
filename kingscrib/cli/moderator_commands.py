"""``kingscrib moderator``: grant or take back the moderator role on the server's database."""

from __future__ import annotations

import click

from kingscrib.cli.web_commands import _DATABASE_URL, _shown


@click.group("moderator")
def moderator() -> None:
    """Moderators of the web server: they see reported chat messages, hide messages and
    ban accounts (on the page /moderate)."""


def _store(database_url: str | None):  # noqa: ANN202 - the web extra may be missing
    try:
        from kingscrib.web.db.storage import Store, default_url
    except ImportError as e:  # pragma: no cover - depends on the install
        raise click.ClickException(
            f"moderators need the web extra: pip install 'kingscrib[web]' ({e})") from None
    url = database_url or default_url()
    return Store(url), url


def _set(name: str, database_url: str | None, on: bool) -> None:
    from kingscrib.web.accounts import moderation

    store, url = _store(database_url)
    try:
        found = moderation.account_named(store.engine, name)
        if found is None:
            raise click.ClickException(f"no account is named {name!r} on {_shown(url)}")
        changed = moderation.set_moderator(store.engine, found[0], on)
    finally:
        store.close()
    if on:
        click.echo(f"{found[1]} is a moderator" + ("" if changed else " already"))
    else:
        click.echo(f"{found[1]} is no longer a moderator" if changed
                   else f"{found[1]} was not a moderator")


@moderator.command("grant")
@click.argument("name")
@_DATABASE_URL
def grant(name: str, database_url: str | None) -> None:
    """Make the account NAME a moderator."""
    _set(name, database_url, True)


@moderator.command("revoke")
@click.argument("name")
@_DATABASE_URL
def revoke(name: str, database_url: str | None) -> None:
    """Take the moderator role back from the account NAME."""
    _set(name, database_url, False)
