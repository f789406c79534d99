//! C ABI over dbcore (being built).
