"""gridgames: classic grid games with a strong computer player.

The five-in-a-row family (Gomoku, standard Gomoku, Renju, Caro) lives in
:mod:`gridgames.gomoku`, the N-Queens puzzle in :mod:`gridgames.queens`.
"""

__version__ = "0.1.0"
