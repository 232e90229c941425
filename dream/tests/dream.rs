//! Dream tests.
