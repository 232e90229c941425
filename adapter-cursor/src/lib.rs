//! adapter-cursor.
