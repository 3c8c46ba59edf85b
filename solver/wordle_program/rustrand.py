"""Bit-exact pure-Python port of Rust's seeded ``StdRng`` and ``SliceRandom::shuffle``.

Matches rand 0.8.5 (with rand_core 0.6.3 and rand_chacha 0.3.1) on a 64-bit
target, where ``StdRng`` is ``ChaCha12Rng``::

    let mut rng = StdRng::seed_from_u64(seed);
    slice.shuffle(&mut rng);

gives the same permutation as ``shuffle(items, seed)`` below.  The pieces are:

* ``SeedableRng::seed_from_u64`` (rand_core 0.6): a PCG32 step (LCG advance,
  then XSH-RR output) run 8 times fills the 32-byte seed, little-endian.
* ``ChaCha12Rng`` (rand_chacha 0.3): ChaCha with 6 double rounds, the seed as
  the 256-bit key, a 64-bit block counter in words 12-13 starting at 0 and a
  64-bit stream id (0) in words 14-15.  Output is buffered 4 blocks (64 u32
  words) at a time and read through rand_core's ``BlockRng``, whose
  ``next_u64`` takes two consecutive words (low first), straddling a refill
  if only one word is left.
* ``SliceRandom::shuffle`` (rand 0.8.5): for i from len-1 down to 1, swap i
  with ``gen_index(rng, i + 1)``; ``gen_index`` samples a u32 when the bound
  fits in u32 (else a usize = u64), via ``UniformInt::sample_single_inclusive``:
  widening multiply with rejection when the low half exceeds
  ``zone = (range << leading_zeros(range)) - 1``.

Reference vectors produced by the real crates are in
``tests/data/rustrand_vectors.json`` (generator: ``tests/data/rustrand_vectors.rs``).
"""

from __future__ import annotations

import operator

__all__ = ["StdRng", "shuffle"]

_M32 = 0xFFFFFFFF
_M64 = 0xFFFFFFFFFFFFFFFF

# PCG32 constants used by rand_core's default seed_from_u64.
_PCG_MUL = 6364136223846793005
_PCG_INC = 11634580027462260723

# "expand 32-byte k"
_SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)

_DOUBLE_ROUNDS = 6  # ChaCha12
_BUF_BLOCKS = 4  # rand_chacha refills 4 blocks = 64 words at a time
_BUF_WORDS = 16 * _BUF_BLOCKS


