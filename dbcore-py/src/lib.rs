//! Python bindings for dbcore (being built).
