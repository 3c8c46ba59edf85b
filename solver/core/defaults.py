"""The defaults a person sees in the command line's help, here where reading them imports nothing (the
modules that use them import NumPy, or the web extra): the live budget and its safety net
(`solver.core.strategy`), the number of guesses a hint ranks (`solver.analysis.scores`), and the web
server's limits (`solver.web.admission`, `solver.cli.serve`). Help strings are built from these names,
so that what the help says is what the code does."""
from __future__ import annotations

LIVE_BUDGET = 1.0  # seconds: a live choice's budget, which sizes its work (LIVE_PAIRS; the exact search's)
DEFAULT_TOP = 5  # guesses a hint ranks (`deduce hint --top`), and the rankings computed ahead (the hints artifact)

# the wall clock stops a live choice only at this many times its budget: a safety net for a machine far
# slower or busier than this one, never the normal way a choice ends (a choice it cut short is logged, and
# not kept). A large state's choice took up to 1.3 s per budget second here (the greedy rule, then
# the search or the shortlist's look-ahead and proofs), so 20 leaves room for a machine 10 times as slow
SAFETY_FACTOR = 20.0
SAFETY_MIN_SECONDS = 2.0  # ... and never sooner than this: a tiny budget's work may wait on a busy machine

# the web server (`deduce serve`, DEDUCE_WEB_*): the live workers default to the CPU count
QUEUE_PER_WORKER = 2  # the default queue: this many live requests waiting per worker
HEADER_TIMEOUT = 10.0  # seconds for a request's headers, else 408 and closed
BODY_TIMEOUT = 10.0  # seconds for a request's body, else 408 and closed
KEEP_ALIVE = 5.0  # seconds an idle connection stays open after a response
MAX_CONNECTIONS = 200  # connections and requests at once, more: 503 (uvicorn's limit_concurrency)
