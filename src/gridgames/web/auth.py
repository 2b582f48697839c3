"""Player tokens: who may change a game.

Creating a game hands out a random token; only its SHA-256 is saved. A request
that changes the game (a move, an opening action, an undo, deleting it,
starting an analysis) sends it as ``Authorization: Bearer TOKEN``; anyone else
may watch the game but not touch it. Routes ask for a player with one dependency::

    @router.post("/gomoku/games/{game_id}/something")
    async def something(game: Player) -> ...

In a game between two people, the creator may invite a friend to play one seat
on their own device: the friend's token plays that seat alone, and the
creator's the other one from then on. Routes that act for a seat ask for a
:data:`Seated` player; the rest (deleting the game, inviting) for the creator.
Either is checked as the request arrives (an unknown game is a 404, a stranger
a 403, before the body is looked at), and again under the game's lock with the
change it asks for: a new invitation may have voided the friend's token, or
changed the seats, in between.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from gridgames.gomoku.opening_rules import Player as Seat
from gridgames.web.games import Game, GameError, GomokuService, store_deadline

TOKEN_BYTES = 24


class NotAPlayerError(GameError):
    code, status = "not_a_player", 403


def new_token() -> tuple[str, str]:
    """A fresh player token and the hash to save for it."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, hash_token(token)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token(connection: HTTPConnection) -> str | None:
    header = connection.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def is_player(game: Game, token: str | None) -> bool:
    """Whether ``token`` is the game's player token (compared in constant time).

    Games saved before tokens existed have none and stay open to everyone.
    """
    expected = game.saved.token_hash
    return not expected or _matches(token, expected)


def is_friend(game: Game, token: str | None) -> bool:
    """Whether ``token`` is the token of a friend invited to play the game."""
    expected = game.saved.guest_token_hash
    return bool(expected) and _matches(token, expected)


def _matches(token: str | None, expected: str) -> bool:
    """Whether ``token`` hashes to ``expected`` (compared in constant time)."""
    return token is not None and hmac.compare_digest(hash_token(token), expected)


def _not_a_player() -> NotAPlayerError:
    return NotAPlayerError(
        "only the game's players may change it: send the player token given when the "
        "game was created, as the header 'Authorization: Bearer TOKEN' (without it you "
        "can watch the game, not play in it)"
    )


@dataclass(frozen=True)
class PlayerRequest:
    """A request to change a game from whoever holds ``token`` (a
    :class:`~gridgames.web.games.Caller`): the game's service checks it under the game's
    lock, with the change."""

    game_id: str
    token: str | None
    creator_only: bool = False  # deleting the game, inviting: not for the friend's token
    # taken as the request arrives: it is answered about WAIT_S later at most
    deadline: float = field(default_factory=store_deadline)

    def seat(self, game: Game) -> Seat | None:
        """The seat the token plays (None: both, the creator's token while no friend is
        invited); NotAPlayerError for another token."""
        friend = game.friend
        if friend is not None and is_friend(game, self.token):
            if self.creator_only:
                raise NotAPlayerError("only the player who created the game may do this; "
                                      "your token plays your seat")
            return friend
        if not is_player(game, self.token):
            raise _not_a_player()
        return None if friend is None else friend.other


async def require_player(game_id: str, connection: HTTPConnection) -> PlayerRequest:
    """A request from the creator of the game named in the path; else 403 (404 for no
    such game)."""
    return await _checked(PlayerRequest(game_id, bearer_token(connection), creator_only=True),
                          connection)


async def require_seat(game_id: str, connection: HTTPConnection) -> PlayerRequest:
    """A request from a player of the game named in the path; else 403 (404 for no such
    game)."""
    return await _checked(PlayerRequest(game_id, bearer_token(connection)), connection)


async def _checked(request: PlayerRequest, connection: HTTPConnection) -> PlayerRequest:
    service: GomokuService = connection.app.state.service
    await service.get(request.game_id, request)
    return request


Player = Annotated[PlayerRequest, Depends(require_player)]
Seated = Annotated[PlayerRequest, Depends(require_seat)]
