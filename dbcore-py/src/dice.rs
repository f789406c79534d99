//! `Dice`: dbcore's seeded dice driver, for simulations and demonstrations.

use pyo3::prelude::*;
use pyo3::types::PyType;
use rand_core::RngCore;

use crate::names::AnyInt;

/// Counts the 32-bit draws taken from the generator, so a `Dice` can be pickled as its seed and
/// how far it has run.
struct Counting<'a> {
    dice: &'a mut dbcore::SeededDice,
    draws: u64,
}

impl RngCore for Counting<'_> {
    fn next_u32(&mut self) -> u32 {
        self.draws += 1;
        self.dice.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        // dbcore's `roll` draws only 32-bit values; count a 64-bit draw as the one step of the
        // generator it is.
        self.draws += 1;
        self.dice.next_u64()
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(4) {
            let v = self.next_u32().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

/// Seeded dice (`dbcore::SeededDice`): the same seed gives the same scores in Rust, C and
/// Python. The rules never roll; these dice only supply scores to pass to `resolve`.
///
/// A `Dice` pickles and copies as its seed and the number of draws taken so far, so a copy goes
/// on with the same scores.
#[pyclass(module = "dbcore", name = "Dice")]
pub struct Dice {
    seed: u64,
    draws: u64,
    dice: dbcore::SeededDice,
}

impl Dice {
    fn seeded(seed: u64) -> Self {
        Dice {
            seed,
            draws: 0,
            dice: dbcore::SeededDice::new(seed),
        }
    }
    /// The score the next `roll` will give, without drawing it: a battle checks the roll
    /// before the dice move on, so a refused roll leaves the dice as they were.
    pub(crate) fn next_score(&self) -> dbcore::DieScore {
        dbcore::roll(&mut self.dice.clone())
    }
    /// The next `n` scores, drawing nothing.
    pub(crate) fn next_scores(&self, n: usize) -> Vec<dbcore::DieScore> {
        let mut d = self.dice.clone();
        (0..n).map(|_| dbcore::roll(&mut d)).collect()
    }
    /// Draw one score, counting the draws as `roll` does.
    pub(crate) fn draw(&mut self) -> dbcore::DieScore {
        self.counting(|c| dbcore::roll(c))
    }
    fn counting<T>(&mut self, f: impl FnOnce(&mut Counting<'_>) -> T) -> T {
        let mut c = Counting {
            dice: &mut self.dice,
            draws: 0,
        };
        let out = f(&mut c);
        self.draws += c.draws;
        out
    }
}

#[pymethods]
impl Dice {
    #[new]
    fn new(seed: AnyInt) -> PyResult<Self> {
        Ok(Dice::seeded(seed.to("seed", "0 to 2**64-1")?))
    }
    /// The seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }
    /// One die score, 1 to 6.
    fn roll(&mut self) -> u8 {
        self.counting(|c| dbcore::roll(c).get())
    }
    /// Two die scores, as a combat needs: `(die_a, die_b)`.
    fn roll_pair(&mut self) -> (u8, u8) {
        let [a, b] = self.counting(|c| dbcore::dice::roll_n::<_, 2>(c));
        (a.get(), b.get())
    }
    /// Dice with `seed` that have already taken `draws` 32-bit draws (used by pickling). The
    /// generator jumps straight there (`SeededDice::advanced`), so even a forged count of 2**64
    /// draws restores at once.
    #[classmethod]
    fn _restore(_cls: &Bound<'_, PyType>, seed: AnyInt, draws: AnyInt) -> PyResult<Self> {
        let seed: u64 = seed.to("seed", "0 to 2**64-1")?;
        let draws: u64 = draws.to("draws", "0 to 2**64-1")?;
        Ok(Dice {
            seed,
            draws,
            dice: dbcore::SeededDice::advanced(seed, draws),
        })
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (u64, u64))> {
        let d = slf.borrow();
        Ok((slf.get_type().getattr("_restore")?, (d.seed, d.draws)))
    }
    fn __repr__(&self) -> String {
        format!("<Dice seed={} draws={}>", self.seed, self.draws)
    }
}
