"""Hints rank the seat's options by equity, best first, each play once whatever the order
of its tiles; each hinted play is legal and scores what the preview says."""

from __future__ import annotations

from pathlib import Path

from web_support import auth, in_process_client


def test_hints_are_distinct_ranked_by_equity_and_legal(tmp_path: Path) -> None:
    # Many quick requests from one test client: the per-connection rate limit is raised.
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}", rate_per_second=1000.0,
                           rate_burst=1000.0) as client:
        for seed in (1, 2, 3, 4):
            created = client.post("/api/games", json={
                "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed,
                "hints": True}).json()  # hints between people: allowed at creation
            game, first = created["game_id"], created["token"]
            second = client.post(f"/api/games/{game}/join",
                                 json={"invite": created["invite"]}).json()["token"]
            tokens = {0: first, 1: second}
            for _ in range(4):  # a few turns in, each by the hint's best option
                state = client.get(f"/api/games/{game}").json()
                assert "turn" in state, state
                token = tokens[state["turn"]]
                hint = client.post(f"/api/games/{game}/hint", headers=auth(token)).json()
                assert "options" in hint, hint
                options = hint["options"]
                assert 1 <= len(options) <= 3
                assert {k: v for k, v in options[0].items()} == {
                    k: v for k, v in hint.items() if k != "options"}
                equities = [o["equity"] for o in options if "equity" in o]
                assert equities == sorted(equities, reverse=True)
                keys = [tuple(sorted(o["tiles"].items())) if o["play"]
                        else ("exchange", tuple(sorted(o["exchange_tiles"]))) for o in options]
                assert len(set(keys)) == len(keys)  # never the same play twice
                for o in options:
                    if o["play"]:
                        preview = client.post(f"/api/games/{game}/preview",
                                              json={"tiles": o["tiles"]},
                                              headers=auth(token)).json()
                        assert preview.get("legal") and preview["score"] == o["score"], preview
                    else:
                        rack = client.get(f"/api/games/{game}", headers=auth(token)).json()["rack"]
                        assert all(t in rack for t in o["exchange_tiles"])
                if hint["play"]:
                    body = {"action": "play", "tiles": hint["tiles"]}
                else:
                    body = {"action": "exchange", "tiles": hint["exchange_tiles"]}
                reply = client.post(f"/api/games/{game}/actions", json=body, headers=auth(token))
                assert reply.status_code == 200, reply.text


def test_a_cribbage_hint_is_the_coachs_advice_and_can_be_followed(tmp_path: Path) -> None:
    """Two seats: the coach's discard and cards, faces as people read them; three seats:
    the expert's. Each hint is for the seat's own decision and is legal when followed."""
    from kingscrib.classic.cards import Card
    from kingscrib.players.classic.coach import coach_discard

    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as client:
        for players in (2, 3):
            created = client.post("/api/games", json={
                "game": "classic", "seed": 7, "seats": [{"kind": "human"}] + [
                    {"kind": "computer", "level": "easy"}] * (players - 1)}).json()
            game, token = created["game_id"], created["token"]
            url = f"/api/games/{game}/hint"
            assert client.post(url).status_code in (401, 403)  # a spectator has no hand
            state = client.get(f"/api/games/{game}", headers=auth(token)).json()
            hint = client.post(url, headers=auth(token)).json()
            assert hint["by"] == ("coach" if players == 2 else "expert")
            hand = [Card.parse(c) for c in state["hand"]]
            if players == 2:
                expected = coach_discard(hand, state["dealer"] == 0).options[0]["discard"]
                assert hint["cards"] == expected
            faces = " ".join(Card.parse(c).pretty() for c in hint["cards"])
            assert hint["advice"] == f"lay away {faces}"
            assert all(not any(code in line for code in state["hand"]) for line in hint["lines"])
            reply = client.post(f"/api/games/{game}/actions", headers=auth(token),
                                json={"action": "discard", "cards": hint["cards"]})
            assert reply.status_code == 200, reply.text
            # The discard is made: no decision waits on this seat, so no hint.
            state = client.get(f"/api/games/{game}", headers=auth(token)).json()
            if 0 not in state["waiting"]:
                refused = client.post(url, headers=auth(token))
                after = client.get(f"/api/games/{game}", headers=auth(token)).json()
                if after["version"] == state["version"]:  # (no computer moved meanwhile)
                    assert refused.status_code == 409 and "none is waiting on you" in refused.text
