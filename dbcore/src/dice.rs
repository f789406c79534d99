//! Dice are inputs (DBA3.md §0.3: every random event is one d6).
//!
//! The rules never roll: every transition that needs chance takes [`DieScore`]s. A person at a
//! real table types in what the dice show; a simulation draws them with [`roll`] from any
//! [`rand_core::RngCore`]; exact odds enumerate all six scores ([`DieScore::ALL`]).

use rand_core::RngCore;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

use crate::codes::{ErrorCode, ErrorInfo};

/// The score of one six-sided die: 1 to 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DieScore(u8);

/// A die score outside 1..=6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[error("§0.3: a die shows 1 to 6, not {0}")]
pub struct DiceError(pub i64);

impl ErrorInfo for DiceError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidDie
    }
    fn rule(&self) -> Option<&'static str> {
        Some("§0.3")
    }
}

impl DieScore {
    /// The six possible scores, for exact enumeration.
    pub const ALL: [DieScore; 6] = [
        DieScore(1),
        DieScore(2),
        DieScore(3),
        DieScore(4),
        DieScore(5),
        DieScore(6),
    ];

    /// A score, refusing anything outside 1..=6.
    ///
    /// ```
    /// use dbcore::DieScore;
    /// use dbcore::error::{ErrorCode, ErrorInfo};
    ///
    /// assert_eq!(DieScore::new(6).unwrap().get(), 6);
    /// let err = DieScore::new(7).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::InvalidDie); // error 300, the dice family
    /// assert_eq!(err.to_string(), "§0.3: a die shows 1 to 6, not 7");
    /// ```
    #[inline]
    pub fn new(score: u8) -> Result<DieScore, DiceError> {
        if (1..=6).contains(&score) {
            Ok(DieScore(score))
        } else {
            Err(DiceError(score.into()))
        }
    }

    /// A score from any integer, refusing anything outside 1..=6.
    pub fn from_i64(score: i64) -> Result<DieScore, DiceError> {
        if (1..=6).contains(&score) {
            Ok(DieScore(score as u8))
        } else {
            Err(DiceError(score))
        }
    }

    /// The score, 1 to 6.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl fmt::Display for DieScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl TryFrom<u8> for DieScore {
    type Error = DiceError;
    fn try_from(v: u8) -> Result<Self, DiceError> {
        DieScore::new(v)
    }
}

impl Serialize for DieScore {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for DieScore {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = i64::deserialize(d)?;
        DieScore::from_i64(v).map_err(serde::de::Error::custom)
    }
}

/// Draw one fair die score from `rng` without modulo bias: 32-bit draws at or above the largest
/// multiple of 6 are rejected and drawn again.
///
/// ```
/// use dbcore::{roll, SeededDice};
///
/// // Any rand_core::RngCore will do; SeededDice is one.
/// let mut rng = SeededDice::new(7);
/// let scores: Vec<u8> = (0..600).map(|_| roll(&mut rng).get()).collect();
/// assert!(scores.iter().all(|s| (1..=6).contains(s)));
/// assert!((1..=6).all(|face| scores.contains(&face)));
/// ```
pub fn roll<R: RngCore + ?Sized>(rng: &mut R) -> DieScore {
    // 2^32 = 6 * 715_827_882 + 4: accept the first 6 * 715_827_882 values, so that the top 4
    // values, which would favour 1..=4, are drawn again.
    const LIMIT: u32 = u32::MAX - u32::MAX % 6;
    loop {
        let v = rng.next_u32();
        if v < LIMIT {
            return DieScore((v % 6) as u8 + 1);
        }
    }
}

/// A seeded source of die scores for simulations, demonstrations and tests: the same seed gives
/// the same scores in Rust, C and Python. It is a driver that *supplies* dice; the rules never
/// hold one (PCG-64 MCG, seeded through `SeedableRng::seed_from_u64`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeededDice(rand_pcg::Pcg64Mcg);

