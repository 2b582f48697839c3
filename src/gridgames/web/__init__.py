"""The web app: Gomoku and N-Queens in the browser (``gridgames serve``)."""

from gridgames.web.app import create_app

__all__ = ["create_app"]
