"""The analysis layer: what the faces (command line, web page) ask of the library.

* `notation`: games, guesses, feedback and answers as people type them, and how they are shown;
* `walk`: a strategy played over many targets at once (a tree of states), and over one answer;
* `scores`: guesses ranked by expected remaining candidates and by entropy;
* `explain`: why a guess: its groups, worst case, chance and expected guesses;
* `several_boards`: several Wordle boards: answers and feedback as typed, and a strategy played out.

Built on `solver.core` and `solver.games`; every function raises ValueError with a one-line
message on bad input, and nothing here prints.
"""
