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
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from gridgames.gomoku.opening_rules import Player as Seat
from gridgames.web.games import Game, GameError, GomokuService

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


async def require_player(game_id: str, connection: HTTPConnection) -> Game:
    """The game named in the path, if the request carries its creator's token; else 403."""
    service: GomokuService = connection.app.state.service
    game = await service.get(game_id)  # an unknown game is a 404 before anything else
    token = bearer_token(connection)
    if is_friend(game, token):
        raise NotAPlayerError("only the player who created the game may do this; "
                              "your token plays your seat")
    if not is_player(game, token):
        raise _not_a_player()
    return game


@dataclass(frozen=True)
class SeatedPlayer:
    """A player's request: the game, and the seat the token plays (None: both, the
    creator's token while no friend is invited)."""

    game: Game
    seat: Seat | None


async def require_seat(game_id: str, connection: HTTPConnection) -> SeatedPlayer:
    """The game and the caller's seat, if the request carries a player's token; else 403."""
    service: GomokuService = connection.app.state.service
    game = await service.get(game_id)
    token = bearer_token(connection)
    friend = game.friend
    if friend is not None and is_friend(game, token):
        return SeatedPlayer(game, friend)
    if not is_player(game, token):
        raise _not_a_player()
    return SeatedPlayer(game, None if friend is None else friend.other)


Player = Annotated[Game, Depends(require_player)]
Seated = Annotated[SeatedPlayer, Depends(require_seat)]
