"""What `make tables` builds for each variant: the tree builder, its options and the published
figures it is checked against (`deduce tables` reads these; `pipeline.rebuild` runs them)."""
from __future__ import annotations

from pipeline.builders.exact_tree import WORST_WORK, Fallback, Plan, Polish, Refine, Rescan, Split, WorstFirst
from pipeline.builders.greedy_tree import GreedyOptions
from pipeline.builders.pooled_tree import PooledPlan
from solver.core.search.searcher import SearchOptions

# Tree-building options per variant (default: plain greedy). Lookahead widths were chosen by
# measurement (docs, "Trees").
TREE_OPTIONS: dict[tuple[str, str], GreedyOptions] = {
    ("wordle", "normal"): GreedyOptions(lookahead=30, lookahead_min=300),
    ("wordle", "hard"): GreedyOptions(lookahead=30, lookahead_min=300),
}
# Where the constants the builds do not search come from (`Plan.sources`, written into the tree's
# metadata as `<what>_source`); Alex Selby's repository as of its commit 8fd3f1bdf884ff6757c24ad1227dc561fab7787d
SELBY = "Alex Selby, https://github.com/alex1770/wordle"
SELBY_NORMAL = (f"{SELBY}, normal.top105.proven (commit 6252040): exact totals of the 105 best openers, SALET "
                "7920 the least")
SELBY_HARD = (f"{SELBY}, hard.top101.proven (commit 6252040): exact totals of the 101 best openers in hard mode, "
              "SALET 8122 the least")
SELBY_LANTS = (f"{SELBY}, lants.bighidden.origwords.tree (commit ca8a821): his best published tree with every "
               "word a possible answer, opening LANTS (52896 guesses)")
# hard mode with every word: the opener comes from this project's own ranking, not from a published tree
RANKING_HARD_ALL = ("this project's opener ranking (docs, Trees, Which opener): "
                    "artifacts/screen-wordle-hard-all-words.csv "
                    "refutes 11627 of the 12972 first guesses and puts THUMP 5th of the rest; of its first five, "
                    "built with this plan less rescan, polish and refine (artifacts/opener-builds-wordle-hard-all-words"
                    ".csv and opener-builds-stopped-wordle-hard-all-words.csv), THUMP has the least total of those "
                    "built whole (59145; THUMB 59301), PLUMB, GRUMP and BLIMP stopped in one class each: a partial "
                    "ranking")
SELBY_NYT_EASY = ("Alex Selby, github.com/alex1770/wordle, results_easy_nyt20230701: exact totals of every "
                  "opener, TARSE 11219 the least")
SELBY_NYT_HARD = ("Alex Selby, github.com/alex1770/wordle, results_hard_nyt20230701: exact totals of every "
                  "opener in hard mode, TARSE 11627 the least")
