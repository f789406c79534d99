//! `Dice`: dbcore's seeded dice driver, for simulations and demonstrations.

use pyo3::prelude::*;
use pyo3::types::PyType;
use rand_core::RngCore;

use crate::errors;
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

/// Scores drawn on a copy of the dice, to be kept (`Dice::commit`) once what they were drawn
/// for is accepted.
pub(crate) struct Drawn {
    dice: dbcore::SeededDice,
    draws: u64,
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
    pub(crate) fn next_score(&self) -> PyResult<(dbcore::DieScore, Drawn)> {
        let (mut scores, drawn) = self.next_scores(1)?;
        Ok((scores.remove(0), drawn))
    }
    /// The next `n` scores, drawn on a copy: the dice move on only when the copy is committed.
    pub(crate) fn next_scores(&self, n: usize) -> PyResult<(Vec<dbcore::DieScore>, Drawn)> {
        let mut copy = self.dice.clone();
        let (scores, draws) = {
            let mut c = Counting {
                dice: &mut copy,
                draws: 0,
            };
            let scores = (0..n).map(|_| dbcore::roll(&mut c)).collect();
            (scores, c.draws)
        };
        // A pickle may restore any count up to 2**64-1 (`_restore`); past that the count could
        // no longer say where the generator stands, so the dice refuse rather than wrap.
        let draws = self.draws.checked_add(draws).ok_or_else(|| {
            errors::invalid_argument(format!(
                "these dice have taken {} draws, too many to count another; start new dice",
                self.draws
            ))
        })?;
        Ok((scores, Drawn { dice: copy, draws }))
    }
    /// Keep scores drawn by `next_scores`.
    pub(crate) fn commit(&mut self, drawn: Drawn) {
        self.dice = drawn.dice;
        self.draws = drawn.draws;
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
    fn roll(&mut self) -> PyResult<u8> {
        let (score, drawn) = self.next_score()?;
        self.commit(drawn);
        Ok(score.get())
    }
    /// Two die scores, as a combat needs: `(die_a, die_b)` (the same scores as two `roll`s).
    fn roll_pair(&mut self) -> PyResult<(u8, u8)> {
        let (scores, drawn) = self.next_scores(2)?;
        self.commit(drawn);
        Ok((scores[0].get(), scores[1].get()))
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