impl SeededDice {
    /// Dice seeded with `seed`: the same scores in Rust, C and Python for the same seed.
    ///
    /// ```
    /// use dbcore::SeededDice;
    ///
    /// let mut a = SeededDice::new(42);
    /// let mut b = SeededDice::new(42);
    /// let first: Vec<_> = (0..10).map(|_| a.roll()).collect();
    /// assert_eq!(first, (0..10).map(|_| b.roll()).collect::<Vec<_>>());
    ///
    /// // Jumping ahead lands where drawing would: a die takes one draw here.
    /// let mut c = SeededDice::advanced(42, 10);
    /// assert_eq!(c.roll(), a.roll());
    /// ```
    pub fn new(seed: u64) -> Self {
        use rand_core::SeedableRng;
        SeededDice(rand_pcg::Pcg64Mcg::seed_from_u64(seed))
    }
    /// The dice of `seed` after `draws` draws from the generator (a `next_u32` or `next_u64`
    /// each, as `roll` takes them), reached by jumping ahead rather than drawing: restoring a
    /// saved position costs the same for any count.
    pub fn advanced(seed: u64, draws: u64) -> Self {
        let mut d = SeededDice::new(seed);
        d.0.advance(u128::from(draws));
        d
    }
    /// One die score.
    pub fn roll(&mut self) -> DieScore {
        roll(&mut self.0)
    }
    /// Two die scores, as a combat needs.
    pub fn roll_pair(&mut self) -> [DieScore; 2] {
        roll_n(&mut self.0)
    }
}

impl RngCore for SeededDice {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.0.fill_bytes(dst)
    }
}

/// Draw `N` die scores.
pub fn roll_n<R: RngCore + ?Sized, const N: usize>(rng: &mut R) -> [DieScore; N] {
    std::array::from_fn(|_| roll(rng))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(Vec<u32>);
    impl RngCore for Fixed {
        fn next_u32(&mut self) -> u32 {
            self.0.remove(0)
        }
        fn next_u64(&mut self) -> u64 {
            self.next_u32() as u64
        }
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            for b in dst {
                *b = self.next_u32() as u8;
            }
        }
    }

    #[test]
    fn seeded_dice_repeat_for_the_same_seed() {
        let a: Vec<u8> = (0..20)
            .map({
                let mut d = SeededDice::new(7);
                move |_| d.roll().get()
            })
            .collect();
        let mut d = SeededDice::new(7);
        let b: Vec<u8> = (0..20).map(|_| d.roll().get()).collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|v| (1..=6).contains(v)));
    }

    #[test]
    fn advancing_equals_drawing() {
        for n in [0u64, 1, 2, 7, 1000] {
            let mut drawn = SeededDice::new(42);
            for _ in 0..n {
                drawn.next_u32();
            }
            let mut jumped = SeededDice::advanced(42, n);
            assert_eq!(jumped, drawn, "{n}");
            assert_eq!(jumped.roll(), drawn.roll());
        }
        // Any count restores at once.
        let _ = SeededDice::advanced(1, u64::MAX).roll();
    }

    #[test]
    fn scores_outside_one_to_six_are_refused() {
        // DBA3.md §0.3: a die is a d6.
        assert_eq!(DieScore::new(0), Err(DiceError(0)));
        assert_eq!(DieScore::new(7), Err(DiceError(7)));
        assert_eq!(DieScore::new(6).unwrap().get(), 6);
    }

    #[test]
    fn the_biased_top_of_the_range_is_rejected() {
        // u32::MAX % 6 == 3, so u32::MAX - 3 ..= u32::MAX (4 values) are redrawn.
        let mut rng = Fixed(vec![u32::MAX, u32::MAX - 3, 7]);
        assert_eq!(roll(&mut rng).get(), 2);
        let mut rng = Fixed(vec![u32::MAX - 4]);
        // (2^32 - 5) % 6 == 5 → score 6, and it is accepted.
        assert_eq!(roll(&mut rng).get(), 6);
    }
}