def _chacha_block(key: tuple, counter: int, stream: int) -> list:
    """Return the 16 output words of one ChaCha12 block."""
    c0, c1, c2, c3 = _SIGMA
    k0, k1, k2, k3, k4, k5, k6, k7 = key
    d0 = counter & _M32
    d1 = counter >> 32
    d2 = stream & _M32
    d3 = stream >> 32

    x0, x1, x2, x3 = c0, c1, c2, c3
    x4, x5, x6, x7 = k0, k1, k2, k3
    x8, x9, x10, x11 = k4, k5, k6, k7
    x12, x13, x14, x15 = d0, d1, d2, d3
    M = _M32
    for _ in range(_DOUBLE_ROUNDS):
        # Column round: quarter-rounds on (0,4,8,12) (1,5,9,13) (2,6,10,14) (3,7,11,15).
        x0 = (x0 + x4) & M; x12 ^= x0; x12 = ((x12 << 16) & M) | (x12 >> 16)
        x8 = (x8 + x12) & M; x4 ^= x8; x4 = ((x4 << 12) & M) | (x4 >> 20)
        x0 = (x0 + x4) & M; x12 ^= x0; x12 = ((x12 << 8) & M) | (x12 >> 24)
        x8 = (x8 + x12) & M; x4 ^= x8; x4 = ((x4 << 7) & M) | (x4 >> 25)

        x1 = (x1 + x5) & M; x13 ^= x1; x13 = ((x13 << 16) & M) | (x13 >> 16)
        x9 = (x9 + x13) & M; x5 ^= x9; x5 = ((x5 << 12) & M) | (x5 >> 20)
        x1 = (x1 + x5) & M; x13 ^= x1; x13 = ((x13 << 8) & M) | (x13 >> 24)
        x9 = (x9 + x13) & M; x5 ^= x9; x5 = ((x5 << 7) & M) | (x5 >> 25)

        x2 = (x2 + x6) & M; x14 ^= x2; x14 = ((x14 << 16) & M) | (x14 >> 16)
        x10 = (x10 + x14) & M; x6 ^= x10; x6 = ((x6 << 12) & M) | (x6 >> 20)
        x2 = (x2 + x6) & M; x14 ^= x2; x14 = ((x14 << 8) & M) | (x14 >> 24)
        x10 = (x10 + x14) & M; x6 ^= x10; x6 = ((x6 << 7) & M) | (x6 >> 25)

        x3 = (x3 + x7) & M; x15 ^= x3; x15 = ((x15 << 16) & M) | (x15 >> 16)
        x11 = (x11 + x15) & M; x7 ^= x11; x7 = ((x7 << 12) & M) | (x7 >> 20)
        x3 = (x3 + x7) & M; x15 ^= x3; x15 = ((x15 << 8) & M) | (x15 >> 24)
        x11 = (x11 + x15) & M; x7 ^= x11; x7 = ((x7 << 7) & M) | (x7 >> 25)

        # Diagonal round: (0,5,10,15) (1,6,11,12) (2,7,8,13) (3,4,9,14).
        x0 = (x0 + x5) & M; x15 ^= x0; x15 = ((x15 << 16) & M) | (x15 >> 16)
        x10 = (x10 + x15) & M; x5 ^= x10; x5 = ((x5 << 12) & M) | (x5 >> 20)
        x0 = (x0 + x5) & M; x15 ^= x0; x15 = ((x15 << 8) & M) | (x15 >> 24)
        x10 = (x10 + x15) & M; x5 ^= x10; x5 = ((x5 << 7) & M) | (x5 >> 25)

        x1 = (x1 + x6) & M; x12 ^= x1; x12 = ((x12 << 16) & M) | (x12 >> 16)
        x11 = (x11 + x12) & M; x6 ^= x11; x6 = ((x6 << 12) & M) | (x6 >> 20)
        x1 = (x1 + x6) & M; x12 ^= x1; x12 = ((x12 << 8) & M) | (x12 >> 24)
        x11 = (x11 + x12) & M; x6 ^= x11; x6 = ((x6 << 7) & M) | (x6 >> 25)

        x2 = (x2 + x7) & M; x13 ^= x2; x13 = ((x13 << 16) & M) | (x13 >> 16)
        x8 = (x8 + x13) & M; x7 ^= x8; x7 = ((x7 << 12) & M) | (x7 >> 20)
        x2 = (x2 + x7) & M; x13 ^= x2; x13 = ((x13 << 8) & M) | (x13 >> 24)
        x8 = (x8 + x13) & M; x7 ^= x8; x7 = ((x7 << 7) & M) | (x7 >> 25)

        x3 = (x3 + x4) & M; x14 ^= x3; x14 = ((x14 << 16) & M) | (x14 >> 16)
        x9 = (x9 + x14) & M; x4 ^= x9; x4 = ((x4 << 12) & M) | (x4 >> 20)
        x3 = (x3 + x4) & M; x14 ^= x3; x14 = ((x14 << 8) & M) | (x14 >> 24)
        x9 = (x9 + x14) & M; x4 ^= x9; x4 = ((x4 << 7) & M) | (x4 >> 25)

    # Feed-forward: add the input state.
    return [
        (x0 + c0) & M, (x1 + c1) & M, (x2 + c2) & M, (x3 + c3) & M,
        (x4 + k0) & M, (x5 + k1) & M, (x6 + k2) & M, (x7 + k3) & M,
        (x8 + k4) & M, (x9 + k5) & M, (x10 + k6) & M, (x11 + k7) & M,
        (x12 + d0) & M, (x13 + d1) & M, (x14 + d2) & M, (x15 + d3) & M,
    ]


def _pcg32_seed_bytes(state: int) -> bytes:
    """Expand a u64 into 32 seed bytes the way rand_core 0.6 ``seed_from_u64`` does."""
    out = bytearray()
    for _ in range(8):
        state = (state * _PCG_MUL + _PCG_INC) & _M64
        xorshifted = (((state >> 18) ^ state) >> 27) & _M32
        rot = state >> 59
        x = ((xorshifted >> rot) | (xorshifted << ((32 - rot) & 31))) & _M32
        out += x.to_bytes(4, "little")
    return bytes(out)


