"""A game between two people on two devices through the JSON API, with real engine
workers and SQLite: the creator invites a friend to one seat, each token plays its
own seat alone, and what only the creator, or neither, may do."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.requests import HTTPConnection
from web_helpers import GAMES, Server, assert_error, new_game, play, player

from gridgames.store import GameStore
from gridgames.web import api
from gridgames.web.auth import NotAPlayerError, require_player, require_seat
from gridgames.web.games import GameError, NotYourTurnError
from gridgames.web.schemas import InviteRequest, Move


def invite(client: Any, game_id: str, seat: str) -> dict[str, str]:
    """Invite a friend to ``seat``; the headers that make a request come from them."""
    response = client.post(f"{GAMES}/{game_id}/invite", json={"seat": seat},
                           headers=player(game_id))
    assert response.status_code == 200, response.text
    invitation = response.json()
    assert invitation["seat"] == seat and invitation["game"]["friend"] == seat
    return {"Authorization": f"Bearer {invitation['token']}"}


def move(client: Any, game_id: str, headers: dict[str, str], x: int, y: int) -> Any:
    return client.post(f"{GAMES}/{game_id}/moves", json={"x": x, "y": y}, headers=headers)


def test_each_token_plays_its_own_colour(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    assert client.get(f"{GAMES}/{game_id}").json()["friend"] is None
    friend = invite(client, game_id, "second")  # the friend plays white
    assert_error(move(client, game_id, friend, 4, 4), 409, "not_your_turn",
                 "it is black's turn, and you play white")
    play(client, game_id, 4, 4)  # the creator plays black
    assert_error(move(client, game_id, player(game_id), 5, 5), 409, "not_your_turn",
                 "you play black")
    state = move(client, game_id, friend, 5, 5).json()
    assert state["moves"] == [[4, 4], [5, 5]] and state["friend"] == "second"
    assert_error(move(client, game_id, {}, 6, 6), 403, "not_a_player")
    # Nobody takes back the other's move; only the creator invites and deletes.
    for headers in (player(game_id), friend):
        assert_error(client.post(f"{GAMES}/{game_id}/undo", headers=headers), 409,
                     "two_devices")
    assert_error(client.post(f"{GAMES}/{game_id}/invite", json={"seat": "first"},
                             headers=friend), 403, "not_a_player", "created the game")
    assert client.delete(f"{GAMES}/{game_id}", headers=friend).status_code == 403
    # No hints: anyone may ask for one, so they would help one player against the other.
    for headers in (player(game_id), friend, {}):
        assert_error(client.get(f"{GAMES}/{game_id}/hint", headers=headers), 409,
                     "two_devices", "hints are off")
    # Nor a review while the game is played: it would score the moves for either side.
    review = f"{GAMES}/{game_id}/review"
    for headers in (player(game_id), friend):
        assert_error(client.post(review, json={"depth": 1}, headers=headers), 409,
                     "two_devices", "once it is over")
    # Resigning is the caller's own, whoever is to move.
    state = client.post(f"{GAMES}/{game_id}/resign", headers=friend).json()
    assert (state["outcome"]["winner"], state["outcome"]["termination"]) == (
        "black", "resignation")
    # Then either player may have the game reviewed; a watcher may read the review.
    assert_error(client.post(review, json={"depth": 1}), 403, "not_a_player")
    assert client.post(review, json={"depth": 1}, headers=friend).status_code == 202
    deadline = time.monotonic() + 60
    while (status := client.get(review).json())["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert status["state"] == "done" and len(status["review"]["moves"]) == 2


def test_the_creator_resigns_its_own_colour(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    invite(client, game_id, "first")  # the friend plays black, the creator white
    state = client.post(f"{GAMES}/{game_id}/resign", headers=player(game_id)).json()
    assert state["outcome"]["winner"] == "black"


def test_a_new_invitation_voids_the_last(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    first = invite(client, game_id, "second")
    second = invite(client, game_id, "first")  # now the friend plays black
    assert_error(move(client, game_id, first, 4, 4), 403, "not_a_player")
    assert move(client, game_id, second, 4, 4).status_code == 200
    assert move(client, game_id, player(game_id), 5, 5).status_code == 200  # white now
    assert_error(move(client, game_id, player(game_id), 6, 6), 409, "not_your_turn")


def connection(client: TestClient, headers: dict[str, str]) -> HTTPConnection:
    """A request to the app with ``headers``, as its routes' dependencies see it."""
    return HTTPConnection({"type": "http", "app": client.app, "headers": [
        (name.lower().encode(), value.encode()) for name, value in headers.items()]})


