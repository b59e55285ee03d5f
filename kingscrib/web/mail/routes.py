"""Correspondence: the *Your turn* list, its page, and an account's e-mail for turn
notices (kingscrib.web.mail.your_turn, kingscrib.web.mail.turn_mail)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from kingscrib.web import pages
from kingscrib.web.accounts.routes import HeldSeat
from kingscrib.web.errors import WebError
from kingscrib.web.mail import turn_mail
from kingscrib.web.mail.your_turn import MAX_GAMES, your_turn
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server.deps import get_hub, logged_in_account, session_account

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
                          ) -> dict[str, Any]:
    """The games waiting for the caller's move: the logged-in account's seats and the
    guest seats whose tokens come in the body (this browser's)."""
    account, _ = await session_account(hub, request.cookies)
    games = await your_turn(hub, account.id if account else None,
                            [(s.game_id, s.token) for s in body.seats])
    return {"games": games}


@router.get("/api/account/email")
async def read_email(request: Request, hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """The account's e-mail address (None: none given) and whether it wants turn notices;
    ``mail_configured``: whether this server sends any."""
    account = await logged_in_account(request, hub)
    found = await hub.db_call(turn_mail.email_of, hub.store.engine, account.id)
    return {**found, "mail_configured": request.app.state.settings.mail is not None}


@router.put("/api/account/email")
async def set_email(body: Email, request: Request, hub: Hub = Depends(get_hub)
                    ) -> dict[str, Any]:
    """Give, change or remove (``address`` null) the account's e-mail address, and ask
    for a notice per turn in correspondence games or not. The address is not verified."""
    account = await logged_in_account(request, hub, write=True)
    address = None if body.address in (None, "") else turn_mail.check_address(body.address)
    if body.turn_mail and address is None:
        raise WebError(400, "turn notices need an e-mail address")
    await hub.db_call(turn_mail.set_email, hub.store.engine, account.id, address,
                      body.turn_mail)
    return await read_email(request, hub)
