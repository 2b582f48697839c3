"""Player tokens: who may change a game.

Creating a game hands out a random token; only its SHA-256 is saved. A request
that changes the game (a move, an opening action, an undo, deleting it,
starting an analysis) sends it as ``Authorization: Bearer TOKEN``; anyone else
may watch the game but not touch it. Routes ask for a player with one dependency::

    @router.post("/gomoku/games/{game_id}/something")
    async def something(game: Player) -> ...
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

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
    if not expected:
        return True
    if token is None:
        return False
    return hmac.compare_digest(hash_token(token), expected)


def require_player(game_id: str, connection: HTTPConnection) -> Game:
    """The game named in the path, if the request carries its player token; else 403."""
    service: GomokuService = connection.app.state.service
    game = service.get(game_id)  # an unknown game is a 404 before anything else
    if not is_player(game, bearer_token(connection)):
        raise NotAPlayerError(
            "only the game's players may change it: send the player token given when the "
            "game was created, as the header 'Authorization: Bearer TOKEN' (without it you "
            "can watch the game, not play in it)"
        )
    return game


Player = Annotated[Game, Depends(require_player)]