@pytest.mark.parametrize(("mover", "seat", "refusal"), [
    ("friend", "first", NotAPlayerError),  # their token voided
    ("creator", "second", NotYourTurnError),  # their seat changed over, black to white
])
def test_a_new_invitation_between_a_moves_check_and_the_move_refuses_it(
        client: TestClient, mover: str, seat: str, refusal: type[GameError]) -> None:
    """A move's token checked as it arrives, then a new invitation, then the move itself:
    refused, as if sent after the invitation. The steps are the routes' own (each
    request's dependency, then its handler) in the app's event loop, in an order a busy
    server may run them."""
    game_id = new_game(client)["id"]
    friend = invite(client, game_id, seat)  # the mover plays black, to move
    headers = friend if mover == "friend" else player(game_id)
    service = client.app.state.service

    async def invited_between() -> None:
        checked = await require_seat(game_id, connection(client, headers))
        creator = await require_player(game_id, connection(client, player(game_id)))
        await api.invite(creator, InviteRequest(seat="first"), service)
        await api.play_move(checked, Move(x=4, y=4), service)

    with pytest.raises(refusal):
        client.portal.call(invited_between)
    assert client.get(f"{GAMES}/{game_id}").json()["moves"] == []


def test_who_cannot_be_invited(client: TestClient) -> None:
    against = new_game(client, white="computer", level=1)["id"]
    assert_error(client.post(f"{GAMES}/{against}/invite", json={"seat": "second"},
                             headers=player(against)), 409, "not_between_people")
    game_id = new_game(client)["id"]
    assert_error(client.post(f"{GAMES}/{game_id}/invite", json={"seat": "second"}), 403,
                 "not_a_player")
    assert_error(client.post(f"{GAMES}/{game_id}/invite", json={"seat": "black"},
                             headers=player(game_id)), 422, "invalid_request")
    client.post(f"{GAMES}/{game_id}/resign", headers=player(game_id))
    assert_error(client.post(f"{GAMES}/{game_id}/invite", json={"seat": "second"},
                             headers=player(game_id)), 409, "game_over")


def test_seats_follow_the_opening_colours(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, opening="swap")["id"]
    friend = invite(client, game_id, "second")

    def act(headers: dict[str, str], action: str) -> Any:
        return client.post(f"{GAMES}/{game_id}/opening", json={"action": action},
                           headers=headers)

    assert_error(act(friend, "place h8"), 409, "not_your_turn",
                 "the first player is to act in the opening, and you are the second")
    assert_error(client.get(f"{GAMES}/{game_id}/opening/hint"), 409, "two_devices")
    for action in ("place h8", "place h9", "place j8"):
        assert act(player(game_id), action).status_code == 200
    assert_error(act(player(game_id), "choose black"), 409, "not_your_turn")
    state = act(friend, "choose black").json()  # the friend, second player, takes black
    assert state["opening"]["colors"] == {"first": "white", "second": "black"}
    assert state["to_move"] == "white"  # after three stones
    assert_error(move(client, game_id, friend, 0, 0), 409, "not_your_turn", "you play black")
    play(client, game_id, 0, 0)  # the creator is white now
    assert move(client, game_id, friend, 14, 14).status_code == 200


def test_an_invitation_and_a_rematch_survive_a_killed_server(tmp_path: Path) -> None:
    """The friend's token, and then the rematch with the finished game's link to it
    (committed together), are on disk when the server is SIGKILLed."""
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        game_id = new_game(server.http)["id"]
        friend = invite(server.http, game_id, "second")
        play(server.http, game_id, 4, 4)
    finally:
        server.kill()
    saved = GameStore(db).get(game_id)
    assert saved.guest_seat == "second" and len(saved.guest_token_hash) == 64
    server = Server(db)
    try:
        state = move(server.http, game_id, friend, 5, 5).json()
        assert state["moves"] == [[4, 4], [5, 5]] and state["friend"] == "second"
        server.http.post(f"{GAMES}/{game_id}/resign", headers=friend)
        new_id = server.http.post(f"{GAMES}/{game_id}/rematch",
                                  headers=player(game_id)).json()["id"]
    finally:
        server.kill()
    server = Server(db)
    try:
        assert server.http.get(f"{GAMES}/{game_id}").json()["rematch"] == new_id
        state = move(server.http, new_id, friend, 4, 4).json()  # the friend is black now
        assert state["moves"] == [[4, 4]] and state["friend"] == "first"
        again = server.http.post(f"{GAMES}/{game_id}/rematch", headers=friend).json()
        assert again["id"] == new_id and again["friend_joined"]
    finally:
        server.stop()