# Variants whose tree comes from the exact search (`pipeline.builders`); the others stay greedy. A Wordle
# tree opens with the guess whose optimum is published (proven for that opener); the other roots are
# searched over every first guess up to symmetry (proven for the game). Each plan: docs, "Trees".
EXACT_PLANS: dict[tuple[str, str], Plan] = {
    ("wordle", "normal"): Plan(SearchOptions(max_guesses=6), opener="SALET", sources={"opener": SELBY_NORMAL}),
    ("wordle", "hard"): Plan(SearchOptions(max_guesses=6), opener="SALET", sources={"opener": SELBY_HARD}),
    # SLATE: no published source is recorded for this opener (the tree is proven optimal for it only)
    ("wordle", "answers-only"): Plan(SearchOptions(max_guesses=6), opener="SLATE"),
    # the NYT lists: TARSE is the best opener by Selby's published exact values, which the build checks
    # the tree's proven total against (docs, "Wordle on the NYT lists")
    ("wordle", "normal-nyt"): Plan(SearchOptions(max_guesses=6), opener="TARSE", published=(11219, SELBY_NYT_EASY),
                                   sources={"opener": SELBY_NYT_EASY}),
    ("wordle", "hard-nyt"): Plan(SearchOptions(max_guesses=6), opener="TARSE", published=(11627, SELBY_NYT_HARD),
                                 sources={"opener": SELBY_NYT_HARD}),
    # every word an answer: a proof is beyond reach, so a top-k search widened where none of the k finishes,
    # then refined (docs, "Trees", "Every word a possible answer")
    ("wordle", "normal-all-words"): Plan(SearchOptions(mode="top-k", k=30, widen=1, max_guesses=6), opener="LANTS",
                                         bound_seconds=2, refine=Refine(k=(100,), size=400, split=12),
                                         sources={"opener": SELBY_LANTS}),
    # hard mode with every word: within 7 guesses (6 cannot be guaranteed), from the opener of this project's
    # ranking; the split class, refine, polish and rescan steps each lowered the total (docs, the same section)
    ("wordle", "hard-all-words"): Plan(SearchOptions(mode="top-k", k=5, widen=8, max_guesses=7), opener="THUMP",
                                       bound_seconds=2, fallback=Fallback(work=10**10, widen=2),
                                       split=Split(size=2000, tries=1), refine=Refine(k=(50, 400), size=1000),
                                       polish=Polish(k=400, size=(3, 300), work=10**9),
                                       rescan=Rescan(size=1200, margin=50, work=10**9),
                                       sources={"opener": RANKING_HARD_ALL}),
    ("mastermind", "default"): Plan(SearchOptions(max_guesses=8)),
    ("bulls", "default"): Plan(SearchOptions(max_guesses=7, symmetry_levels=3), seed_k=20),
    # battleship: top-k, an upper bound; the game's optimum is bounded from below over every first guess
    # (docs, "Battleship")
    ("battleship", "default"): Plan(SearchOptions(mode="top-k", k=32, max_guesses=7, symmetry_levels=1,
                                                  order="entropy"),
                                    opener="A1 A3 H1", bound_seconds=10, game_bound=True),
    # the card game's first two levels are searched one hand per class of suit permutations
    ("cards", "n1"): Plan(SearchOptions(max_guesses=8)),
    ("cards", "n2"): Plan(SearchOptions(max_guesses=8), seed_k=10),
}
# Wordle of the other lengths (built on request: `deduce tables wordle --size N`): top-k within 6 guesses
# (docs, "Wordle of 4 to 9 letters")
EXACT_PLANS.update({("wordle", f"normal{size}"): Plan(SearchOptions(mode="top-k", k=10, widen=1, max_guesses=6),
                                                      root_k=3, bound_seconds=2)
                    for size in (4, 6, 7, 8, 9)})
# Their hard mode puts the worst case first (`pipeline.builders.worst_case`), then the least total within
# it; the work limits of the "one fewer?" questions were measured per size (docs, the same section)
HARD_WORST_WORK = {4: 60_000_000_000, 6: None}
# 4 letters: each "one fewer?" first looks for a first guess that does (`worst_case.finishing_opener`)
HARD_FIND_WORK = {4: 40_000_000_000}
EXACT_PLANS.update({("wordle", f"hard{size}"): Plan(SearchOptions(mode="top-k", k=10, max_guesses=15),
                                                    root_k=0 if size == 4 else 3, bound_seconds=2,
                                                    worst=WorstFirst(work=HARD_WORST_WORK.get(size, WORST_WORK),
                                                                     widen=2 if size == 4 else 0,
                                                                     find_work=HARD_FIND_WORK.get(size, 0)))
                    for size in (4, 6, 7, 8, 9)})
# Card games whose classes below a fixed opener are searched top-k over pools of guesses
# (`pipeline.builders.pooled_tree`): n4 is too large for a feedback table. Within 6 guesses; the openers:
# docs, "Cards n = 3 and n = 4"
POOLED_PLANS: dict[tuple[str, str], PooledPlan] = {
    ("cards", "n3"): PooledPlan(SearchOptions(mode="top-k", k=128, max_guesses=6, order="entropy"),
                                opener="6C 8D JD", extra=3000),
    ("cards", "n4"): PooledPlan(SearchOptions(mode="top-k", k=8, max_guesses=6, order="entropy"),
                                opener="5C 6C 7D JD", extra=1000),
}
# Variants whose hints (`pipeline.builders.hint_table`: each node's ranking) are not computed ahead; a hint
# on their tree ranks live (cards n4: too many large nodes; docs, "Hints computed ahead")
NO_HINTS = {("cards", "n4")}
# Which table a variant's tree scores with (None: no table, score through the rule); Wordle hard
# mode of any word length shares the normal table of that length.
TABLE_OF = {("cards", "n4"): None}


def table_of(name: str, variant: str) -> tuple[str, str] | None:
    """Return the (game, variant) whose feedback table a variant's tree scores with (None: none)."""
    if name == "wordle" and variant.startswith("hard"):
        return name, variant.replace("hard", "normal", 1)
    return TABLE_OF.get((name, variant), (name, variant))


def tree_options(name: str, variant: str, jobs: int) -> GreedyOptions:
    """Return the build options of a variant's tree with `jobs` workers."""
    base = TREE_OPTIONS.get((name, variant), GreedyOptions())
    return GreedyOptions(base.lookahead, base.lookahead_min, jobs, base.pool_sample)
