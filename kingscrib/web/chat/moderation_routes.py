"""The moderators' API: reported messages, hiding them, banning accounts.

Every call needs a logged-in moderator (``kingscrib moderator grant NAME``); writes
also need the page's CSRF token. The page is ``/moderate``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from kingscrib.web import pages
from kingscrib.web.accounts import fair, moderation
from kingscrib.web.accounts.deps import logged_in_account
from kingscrib.web.accounts.hooks import AccountHooks, account_hooks
from kingscrib.web.chat import store as chat_store
from kingscrib.web.chat.moderation import open_reports
from kingscrib.web.chat.schemas import (
    Banned,
    Bans,
    Dismissed,
    Flags,
    Hidden,
    Reports,
    Unbanned,
)
from kingscrib.web.db.row_ids import BodyId, PathId
from kingscrib.web.errors import WebError
from kingscrib.web.play.deps import get_hub
from kingscrib.web.play.rooms import Hub

router = APIRouter(tags=["moderation"])


class Ban(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=400)
    message_id: BodyId | None = None  # ban whoever sent this message
    reason: str = Field(default="", max_length=moderation.MAX_REASON)


async def moderator(request: Request, hub: Hub, write: bool = False) -> Any:
    """The logged-in moderator; 401 when not logged in, 403 when not a moderator."""
    account = await logged_in_account(request, hub, write)
    if not await hub.db_call(moderation.is_moderator, hub.store.engine, account.id):
        raise WebError(403, "this is for moderators only")
    return account


@router.get("/moderate", include_in_schema=False)
async def page() -> HTMLResponse:
    return pages.render("moderate")


@router.get("/api/moderation/reports")
async def reports(request: Request, hub: Hub = Depends(get_hub)) -> Reports:
    await moderator(request, hub)
    found = await hub.db_call(open_reports, hub.store.engine)
    return Reports.model_validate({"reports": found})


@router.post("/api/moderation/messages/{message_id}/hide")
async def hide(message_id: PathId, request: Request, hub: Hub = Depends(get_hub)
               ) -> Hidden:
    """Hide a message for everyone (its open reports are dealt with)."""
    await moderator(request, hub, write=True)
    message = await hub.db_call(chat_store.hide, hub.store.engine, message_id)
    if message is None:
        raise WebError(404, "no such message")
    await request.app.state.chat.hidden(message)
    return Hidden(hidden=message_id)


@router.post("/api/moderation/reports/{report_id}/dismiss")
async def dismiss(report_id: PathId, request: Request, hub: Hub = Depends(get_hub)
                  ) -> Dismissed:
    """Deal with a report without hiding its message."""
    await moderator(request, hub, write=True)
    if not await hub.db_call(chat_store.resolve, hub.store.engine, report_id):
        raise WebError(404, "no such open report")
    return Dismissed(dismissed=report_id)


@router.get("/api/moderation/flags")
async def flags(request: Request, hub: Hub = Depends(get_hub)) -> Flags:
    """Rated games played unrated because their accounts share an address or a browser
    (kingscrib.web.accounts.fair), newest first."""
    await moderator(request, hub)
    return Flags.model_validate({"flags": await hub.db_call(fair.flags, hub.store.engine)})


@router.get("/api/moderation/bans")
async def bans(request: Request, hub: Hub = Depends(get_hub)) -> Bans:
    await moderator(request, hub)
    return Bans.model_validate({"bans": await hub.db_call(moderation.banned, hub.store.engine)})


@router.post("/api/moderation/bans", status_code=201)
async def ban(body: Ban, request: Request, hub: Hub = Depends(get_hub),
              hooks: AccountHooks = Depends(account_hooks)) -> Banned:
    """Ban an account, named or as the sender of a message: it can no longer log in,
    chat, seek, nor create or join games."""
    me = await moderator(request, hub, write=True)
    engine = hub.store.engine
    if (body.name is None) == (body.message_id is None):
        raise WebError(400, "name the account, or the message whose sender is banned")
    if body.message_id is not None:
        account_id = await hub.db_call(chat_store.sender_account, engine, body.message_id)
        if account_id is None:
            raise WebError(400, "that message's sender is a guest, not an account:"
                                " hide the message instead")
    else:
        found = await hub.db_call(moderation.account_named, engine, body.name)
        if found is None:
            raise WebError(404, f"no account is named {body.name!r}")
        account_id = found[0]
    if account_id == me.id:
        raise WebError(400, "you cannot ban yourself")
    if not await hub.db_call(moderation.ban, engine, account_id, me.id, body.reason):
        raise WebError(409, "that account is banned already")
    # It leaves every tournament not finished (never paired again, no bye).
    left = await hub.db_call(hooks.withdraw_banned, engine, account_id)
    return Banned(banned=account_id, withdrawn_from=left)


@router.delete("/api/moderation/bans/{account_id}")
async def unban(account_id: PathId, request: Request, hub: Hub = Depends(get_hub)
                ) -> Unbanned:
    await moderator(request, hub, write=True)
    if not await hub.db_call(moderation.unban, hub.store.engine, account_id):
        raise WebError(404, "that account is not banned")
    return Unbanned(unbanned=account_id)
