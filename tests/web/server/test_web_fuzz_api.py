"""schemathesis against the server's OpenAPI schema: every endpoint, generated requests
(valid and invalid), a real server; no request may get a 5xx or break the server."""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from web_support import running_server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# Limits lifted so that the fuzzer exercises the routes, not the 429s.
LIFTED = ["--limit", "address_rate=100000", "--limit", "address_burst=100000",
          "--limit", "rate_per_second=100000", "--limit", "rate_burst=100000",
          "--limit", "games_per_hour=100000"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("fuzz") / "web.sqlite3",
                        extra_args=LIFTED) as running:
        # A game to aim at: generated ids rarely exist, so some paths use this one.
        created = httpx.post(f"{running.url}/api/games", json={
            "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        running.game_id = created["game_id"]
        yield running


@pytest.fixture(scope="module")
def web_schema(server):
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    return schema


schema = schemathesis.pytest.from_fixture("web_schema")


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_generated_request_breaks_the_server(case, server) -> None:
    if "game_id" in (case.path_parameters or {}) and hash(str(case.body)) % 2:
        case.path_parameters["game_id"] = server.game_id
    case.call_and_validate(checks=[not_a_server_error])


def test_every_endpoint_is_in_the_schema(server) -> None:
    paths = httpx.get(f"{server.url}/openapi.json").json()["paths"]
    for path in ("/api/levels", "/api/health", "/api/games", "/api/games/{game_id}",
                 "/api/games/{game_id}/join", "/api/games/{game_id}/preview",
                 "/api/games/{game_id}/hint", "/api/games/{game_id}/actions",
                 "/api/games/{game_id}/record"):
        assert path in paths
    assert httpx.get(f"{server.url}/api/health").status_code == 200  # still standing
