"""A quick estimate of the expected guesses to finish after a guess, for guesses nothing else rates.

After guess g in a state of n candidates, the feedback splits them into classes; the estimate is

    1 + sum over the classes c that g does not win of |c| / n * F(|c|),

where F(k) is the expected guesses (the next one included) needed to finish k candidates
(`solver.core.finish`: fitted to the game's own tree). It costs one row of feedback codes:
microseconds, where the search takes up to the budget.

How far it is from the truth is measured against proven values (`make bench`, section `estimate`,
and the documentation's benchmarks page); it is shown with its own mark, never as proven.
"""
from __future__ import annotations

import numpy as np

from solver.analysis.walk import feedback_codes
from solver.core.finish import finish_guesses
from solver.core.runtime import State


def estimated_to_go(state: State, row: int) -> float:
    """Return the estimated expected guesses to finish after guess `row` in `state`, this one included
    (over equally likely candidates)."""
    game = state.solver.game
    targets = game.target_index[state.candidate_positions]
    codes = feedback_codes(game, row, targets)
    counts = np.bincount(codes, minlength=game.n_codes)
    counts[game.win_code] = 0  # the class a guess wins is finished by it
    sizes = counts[counts > 0]
    rest = finish_guesses(game.n_codes, sizes, state.solver.tree)
    return 1.0 + float((sizes * rest).sum()) / targets.size