def test_the_creator_sees_when_the_friend_has_opened_the_invitation(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    friend = invite(client, game_id, "second")
    assert client.get(f"{GAMES}/{game_id}").json()["friend_joined"] is False
    # The creator's token changes nothing, a watcher may not.
    state = client.post(f"{GAMES}/{game_id}/join", headers=player(game_id)).json()
    assert state["friend_joined"] is False
    assert_error(client.post(f"{GAMES}/{game_id}/join"), 403, "not_a_player")
    assert client.post(f"{GAMES}/{game_id}/join", headers=friend).json()["friend_joined"]
    assert GameStore(client.app.state.service.store.path).get(game_id).guest_joined
    # A new invitation waits for its own friend.
    invite(client, game_id, "second")
    assert client.get(f"{GAMES}/{game_id}").json()["friend_joined"] is False


def test_a_rematch_changes_sides_and_keeps_both_tokens(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    friend = invite(client, game_id, "second")  # the friend plays white
    play(client, game_id, 4, 4)
    assert_error(client.post(f"{GAMES}/{game_id}/rematch", headers=friend), 409,
                 "game_not_over", "resign first")
    client.post(f"{GAMES}/{game_id}/resign", headers=friend)
    assert_error(client.post(f"{GAMES}/{game_id}/rematch"), 403, "not_a_player")

    response = client.post(f"{GAMES}/{game_id}/rematch", headers=player(game_id))
    assert response.status_code == 200, response.text
    rematch = response.json()
    assert rematch["id"] != game_id and rematch["moves"] == [] and rematch["outcome"] is None
    assert (rematch["width"], rematch["rule"]) == (9, "freestyle")
    assert rematch["friend"] == "first" and rematch["friend_joined"] is False  # black now
    assert client.get(f"{GAMES}/{game_id}").json()["rematch"] == rematch["id"]
    assert GameStore(client.app.state.service.store.path).get(game_id).rematch == rematch["id"]
    # Each token plays the other colour there.
    new_id = rematch["id"]
    assert_error(move(client, new_id, player(game_id), 4, 4), 409, "not_your_turn",
                 "you play white")
    assert move(client, new_id, friend, 4, 4).status_code == 200
    assert move(client, new_id, player(game_id), 5, 5).status_code == 200
    # The friend, following, gets the same game, and is there.
    state = client.post(f"{GAMES}/{game_id}/rematch", headers=friend).json()
    assert state["id"] == new_id and state["friend_joined"] is True
    assert_error(client.post(f"{GAMES}/{new_id}/invite", json={"seat": "first"},
                             headers=friend), 403, "not_a_player", "created the game")


def test_a_rematch_against_the_computer_changes_sides(client: TestClient) -> None:
    game_id = new_game(client, white="computer", level=1, clock="1+2")["id"]
    client.post(f"{GAMES}/{game_id}/resign", headers=player(game_id))
    rematch = client.post(f"{GAMES}/{game_id}/rematch", headers=player(game_id)).json()
    assert rematch["players"] == {"black": "computer", "white": "human"}
    assert rematch["friend"] is None and rematch["clock"]["text"] == "1+2"
    assert rematch["level"] == 1
    # A rematch deleted is played again anew.
    new_id = rematch["id"]
    assert client.delete(f"{GAMES}/{new_id}", headers=player(game_id)).status_code == 204
    again = client.post(f"{GAMES}/{game_id}/rematch", headers=player(game_id)).json()
    assert again["id"] != new_id and again["players"]["black"] == "computer"


def test_on_two_devices_the_clock_waits_for_each_sides_first_move(client: TestClient) -> None:
    """The friend may open the link minutes later: no time runs before each side has
    moved once, and then it runs as on one device."""
    game_id = new_game(client, clock="1+0")["id"]
    assert client.get(f"{GAMES}/{game_id}").json()["clock"]["running"] == "black"
    time.sleep(0.3)  # charged to black on one device, given back by the invitation
    friend = invite(client, game_id, "second")
    clock = client.get(f"{GAMES}/{game_id}").json()["clock"]
    assert clock["running"] is None and clock["black_ms"] == clock["white_ms"] == 60_000
    play(client, game_id, 4, 4)  # black's first move: free, and white's clock waits too
    time.sleep(0.3)
    state = client.get(f"{GAMES}/{game_id}").json()
    assert state["clock"]["running"] is None and state["clock"]["white_ms"] == 60_000
    move(client, game_id, friend, 5, 5)  # white's first: now black's time runs
    time.sleep(0.3)
    clock = client.get(f"{GAMES}/{game_id}").json()["clock"]
    assert clock["running"] == "black" and clock["white_ms"] == 60_000
    assert 59_000 < clock["black_ms"] <= 59_700
    play(client, game_id, 4, 5)
    clock = client.get(f"{GAMES}/{game_id}").json()["clock"]
    assert clock["running"] == "white" and clock["black_ms"] <= 59_700
    # A rematch waits in the same way for both.
    client.post(f"{GAMES}/{game_id}/resign", headers=friend)
    rematch = client.post(f"{GAMES}/{game_id}/rematch", headers=friend).json()
    assert rematch["clock"]["running"] is None and rematch["clock"]["text"] == "1+0"
