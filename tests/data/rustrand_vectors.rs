//! Reference-vector generator for solver/rustrand.py (the pure-Python port).
//!
//! Build (offline, against Debian's librust-rand-dev / librust-rand-chacha-dev /
//! librust-sha2-dev sources in /usr/share/cargo/registry; run on a 64-bit
//! target, since gen_index's non-u32 path uses usize): put this file at
//! src/main.rs of a scratch cargo project outside the repo with
//!
//!   Cargo.toml dependencies: rand = "=0.8.5", rand_chacha = "0.3", sha2 = "0.10"
//!   .cargo/config.toml:
//!     [source.crates-io]
//!     replace-with = "debian"
//!     [source.debian]
//!     directory = "/usr/share/cargo/registry"
//!
//!   cargo run --release > tests/data/rustrand_vectors.json
//!
//! Output: JSON with, per seed, the first 20 next_u32() outputs of a fresh
//! StdRng::seed_from_u64(seed), the first 20 next_u64() outputs of another
//! fresh one, one next_u32() followed by 40 next_u64() (so one u64 read
//! straddles the 64-word buffer refill), gen_index draws for each bound in
//! `BOUNDS` (3 rounds, one rng), and the result of
//! `(0..n).collect::<Vec<u32>>().shuffle(rng)`
//! (fresh rng per n). For long permutations only the first 50 entries are
//! stored, plus the sha256 hex digest of the full permutation written as
//! comma-separated decimal (no spaces, no trailing comma).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use sha2::{Digest, Sha256};

const SEEDS: [u64; 6] = [0, 1, 42, 2022, 18446744073709551615, 12345678901234];
const SIZES: [usize; 6] = [1, 2, 3, 10, 2315, 12972];
const STREAM_LEN: usize = 20;
const PREFIX_LEN: usize = 50;
/// Bounds for the gen_index vectors: both the u32 and the usize (u64) paths,
/// and bounds just above a power of two, where rejection is most likely.
const BOUNDS: [u64; 12] = [
    1, 2, 3, 7, 4097, 2315, 2147483649, 4294967295, 4294967296, 8589934597,
    9223372036854775809, 18446744073709551615,
];

/// Same as rand 0.8.5's private `seq::gen_index` (used by `shuffle`).
fn gen_index<R: Rng + ?Sized>(rng: &mut R, ubound: usize) -> usize {
    if ubound <= (core::u32::MAX as usize) {
        rng.gen_range(0..ubound as u32) as usize
    } else {
        rng.gen_range(0..ubound)
    }
}

fn join<T: ToString>(xs: &[T]) -> String {
    xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

fn main() {
    let mut seeds_json = Vec::new();
    for &seed in SEEDS.iter() {
        let mut rng = StdRng::seed_from_u64(seed);
        let u32s: Vec<u32> = (0..STREAM_LEN).map(|_| rng.next_u32()).collect();
        let mut rng = StdRng::seed_from_u64(seed);
        let u64s: Vec<u64> = (0..STREAM_LEN).map(|_| rng.next_u64()).collect();

        // One u32 then 40 u64: the u64 reads are then at odd word offsets, so
        // one straddles the 64-word buffer refill (BlockRng::next_u64 edge case).
        let mut rng = StdRng::seed_from_u64(seed);
        let first = rng.next_u32();
        let mixed_u64s: Vec<u64> = (0..40).map(|_| rng.next_u64()).collect();

        // gen_index for each bound in turn (3 rounds), one rng.
        let mut rng = StdRng::seed_from_u64(seed);
        let mut idx = Vec::new();
        for _ in 0..3 {
            for &b in BOUNDS.iter() {
                idx.push(gen_index(&mut rng, b as usize) as u64);
            }
        }

        let mut shuffles = Vec::new();
        for &n in SIZES.iter() {
            let mut v: Vec<u32> = (0..n as u32).collect();
            let mut rng = StdRng::seed_from_u64(seed);
            v.shuffle(&mut rng);
            let full = join(&v);
            let sha = Sha256::digest(full.as_bytes());
            let sha_hex: String = sha.iter().map(|b| format!("{:02x}", b)).collect();
            let truncated = n > PREFIX_LEN;
            let shown = if truncated { &v[..PREFIX_LEN] } else { &v[..] };
            shuffles.push(format!(
                "        {{\"n\": {}, \"truncated\": {}, \"perm\": [{}], \"sha256\": \"{}\"}}",
                n, truncated, join(shown), sha_hex
            ));
        }
        seeds_json.push(format!(
            "    {{\n      \"seed\": {},\n      \"next_u32\": [{}],\n      \"next_u64\": [{}],\n      \"mixed_first_u32\": {},\n      \"mixed_then_u64\": [{}],\n      \"gen_index\": [{}],\n      \"shuffles\": [\n{}\n      ]\n    }}",
            seed,
            join(&u32s),
            join(&u64s),
            first,
            join(&mixed_u64s),
            join(&idx),
            shuffles.join(",\n")
        ));
    }
    println!("{{");
    println!("  \"generator\": \"rand 0.8.5 StdRng (rand_chacha 0.3.1 ChaCha12Rng) via tests/data/rustrand_vectors.rs\",");
    println!("  \"sha256_format\": \"sha256 hex of the full permutation as comma-separated decimal, no spaces\",");
    println!("  \"prefix_len\": {},", PREFIX_LEN);
    println!("  \"gen_index_bounds\": [{}],", join(&BOUNDS));
    println!("  \"gen_index_rounds\": 3,");
    println!("  \"seeds\": [\n{}\n  ]", seeds_json.join(",\n"));
    println!("}}");
}
