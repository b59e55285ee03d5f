"""Correspondence: the *Your turn* list, its page, and an account's e-mail for turn
notices (kingscrib.web.mail.your_turn, kingscrib.web.mail.turn_mail)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from kingscrib.web import pages
from kingscrib.web.accounts.deps import logged_in_account, session_account
from kingscrib.web.accounts.routes import HeldSeat
from kingscrib.web.errors import WebError
from kingscrib.web.mail import turn_mail
from kingscrib.web.mail.schemas import EmailSettings, YourTurn
from kingscrib.web.mail.your_turn import MAX_GAMES, your_turn
from kingscrib.web.play.deps import get_hub
from kingscrib.web.play.rooms import Hub

log = logging.getLogger("kingscrib.web")
router = APIRouter(tags=["correspondence"])


class Held(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[HeldSeat] = Field(default_factory=list, max_length=MAX_GAMES)


class Email(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: str | None = Field(default=None, max_length=1000)
    turn_mail: bool = False


@router.get("/your-turn", include_in_schema=False)
async def page() -> HTMLResponse:
    return pages.render("your_turn")


@router.post("/api/your-turn")
async def waiting_for_you(body: Held, request: Request, hub: Hub = Depends(get_hub)
                          ) -> YourTurn:
    """The games waiting for the caller's move: the logged-in account's seats and the
    guest seats whose tokens come in the body (this browser's)."""
    account, _ = await session_account(hub, request.cookies)
    games = await your_turn(hub, account.id if account else None,
                            [(s.game_id, s.token) for s in body.seats])
    return YourTurn.model_validate({"games": games})


@router.get("/api/account/email")
async def read_email(request: Request, hub: Hub = Depends(get_hub)) -> EmailSettings:
    """The account's e-mail address (None: none given) and whether it wants turn notices;
    ``mail_configured``: whether this server sends any."""
    account = await logged_in_account(request, hub)
    found = await hub.db_call(turn_mail.email_of, hub.store.engine, account.id)
    return EmailSettings.model_validate(
        {**found, "mail_configured": request.app.state.settings.mail is not None})


@router.put("/api/account/email")
async def set_email(body: Email, request: Request, hub: Hub = Depends(get_hub)
                    ) -> EmailSettings:
    """Give, change or remove (``address`` null) the account's e-mail address, and ask
    for a notice per turn in correspondence games or not. A new address is sent a link
    that confirms it; no notice goes to it before (``confirmed``)."""
    account = await logged_in_account(request, hub, write=True)
    address = None if body.address in (None, "") else turn_mail.check_address(body.address)
    if body.turn_mail and address is None:
        raise WebError(400, "turn notices need an e-mail address")
    token = await hub.db_call(turn_mail.set_email, hub.store.engine, account.id, address,
                              body.turn_mail)
    settings = request.app.state.settings.mail
    if token is not None and address is not None and settings is not None:
        message = turn_mail.confirmation(settings, address, token)
        hub.background.start(_send(settings, message))
    return await read_email(request, hub)


async def _send(settings: turn_mail.MailSettings, message: Any) -> None:
    try:
        await asyncio.to_thread(turn_mail.send, settings, message)
    except Exception as e:  # a mail server away: the account may save its address again
        log.warning("a confirmation mail was not sent: %s", e)


@router.get("/api/account/email/confirm", response_class=HTMLResponse, include_in_schema=False)
async def confirm_email(token: str = Query(default="", max_length=100),
                        hub: Hub = Depends(get_hub)) -> HTMLResponse:
    """The link of a confirmation mail: its address gets turn notices from now on."""
    if not await hub.db_call(turn_mail.confirm, hub.store.engine, token):
        return HTMLResponse("<!doctype html><title>Kingscrib</title><p>This link does not"
                            " confirm any address (it was used already, or the address was"
                            " changed since).</p>", status_code=404)
    return HTMLResponse("<!doctype html><title>Kingscrib</title><p>Your e-mail address is"
                        " confirmed: turn notices go to it while your account asks for"
                        " them.</p>")