class StdRng:
    """rand 0.8.5 ``StdRng`` (= rand_chacha 0.3 ``ChaCha12Rng``), stream 0.

    Create with :meth:`seed_from_u64` (or :meth:`from_seed` for a raw 32-byte
    seed); instances are independent and mutable.
    """

    __slots__ = ("_key", "_counter", "_buf", "_index")

    def __init__(self, seed: bytes):
        if len(seed) != 32:
            raise ValueError("StdRng seed must be exactly 32 bytes")
        self._key = tuple(
            int.from_bytes(seed[i : i + 4], "little") for i in range(0, 32, 4)
        )
        self._counter = 0  # next block number (64-bit, wrapping)
        self._buf: list = []
        self._index = _BUF_WORDS  # buffer empty: refill on first use

    @classmethod
    def from_seed(cls, seed: bytes) -> "StdRng":
        """Equivalent of ``StdRng::from_seed([u8; 32])``."""
        return cls(bytes(seed))

    @classmethod
    def seed_from_u64(cls, seed: int) -> "StdRng":
        """Equivalent of ``StdRng::seed_from_u64(seed)``; seed must be in 0..2**64-1."""
        seed = operator.index(seed)
        if not 0 <= seed <= _M64:
            raise ValueError(f"seed must be in 0..2**64-1, got {seed}")
        return cls(_pcg32_seed_bytes(seed))

    def _refill(self) -> None:
        buf = []
        for _ in range(_BUF_BLOCKS):
            buf += _chacha_block(self._key, self._counter, 0)
            self._counter = (self._counter + 1) & _M64
        self._buf = buf

    def next_u32(self) -> int:
        """Next 32-bit output (``RngCore::next_u32``)."""
        if self._index >= _BUF_WORDS:
            self._refill()
            self._index = 0
        value = self._buf[self._index]
        self._index += 1
        return value

    def next_u64(self) -> int:
        """Next 64-bit output (``RngCore::next_u64``): two words, low word first.

        As in ``BlockRng``, if exactly one word is left in the buffer it becomes
        the low half and the high half is the first word of the next buffer.
        """
        i = self._index
        if i < _BUF_WORDS - 1:
            self._index = i + 2
            buf = self._buf
            return (buf[i + 1] << 32) | buf[i]
        if i >= _BUF_WORDS:
            self._refill()
            self._index = 2
            return (self._buf[1] << 32) | self._buf[0]
        low = self._buf[_BUF_WORDS - 1]
        self._refill()
        self._index = 1
        return (self._buf[0] << 32) | low

    def gen_index(self, bound: int) -> int:
        """Uniform index in ``0..bound`` exactly as rand 0.8.5's ``seq::gen_index``.

        Uses u32 sampling if ``bound <= 2**32 - 1``, otherwise u64 (usize on a
        64-bit target).  ``bound`` must be in 1..2**64-1 (Rust panics on an
        empty range; here that is a ValueError).
        """
        bound = operator.index(bound)
        if not 1 <= bound <= _M64:
            raise ValueError(f"bound must be in 1..2**64-1, got {bound}")
        if bound <= _M32:
            bits, draw = 32, self.next_u32
        else:
            bits, draw = 64, self.next_u64
        mask = (1 << bits) - 1
        # sample_single_inclusive(0, bound - 1): range = bound (never wraps to 0 here).
        rng_range = bound
        zone = ((rng_range << (bits - rng_range.bit_length())) - 1) & mask
        while True:
            product = draw() * rng_range
            if product & mask <= zone:
                return product >> bits


def shuffle(items, seed: int) -> list:
    """Return a new list: ``items`` shuffled like Rust's ``slice.shuffle(&mut StdRng::seed_from_u64(seed))``.

    The input is not modified.  The permutation depends only on ``len(items)``
    and ``seed``.
    """
    out = list(items)
    rng = StdRng.seed_from_u64(seed)
    gen_index = rng.gen_index
    for i in range(len(out) - 1, 0, -1):
        j = gen_index(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
