"""The game the review tests share: white ignores black's open three at move 10.

Engine moves on both sides (depth 5) until black's h9 makes the open three
h8-h9-h10; white ignores it (a15), black makes the open four h11 and then five.
A change of the engine's ordering can change its depth-5 moves: then replay the
game, here only.
"""

IGNORED_THREE = "h8i7j8i8i9g7h10g11h9a15h11h7h12"
BLUNDER_PLY = 10
BLUNDER = "a15"
BEST_ANSWERS = ("h7", "h11")
