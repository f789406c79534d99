//! The action notation, now [`crate::battle::notation`]: every action of a battle has one, dice
//! included. Kept here so that `dbcore::ai::notation` goes on naming the same items.

pub use crate::battle::notation::*;
