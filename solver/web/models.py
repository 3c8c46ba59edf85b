"""The API's request and response shapes (pydantic), with the descriptions /docs shows."""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import AfterValidator, BaseModel, Field, StrictInt, StrictStr
from pydantic_core import PydanticCustomError

MAX_STEPS = 100  # guesses in a history: far more than any game needs
MAX_TEXT = 100  # characters of a guess, a target or a feedback
MAX_WORDS = 3000  # candidates listed per reviewed guess: every Wordle answer


def unicode_text(text: str) -> str:
    """Refuse text that is not Unicode, so cannot be UTF-8: a lone surrogate ("\\ud800" in JSON)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise PydanticCustomError("unicode_text", "not Unicode text: a lone surrogate ({char}) at character "
                                  "{position}",
                                  {"char": f"\\u{ord(text[err.start]):04x}", "position": err.start}) from None
    return text


Text = Annotated[StrictStr, AfterValidator(unicode_text)]  # every string a request gives
GameLiteral = Literal["battleship", "cards", "wordle", "mastermind", "bulls"]
GameName = Annotated[GameLiteral, Field(description="The game: battleship, cards, wordle, mastermind or bulls.")]
VariantName = Annotated[Union[Text, None], Field(
    None, max_length=MAX_TEXT, examples=["normal"],
    description="The game's variant: cards n1, n2 (default), n3, n4; wordle normal (default), hard, answers-only "
                "(only the 2315 answers may be guessed). Omitted: the game's default variant.")]
GuessText = Annotated[Text, Field(
    min_length=1, max_length=MAX_TEXT, examples=["SALET"],
    description='A guess as the CLI takes it: "SALET", "A1 A3 H1" or "A1-A3-H1", "2C AS", "1122", "0123".')]
Feedback = Annotated[Union[Text, list[StrictInt]], Field(
    examples=["RRYRG", [0, 1, 0]],
    description='Wordle: a string of marks, G green, Y yellow, R grey (also 2/1/0, B, X, . or - for grey, emoji '
                'squares), or a list of one number per letter, 2 green, 1 yellow, 0 grey ([0, 1, 0, 0, 2]). Other '
                'games: a list of integers like [0, 1, 0] (or the string "0,1,0").')]
FeedbackOut = Annotated[Union[str, list[int]], Field(
    description='Wordle: marks like "GYRRR" (G green, Y yellow, R grey); other games: a list of integers.')]

ToGoKind = Union[Literal["proven", "approximate", "bound", "estimate"], None]
TO_GO_KINDS = ("proven: the least possible (exact search or a proven tree); approximate: the best strategy found in "
               "time (the optimum is at most this); bound: a proven lower bound (the opener ranking); estimate: a "
               "quick estimate from the classes the guess leaves, for a guess no search rated in time.")


class Step(BaseModel):
    """One guess played and the feedback it got."""

    guess: GuessText
    feedback: Feedback


History = Annotated[list[Step], Field(max_length=MAX_STEPS, description="The guesses played so far, in order, with "
                                                                       "their feedback.")]


class GameRequest(BaseModel):
    """A game variant and the history played so far."""

    game: GameName
    variant: VariantName = None
    history: History = []


class NextRequest(GameRequest):
    """Ask for the guess to play after a history."""

    top: StrictInt = Field(0, ge=0, le=20, description="How many alternative guesses to rank by expected "
                                                         "remaining candidates (0: none; ranking costs time).")
    candidates: StrictInt = Field(50, ge=0, le=500, description="List at most this many remaining candidates.")


class CandidatesRequest(GameRequest):
    """Ask for the answers still possible after a history."""

    limit: StrictInt = Field(100, ge=0, le=5000, description="List at most this many candidates.")


class FeedbackRequest(GameRequest):
    """Score a guess against a known target (the page's practice mode)."""

    target: GuessText = Field(description="The hidden answer: a possible answer of the game.")
    guess: GuessText = Field(description="The guess to score: an allowed guess (after `history` in Wordle hard "
                                         "mode).")
    history: History = Field([], description="The guesses played before, checked for Wordle hard mode.")


class CheckRequest(GameRequest):
    """Check a guess (and a target) as /api/feedback would, without scoring it (the page's "not in word list")."""

    guess: GuessText = Field(description="The guess to check: an allowed guess (after `history` in Wordle hard mode).")
    target: Union[GuessText, None] = Field(None, description="An answer to check too: a possible answer of the game.")
    history: History = Field([], description="The guesses played before, checked for Wordle hard mode.")


class TreeRequest(BaseModel):
    """Ask for the node of the precomputed tree a history reaches."""

    game: GameName
    variant: VariantName = None
    path: History = Field([], description="The guesses played so far, with their feedback (the path from the root).")


WordleVariant = Annotated[Union[Text, None], Field(None, max_length=MAX_TEXT, examples=["normal"], description=(
    "Wordle's variant (normal, hard, answers-only, normal6, ...); default normal. In hard mode on several boards "
    "each guess keeps the hard-mode rule of at least one unsolved board."))]
BoardCount = Annotated[StrictInt, Field(ge=1, le=32, examples=[2], description="The boards: 2 Dordle, 4 Quordle.")]
BoardFeedback = Annotated[list[Union[Text, None]], Field(max_length=32, examples=[["RRYRG", None]], description=(
    "One feedback per board, in board order (marks like RRYRG, as `history[].feedback`); null for a board "
    "solved before this guess."))]


class BoardStep(BaseModel):
    """One guess played on every board, and the feedback each unsolved board gave."""

    guess: GuessText
    feedback: BoardFeedback


class BoardsNextRequest(BaseModel):
    """Ask for the guess to play on several Wordle boards after a history."""

    boards: BoardCount
    variant: WordleVariant = None
    history: list[BoardStep] = Field([], max_length=MAX_STEPS, description="The guesses so far, with each "
                                                                           "board's feedback.")
    candidates: StrictInt = Field(20, ge=0, le=500, description="List at most this many answers left per board.")


class BoardsFeedbackRequest(BaseModel):
    """Score a guess on several boards whose answers are known (the page's Dordle and Quordle)."""

    variant: WordleVariant = None
    targets: list[GuessText] = Field(min_length=1, max_length=32, description="The answer of each board, all "
                                                                               "different, in board order.")
    guess: GuessText
    history: list[GuessText] = Field([], max_length=MAX_STEPS, examples=[["SALET", "CRONY"]], description=(
        "The guesses played before `guess`, in order: a board one of them solved gets no feedback (null); "
        "`guess` is refused after every board was solved and, in hard mode, when it keeps the rule of no "
        "unsolved board."))


class ReviewRequest(GameRequest):
    """Review a played game: its guesses with their feedback (`history`), or the bare `guesses` and the
    `answer` they were played against (their feedback computed), not both."""

    history: History = Field([], description="The game's guesses in order, with their feedback (omit it when giving "
                                             "`answer` and `guesses`).")
    answer: Union[GuessText, None] = Field(None, description="The game's answer, given with `guesses` instead of a "
                                                             "`history`: a possible answer of the game.")
    guesses: list[GuessText] = Field([], max_length=MAX_STEPS, description="The game's guesses in order, without "
                                                                           "feedback: it is computed against `answer`.")
    words: int = Field(0, ge=0, le=MAX_WORDS, description="How many of the answers possible before each guess to "
                                                          "list with it (`candidates`), at most.")


class BoardsReviewRequest(BaseModel):
    """Review a game of several Wordle boards (Dordle, Quordle): its bare guesses and the answer of each board
    (each board's feedback is computed)."""

    boards: StrictInt = Field(ge=2, le=32, examples=[2], description="The boards: 2 Dordle, 4 Quordle (one board: "
                                                                      "/api/review).")
    variant: WordleVariant = None
    answers: list[GuessText] = Field(min_length=1, max_length=32, examples=[["PROXY", "FLOOR"]], description=(
        "The answer of each board, in board order, all different: `boards` of them."))
    guesses: list[GuessText] = Field(max_length=MAX_STEPS, examples=[["SALET", "CRONY", "FLOOR", "PROXY"]],
                                     description="The game's guesses in order (at most 5 more than the boards), "
                                                 "none after every board was solved.")
    words: int = Field(0, ge=0, le=MAX_WORDS, description="How many of the answers possible on a board before each "
                                                          "guess to list with it (`candidates`), at most.")


class HideRequest(BaseModel):
    """A game against the adversarial hider (`deduce hide`, like Absurdle): its guesses so far, and in challenge
    mode the target the player must force the hider into."""

    game: GameName = "wordle"
    variant: VariantName = None
    guesses: list[GuessText] = Field([], max_length=MAX_STEPS, examples=[["SALET", "CRONY"]], description=(
        "The guesses played so far, in order (the hider answers each: its feedback is computed)."))
    target: Union[GuessText, None] = Field(None, max_length=MAX_TEXT, examples=["FLOOR"], description=(
        "Challenge mode: a possible answer the player must force the hider into (Absurdle's challenge). The hider "
        "plays as without it; the target is missed once a feedback rules it out. Omitted: the plain hider."))


# -- responses ----------------------------------------------------------------------------------
class MarksFeedback(BaseModel):
    """Wordle's feedback: one mark per letter."""

    kind: Literal["marks"] = "marks"
    length: int = Field(description="Marks per feedback (letters per word).")
    help: str = Field(description="What the marks mean.")


class FieldsFeedback(BaseModel):
    """Feedback of integer fields, e.g. battleship's (exact, one_away, two_away)."""

    kind: Literal["fields"] = "fields"
    names: list[str] = Field(description="The fields, in order.")
    max: list[int] = Field(description="The largest value each field can take.")
    help: str = Field(description="What each field counts.")


class GameInfo(BaseModel):
    """One game variant."""

    game: str = Field(description="The game's name, as requests give it.")
    variant: str = Field(description="The variant's name, as requests give it.")
    title: str = Field(description="The game variant's title as the CLI prints it, e.g. \"wordle hard\", \"cards n3\".")
    label: str = Field(description="The name to show people, one pattern for every variant: the game, then what "
                                   "sets the variant apart, e.g. \"Wordle, hard mode, NYT lists\", \"Cards, 3 cards\".")
    targets: int = Field(description="How many possible answers.")
    guesses: int = Field(description="How many allowed guesses.")
    has_tree: bool = Field(description="Whether a precomputed decision tree plays it (else guesses are computed live).")
    tree_label: Union[str, None] = Field(default=None, description="What is proven of the tree, from its metadata "
                                         "(`artifacts.proof_label`): \"optimal\", \"optimal for A1 A3 H1\" (among "
                                         "trees with that first guess), \"within 2.3% of optimal for A1 A3 H1; within "
                                         "9.6% of optimal\" (the gap to each proven lower bound, rounded up), \"best "
                                         "found\"; null without a tree.")
    feedback: Union[MarksFeedback, FieldsFeedback] = Field(discriminator="kind", description="The feedback format.")
    example_guess: str = Field(description="A guess written the way requests give it (the solver's first guess).")
    default: bool = Field(description="Whether this variant is used when a request names none.")


class GamesResponse(BaseModel):
    """Every game variant the server plays."""

    games: list[GameInfo]


class Value(BaseModel):
    """How good a guess is in a state (`solver.analysis.values.ToGo`): the one value every ranking, Why, review
    row and tree line shows, with its text rounded once, here."""

    expected: float = Field(description="Expected guesses to finish with the guess, this one included, over equally "
                                        "likely answers; when `lost` > 0, counting the game played on past the limit.")
    kind: Literal["proven", "approximate", "bound", "estimate"] = Field(description=TO_GO_KINDS)
    text: str = Field(description='`expected` as shown, with the mark of its kind: "3.421" (proven), "~3.452" (a '
                                  'strategy found: at most this), ">=3.422" (at least this), "≈3.500" (an estimate).')
    worst: Union[int, None] = Field(description="The most guesses an answer needs with it, this one included, in the "
                                                "strategy valued; null when not known.")
    lost: int = Field(description="Answers no play opening with this guess finishes within the game's guess limit (0: "
                                  "it can guarantee the limit, or that is not known: see `lost_exact`).")
    lost_exact: bool = Field(description="Whether `lost` is exact (false: at least this many; with 0, not known).")
    chance: Union[float, None] = Field(description="The best chance (0-1) of finishing within the guesses left; null "
                                                   "when not known.")
    limit_text: str = Field(description='What the guess cannot guarantee, as shown ("cannot guarantee 6: 3 answers '
                                        'need a 7th guess"), or "".')
    source: Literal["tree", "book", "ahead", "ranking", "search", "played", "rule", "estimate"] = Field(description=(
        "Where the value comes from: the precomputed tree, the opener book (computed ahead), a ranking computed "
        "ahead, the opener ranking, the live search (a proof or a strategy found, see `kind`), the solver's own "
        "play played out live (a strategy's value), the plain play of one or two answers, or the quick "
        "estimate."))
    source_text: str = Field(description="`source` and `kind` in words, as shown.")


class ExplanationOut(BaseModel):
    """Why the proposed guess: how its feedback splits the candidates, and the guesses it leads to."""

    groups: list[int] = Field(description="Sizes of the groups of candidates by feedback, largest first.")
    largest_group: int = Field(description="The most candidates the guess can leave.")
    win_chance: float = Field(description="The chance that the guess is the answer (0 when it is not a candidate).")
    expected_guesses: Union[float, None] = Field(description="Average guesses still needed, this one included (null "
                                                             "when not known: off the tree, too many candidates).")
    worst_guesses: Union[int, None] = Field(description="The most guesses still needed, this one included (null when "
                                                        "not known).")
    expected_left: float = Field(description="Candidates left after the guess, on average.")
    value: Union[Value, None] = Field(default=None, description="The guess's value, as the alternatives show it.")


class Alternative(BaseModel):
    """A guess ranked by expected guesses to go (then by being a possible answer, then commonness)."""

    guess: str
    expected_left: float = Field(description="Candidates left after it, on average (lower is better).")
    entropy: float = Field(description="Bits of information it gives, on average (higher is better).")
    possible: bool = Field(description="Whether it may itself be the answer.")
    to_go: Union[float, None] = Field(default=None, description=(
        "Expected guesses to finish with it, this one included (see `to_go_kind`); null when not rated within "
        "the time allowed."))
    to_go_kind: ToGoKind = Field(default=None, description=TO_GO_KINDS)
    worst: Union[int, None] = Field(default=None, description=(
        "The most guesses a candidate needs with it, this one included, in the strategy that `to_go` is the "
        "value of; null when not known."))
    solver: bool = Field(default=False, description="Whether it is the solver's own guess.")
    value: Union[Value, None] = Field(default=None, description="Its value in full (null when not rated).")


class NextResponse(BaseModel):
    """The guess to play after a history."""

    title: str = Field(description="The game variant's name to show.")
    guess: Union[str, None] = Field(description="The guess to play; null once solved.")
    source: Literal["tree", "book", "live", "rule"] = Field(description=(
        "tree: read from the precomputed tree; book: the opener book, computed ahead; live: computed now (the "
        "history left the tree and the book, or there is none; `exact` says whether proven); rule: one or two "
        "answers left, one of them played."))
    source_text: str = Field(default="", description="Where the guess comes from and what it is worth, as shown.")
    exact: bool = Field(description="Whether the guess is proven optimal (within the game's guess limit): from a "
                                    "tree built by the exact search's proof, or proven live. False: the top-k "
                                    "search's, a large state's shortlist's or the greedy rule's best, not proven.")
    value: Union[float, None] = Field(description="Expected guesses to finish from here, this one included (exact "
                                                  "when `exact`); null when not computed (a greedy live guess) "
                                                  "or once solved.")
    remaining: int = Field(description="How many answers are still possible.")
    candidates: list[str] = Field(description="The answers still possible (at most `candidates` of them).")
    identified: bool = Field(description="Whether one answer is left.")
    solved: bool = Field(description="Whether the last feedback was the win.")
    explanation: Union[ExplanationOut, None] = Field(description="Why the guess (null once solved).")
    alternatives: list[Alternative] = Field(description="The `top` best guesses: those rated (proven, a strategy's, "
                                                       "a lower bound) by expected guesses to go, then the estimated, "
                                                       "then those not rated; the solver's guess always among them.")
    busy: bool = Field(default=False, description=(
        "True: the live pool was full, so this is the quick answer (the greedy rule's guess, quick estimates, "
        "not proven), given at once rather than a 503; it is not memoised: ask again later for the full one."))


class CandidatesResponse(BaseModel):
    """The answers still possible after a history."""

    remaining: int = Field(description="How many answers are still possible.")
    candidates: list[str] = Field(description="The first `limit` of them.")


class FeedbackResponse(BaseModel):
    """The feedback a guess gets against a target."""

    feedback: FeedbackOut
    win: bool = Field(description="Whether the guess is the target.")


class CheckResponse(BaseModel):
    """Whether a guess (and a target) would be scored by /api/feedback."""

    valid: bool = Field(description="Whether /api/feedback would score them.")
    field: Union[str, None] = Field(description="The field it would refuse (guess or target); null when valid.")
    message: Union[str, None] = Field(description="Why, as its 422 would say; null when valid.")


class RandomResponse(BaseModel):
    """A random possible answer."""

    target: str


class DailyResponse(BaseModel):
    """The daily puzzle of a date: the same answers for everyone that day."""

    date: str = Field(description="The date (YYYY-MM-DD).")
    number: int = Field(description="The puzzle's number: days since `epoch` (day 0).")
    epoch: str = Field(description="The date of puzzle 0: 2021-06-19, the first day of the published Wordle.")
    targets: list[str] = Field(description="The answers, one per board.")
    guesses: Union[int, None] = Field(description="The guesses allowed (Wordle: 5 more than the boards); null when "
                                                  "the game sets no limit.")


class BoardsRandomResponse(BaseModel):
    """Different answers drawn at random, one per board."""

    targets: list[str]
    guesses: int = Field(description="The guesses allowed: 5 more than the boards (Dordle 7, Quordle 9).")


class BoardsFeedbackResponse(BaseModel):
    """The feedback of a guess on each board."""

    feedback: list[Union[FeedbackOut, None]] = Field(description="One per board, in board order; null for a board "
                                                                 "a guess of the `history` solved.")
    win: list[bool] = Field(description="Whether the guess solves each board.")


class BoardsNextResponse(BaseModel):
    """The solver's guess for all the boards (`deduce play wordle --boards N`)."""

    guess: Union[str, None] = Field(description="The guess to play on every board; null once all are solved.")
    remaining: list[int] = Field(description="The answers still possible on each board (0 once solved).")
    solved: list[bool] = Field(description="Whether each board is solved.")
    done: bool = Field(description="Whether every board is solved.")
    guesses: int = Field(description="The guesses allowed: 5 more than the boards.")
    candidates: list[list[str]] = Field(description="The first `candidates` answers left on each board.")
    busy: bool = Field(default=False, description=(
        "True: the live pool was full, so this is the quick answer (the greedy rule's guess, quick estimates, "
        "not proven), given at once rather than a 503; it is not memoised: ask again later for the full one."))


class TreeNode(BaseModel):
    """The node a history reaches."""

    guess: Union[str, None] = Field(description="The guess played at this node (null once solved).")
    remaining: int = Field(description="The answers still possible here.")
    depth: int = Field(description="Guesses played so far.")
    expected_guesses: Union[float, None] = Field(description="Average guesses still needed from here, this one "
                                                             "included (off the tree: the live strategy's, played "
                                                             "out; null once solved).")
    worst_guesses: Union[int, None] = Field(description="The most guesses still needed from here, this one included "
                                                        "(off the tree: the live strategy's; null once solved).")


class TreeChild(BaseModel):
    """Where one feedback to the node's guess leads."""

    feedback: FeedbackOut
    remaining: int = Field(description="The answers that give this feedback.")
    guess: Union[str, None] = Field(description="The next guess there (null when the feedback is the win).")
    expected_guesses: Union[float, None] = Field(description="Average guesses still needed there, its guess included "
                                                             "(null for the win).")
    win: bool = Field(description="Whether this feedback is the win.")


class TreeResponse(BaseModel):
    """A node of the precomputed tree and its children."""

    title: str
    on_tree: bool = Field(description="Whether the history follows the precomputed tree (else the node is live).")
    node: TreeNode
    children: list[TreeChild] = Field(description="One per feedback, the win first, then by remaining (most first).")
    distribution: dict[str, int] = Field(description="For the answers below this node: how many need that many "
                                                     "guesses in total, from the start (keys \"1\", \"2\", ...).")


class PlayedGuess(BaseModel):
    """A guess of a game and the feedback it got."""

    guess: str
    feedback: FeedbackOut


class ReviewedGuess(BaseModel):
    """One guess of a reviewed game, against the best guess in the same state."""

    number: int = Field(description="1 for the first guess.")
    guess: str
    feedback: FeedbackOut
    before: int = Field(description="The answers possible before the guess.")
    after: int = Field(description="The answers possible after it (0 once it won).")
    expected_after: float = Field(description="The answers it was expected to leave, on average over the answers "
                                              "possible before it.")
    luck: Union[float, None] = Field(description="The luck of the draw, 0-100: 100 x (the share of the answers "
                                                 "possible before that would have left more + half the share that "
                                                 "would have left as many); 50 is an average draw. Null when one "
                                                 "answer was left (no choice, no luck).")
    to_go: Union[float, None] = Field(description="Expected guesses to finish with this guess, this one included (see "
                                                  "`to_go_kind`); null when not rated within the time allowed.")
    to_go_kind: ToGoKind = Field(description="How far `to_go` is known (null when it is not): " + TO_GO_KINDS)
    best_guess: str = Field(description="The best guess in this state (the guess itself when it is as good).")
    best_to_go: Union[float, None] = Field(description="Expected guesses to finish with the best guess, it included; "
                                                       "null when not rated within the time allowed.")
    best_to_go_kind: ToGoKind = Field(description="How far `best_to_go` is known (null when it is not): "
                                                 + TO_GO_KINDS)
    cost: Union[float, None] = Field(description="The expected guesses this guess lost against the best guess: "
                                                 "`to_go` - `best_to_go`, 0 for an optimal guess; null when either is "
                                                 "not known.")
    cost_kind: ToGoKind = Field(description="How far `cost` is known: proven (both values proven); bound (at least "
                                            "this: `to_go` is a lower bound); approximate (not proven); estimate "
                                            "(one of the values is a quick estimate); null when `cost` is.")
    skill: Union[float, None] = Field(default=None, description="0-100: 100 x 2^(-cost / 0.25): 100 for an optimal "
                                                                "guess, 50 for one that loses a quarter of a guess.")
    value: Union[Value, None] = Field(default=None, description="The guess's value in full (null when not rated).")
    best_value: Union[Value, None] = Field(default=None, description="The best guess's value in full.")
    cost_text: str = Field(default="", description='`cost` as shown: "0", "0.125", "~0.004", ">=0.125", "≈0.900", '
                                                   '"?".')
    candidates: list[str] = Field(default_factory=list, description="The answers possible before the guess (at "
                                                                    "most `words` of them, as asked).")


class ReviewResponse(BaseModel):
    """A played game reviewed guess by guess (`deduce review`), with the summary scores."""

    title: str = Field(description="The game variant's name to show.")
    won: bool = Field(description="Whether the last guess was the win.")
    lost: bool = Field(default=False, description="Whether the game ended unsolved at the game's guess limit.")
    guesses: list[ReviewedGuess] = Field(description="One per guess played, in order.")
    cost: float = Field(description="The expected guesses lost in all, over the guesses whose cost is known.")
    exact: bool = Field(description="Whether every guess's cost is proven (else `cost` is approximate).")
    skill: Union[int, None] = Field(description="0-100: the mean of the guesses' `skill` over the guesses made with "
                                                "more than one answer left (the first included) and any that missed "
                                                "a known answer; 100 when every guess is optimal.")
    luck: Union[int, None] = Field(description="0-100: the mean luck of the guesses made with more than one answer "
                                               "left (null when there is none).")
    share: str = Field(description="A one-line summary to share: the game, the guesses (of the most allowed), skill, "
                                   "luck and the guesses lost (~ when not proven).")
    cost_text: str = Field(default="", description="`cost` as shown, rounded as every figure.")
    answer: Union[str, None] = Field(default=None, description="The answer, when known (given, won, or the one "
                                                               "answer left).")
    solver_game: list[PlayedGuess] = Field(default_factory=list, description="The solver's own game for the same "
                                                                              "answer (empty when it is not known).")


class BoardReview(ReviewResponse):
    """One board of a game of several boards, reviewed as a Wordle game of its own over the guesses made while
    it was open (its figures count every one of them; `solver_game` is empty: the game's is on the whole)."""

    board: int = Field(description="1 for the first board.")
    not_counted: list[int] = Field(default_factory=list, description=(
        "The numbers of the guesses made once this board's answer was known that are not that answer (played "
        "for another board, as a rule): the game's totals leave them out."))


class BoardsPlayedGuess(BaseModel):
    """A guess of the solver's own game of several boards, and the feedback of each board."""

    guess: str
    feedback: list[Union[str, None]] = Field(description="One per board, in board order: marks like \"GYRRR\"; "
                                                         "null for a board solved before this guess.")


class BoardsReviewResponse(BaseModel):
    """A game of several boards reviewed (`deduce review wordle --boards N`): each board as a game of its own,
    the totals over the guesses that count, and the solver's own game for the same answers."""

    boards: list[BoardReview] = Field(description="One per board, in board order. The best guess is the best for "
                                                  "that board alone (no optimum of several boards is known); a "
                                                  "board's guesses past its 6th are valued playing on past a single "
                                                  "board's limit.")
    won: bool = Field(description="Whether every board was solved.")
    lost: bool = Field(description="Whether the game ended with a board unsolved at the guess limit.")
    guesses: int = Field(description="The guesses played.")
    limit: int = Field(description="The guesses allowed: 5 more than the boards (Dordle 7, Quordle 9).")
    answers: list[str] = Field(description="The answers, one per board.")
    cost: float = Field(description="The expected guesses lost in all, over every board's guesses but those in its "
                                    "`not_counted`, whose cost is known.")
    cost_text: str = Field(description="`cost` as shown (~ when not every cost counted is proven).")
    exact: bool = Field(description="Whether every cost counted is proven.")
    skill: Union[int, None] = Field(description="0-100: the mean skill of the guesses counted (as /api/review's "
                                                "`skill`).")
    luck: Union[int, None] = Field(description="0-100: the mean luck of the guesses counted made with more than one "
                                               "answer left on their board (null when there is none).")
    share: str = Field(description='A one-line summary to share: "deduce review: 2 boards 4&3/7, skill 95, luck 55, '
                                   '0.089 guesses lost" (X for a board not solved).')
    solver_game: list[BoardsPlayedGuess] = Field(description="The solver's own game of every board for the same "
                                                             "answers (`deduce play wordle --boards N`).")


class HiddenStep(BaseModel):
    """One guess against the hider, its answer and what is left."""

    guess: str
    feedback: FeedbackOut
    remaining: int = Field(description="The answers the hider still keeps after this feedback.")


class HideResponse(BaseModel):
    """The hider's answer to every guess (the feedback keeping the most answers; the win only when the guess is
    the one answer left), and in challenge mode whether the target is still possible."""

    steps: list[HiddenStep]
    remaining: int = Field(description="The answers the hider still keeps.")
    won: bool = Field(description="Whether the last guess was the one answer left (in challenge mode: the target).")
    target: Union[str, None] = Field(description="Challenge mode: the target; null for the plain hider.")
    target_possible: bool = Field(description="Whether the target is still one of the answers kept (always true "
                                              "without a target).")
    missed: Union[int, None] = Field(description="Challenge mode: the guess (1-based) whose feedback ruled the "
                                                 "target out; null while it is possible.")


class ErrorDetail(BaseModel):
    """What was wrong with the request."""

    field: Union[str, None] = Field(description='The request field at fault, e.g. "history[0].feedback"; null when '
                                                "the whole request is.")
    message: str = Field(description="One line saying what is wrong.")


class ErrorResponse(BaseModel):
    """Every error response."""

    error: ErrorDetail
