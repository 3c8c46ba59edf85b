"""Tests for solver.wordle_program.rustrand against vectors printed by the real Rust crates.

The vectors (tests/data/rustrand_vectors.json) come from rand 0.8.5 /
rand_chacha 0.3.1 via tests/data/rustrand_vectors.rs.
"""

import hashlib
import json
from pathlib import Path

import pytest

from solver.wordle_program.rustrand import StdRng, shuffle

ROOT = Path(__file__).resolve().parents[1]

VECTORS = json.loads((ROOT / "tests" / "data" / "rustrand_vectors.json").read_text())
SEEDS = VECTORS["seeds"]
SEED_IDS = [str(s["seed"]) for s in SEEDS]
SHUFFLE_CASES = [(s["seed"], case) for s in SEEDS for case in s["shuffles"]]
SHUFFLE_IDS = [f"seed{seed}-n{case['n']}" for seed, case in SHUFFLE_CASES]


def _perm_sha256(perm):
    return hashlib.sha256(",".join(map(str, perm)).encode("ascii")).hexdigest()


def test_vectors_cover_requested_cases():
    assert [s["seed"] for s in SEEDS] == [
        0, 1, 42, 2022, 18446744073709551615, 12345678901234,
    ]
    for s in SEEDS:
        assert [c["n"] for c in s["shuffles"]] == [1, 2, 3, 10, 2315, 12972]
        assert len(s["next_u32"]) == 20
        assert len(s["next_u64"]) == 20


@pytest.mark.parametrize("vec", SEEDS, ids=SEED_IDS)
def test_next_u32_stream(vec):
    rng = StdRng.seed_from_u64(vec["seed"])
    assert [rng.next_u32() for _ in vec["next_u32"]] == vec["next_u32"]


@pytest.mark.parametrize("vec", SEEDS, ids=SEED_IDS)
def test_next_u64_stream(vec):
    rng = StdRng.seed_from_u64(vec["seed"])
    assert [rng.next_u64() for _ in vec["next_u64"]] == vec["next_u64"]


@pytest.mark.parametrize("vec", SEEDS, ids=SEED_IDS)
def test_next_u64_straddling_buffer_refill(vec):
    rng = StdRng.seed_from_u64(vec["seed"])
    assert rng.next_u32() == vec["mixed_first_u32"]
    expected = vec["mixed_then_u64"]
    assert [rng.next_u64() for _ in expected] == expected


@pytest.mark.parametrize("vec", SEEDS, ids=SEED_IDS)
def test_gen_index(vec):
    rng = StdRng.seed_from_u64(vec["seed"])
    bounds = VECTORS["gen_index_bounds"] * VECTORS["gen_index_rounds"]
    got = [rng.gen_index(b) for b in bounds]
    assert got == vec["gen_index"]
    assert all(0 <= g < b for g, b in zip(got, bounds))


@pytest.mark.parametrize("seed,case", SHUFFLE_CASES, ids=SHUFFLE_IDS)
def test_shuffle_matches_rust(seed, case):
    n = case["n"]
    perm = shuffle(list(range(n)), seed)
    assert sorted(perm) == list(range(n))
    if case["truncated"]:
        assert perm[: len(case["perm"])] == case["perm"]
    else:
        assert perm == case["perm"]
    assert _perm_sha256(perm) == case["sha256"]


def test_shuffle_returns_new_list_and_permutes_items():
    words = [f"w{i}" for i in range(10)]
    original = list(words)
    out = shuffle(words, 42)
    assert words == original  # input untouched
    assert out is not words
    assert out == [words[i] for i in shuffle(list(range(10)), 42)]
    assert shuffle([], 42) == []


def test_wordle_seed42_answer_order():
    # Sanity value for the 2315-word answer list: day D -> index D-1.
    assert shuffle(list(range(2315)), 42)[:5] == [1697, 572, 1618, 211, 1595]


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70, -(2**64)])
def test_seed_out_of_range(seed):
    with pytest.raises(ValueError):
        StdRng.seed_from_u64(seed)
    with pytest.raises(ValueError):
        shuffle([1, 2, 3], seed)


def test_seed_range_edges_accepted():
    StdRng.seed_from_u64(0)
    StdRng.seed_from_u64(2**64 - 1)


def test_seed_must_be_integer():
    with pytest.raises(TypeError):
        StdRng.seed_from_u64(1.0)


@pytest.mark.parametrize("bound", [0, -1, 2**64])
def test_gen_index_bound_out_of_range(bound):
    with pytest.raises(ValueError):
        StdRng.seed_from_u64(0).gen_index(bound)
