"""`deduce serve`: a web page and its JSON API over the solvers (FastAPI on uvicorn; the `web` extra).

The server keeps no per-user state: the history travels in every request, so any number of workers
can serve it; pure results are memoised per (game, variant, history) in `service`. Layout:
`app.create_app()` builds the application (the API under /api, JSON errors, a 64 KB body limit and a
body timeout, relative redirects, the page from `static/` at /), `api` holds the thin endpoints,
`models` the request and response shapes (documented at /docs and /openapi.json), `service` turns
library results into them, `admission` bounds the live work (its pool, the limits read from the
DEDUCE_WEB_* variables) and `server` is uvicorn's protocol with a header timeout.

API contract (JSON bodies; the page in `static/` is written against exactly this):

* common request fields: `game` (battleship, cards, wordle, mastermind, bulls), `variant` (optional:
  cards n1..n4, default n2; wordle normal (default), hard, answers-only), `history` (list of
  `{"guess": str, "feedback": FEEDBACK}`, default []). Guesses as the CLI takes them ("SALET",
  "A1 A3 H1" or "A1-A3-H1", "2C AS", "1122", "0123"). FEEDBACK: Wordle marks in any spelling the CLI
  accepts ("GYRRR", "21000", emoji squares); the other games a list of ints [0, 1, 0] (or "0,1,0").
  Responses give Wordle feedback as "G/Y/R" strings, the others as int lists.
* `GET /api/games`: every registered variant: title, counts, has_tree, feedback format, example
  guess, whether it is the default.
* `POST /api/next` {game, variant?, history?, top? 0..20, candidates? 0..500}: the guess to play
  (null once solved), tree or live, whether it is proven optimal (`exact`) and its expected guesses
  to finish (`value`), candidates, an explanation of the guess, `top` alternatives (each with its
  guesses to go, `to_go`, where the exact search proved it in time).
* `POST /api/candidates` {game, variant?, history?, limit? 0..5000}: remaining and candidates.
* `POST /api/feedback` {game, variant?, target, guess, history?}: the feedback and whether it wins.
* `GET /api/random?game=&variant=&seed=`: a random possible answer (seeded for tests).
* `POST /api/tree` {game, variant?, path?}: the tree node a history reaches, its children (the win
  first, then by candidates left) and its distribution of total guesses.

Errors: `{"error": {"field": str | null, "message": str}}`: 400 malformed JSON, 404 unknown path,
405 wrong method, 408 headers or body too slow, 413 a body over 64 KB, 422 a bad field (named like
"history[0].feedback"), 503 too busy (live pool or connections full; with Retry-After).
"""
