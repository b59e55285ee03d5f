"""Every JSON route of the API declares the model of its reply: FastAPI checks each reply
against it and the OpenAPI document (/openapi.json) describes it. The few routes that
answer something else are named below with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel
from web_support import https_client

from kingscrib.puzzles.puzzle import shipped
from kingscrib.web import Settings, create_app
from kingscrib.web.accounts import sessions

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# "METHOD path" of the routes that answer no JSON model, and why.
NO_MODEL = {
    "GET /api/games/{game_id}/record": "a file download (Content-Disposition: attachment):"
                                       " the game record exactly as the engine writes it",
    "GET /metrics": "Prometheus's text format",
}


def api_routes() -> dict[str, APIRoute]:
    app = create_app(Settings(database_url="sqlite://"))
    routes: dict[str, APIRoute] = {}
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if isinstance(route, APIRoute):
            for method in route.methods:
                routes[f"{method} {route.path}"] = route
    return routes


def is_html_page(route: APIRoute) -> bool:
    returns = route.endpoint.__annotations__.get("return")
    return returns in (HTMLResponse, "HTMLResponse")


def test_every_json_route_declares_a_pydantic_response_model() -> None:
    routes = api_routes()
    assert len(routes) > 60  # the walk found the routers' routes, not only the app's own
    without = []
    for key, route in sorted(routes.items()):
        if key in NO_MODEL or is_html_page(route):
            continue
        model = route.response_model
        models = get_args(model) or (model,)  # one model, or a union of models
        if not all(isinstance(m, type) and issubclass(m, BaseModel) for m in models):
            without.append(f"{key} ({route.endpoint.__module__}.{route.name}): {model!r}")
    assert without == [], "JSON routes without a response model:\n" + "\n".join(without)


def test_the_exceptions_are_real_and_answer_no_model() -> None:
    routes = api_routes()
    for key in NO_MODEL:
        assert key in routes, f"{key} is listed as an exception but is no route"
        assert routes[key].response_model is None, f"{key} has a model now: drop it here"
    pages = [key for key, route in routes.items() if is_html_page(route)]
    assert "GET /" in pages and "GET /tournaments/{tournament_id}" in pages
    for key in pages:  # a page is HTML and stays out of the API's document
        assert not routes[key].include_in_schema, key


def test_the_openapi_document_describes_every_json_reply() -> None:
    routes = api_routes()
    document = create_app(Settings(database_url="sqlite://")).openapi()
    schemas = document["components"]["schemas"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            key = f"{method.upper()} {path}"
            if key in NO_MODEL:
                continue
            status = str(routes[key].status_code or 200)
            schema = operation["responses"][status]["content"]["application/json"]["schema"]
            one_of = schema.get("anyOf", [schema])  # a reply of one of several models
            names = [each.get("$ref", "").rpartition("/")[2] for each in one_of]
            model = routes[key].response_model
            models = get_args(model) or (model,)
            assert names == [m.__name__ for m in models], (key, schema)
            for name in names:  # a model that names its fields, not an empty object
                assert schemas[name]["properties"], (key, name)


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    with https_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        yield c


def test_private_replies_still_say_no_store_and_set_the_session_cookie(client: Any) -> None:
    guest = client.get("/api/account")
    assert guest.json() == {"name": None}
    assert guest.headers["cache-control"] == "no-store"
    signed = client.post("/api/account/signup", json={"name": "Ann",
                                                      "password": "correct horse battery"})
    assert signed.status_code == 201
    assert signed.headers["cache-control"] == "no-store"
    session = signed.cookies[sessions.COOKIE]
    assert set(signed.json()) == {"name", "csrf", "seats"}
    assert signed.json()["csrf"] == sessions.csrf_token(session)
    me = client.get("/api/account")
    assert set(me.json()) == {"name", "csrf", "id", "moderator", "banned"}
    assert me.headers["cache-control"] == "no-store"
    progress = client.get("/api/learn-progress")
    assert progress.status_code == 200 and progress.headers["cache-control"] == "no-store"
    puzzle = shipped("kings")[0]
    one = client.get(f"/api/puzzles/{puzzle.id}")
    assert one.headers["cache-control"] == "no-store"
    assert "daily" not in one.json()["puzzle"]  # the daily puzzle's day only on /daily
    daily = client.get("/api/puzzles/daily?game=kings").json()["puzzle"]
    assert set(daily) - set(one.json()["puzzle"]) == {"daily"}
    logged_out = client.post("/api/account/logout",
                             headers={sessions.CSRF_HEADER: sessions.csrf_token(session)})
    assert logged_out.json() == {"name": None}
    assert sessions.COOKIE in logged_out.headers["set-cookie"]
    assert client.get("/api/account").json() == {"name": None}
