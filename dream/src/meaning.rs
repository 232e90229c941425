//! How alike texts are in meaning, for what words alone cannot tell: a correction that points at
//! "the monitoring bit" when the line it retires says "our error tracker is Sentry". The dream
//! crate reads no model itself; whoever runs the dream passes one in (the embedding model, where
//! it is installed).

/// How alike a text is to others in meaning.
pub trait Meaning: Send + Sync {
    /// How alike `text` is to each of `others`, as the cosine of their embeddings (−1 to 1), in
    /// order; `None` when it cannot tell.
    fn similarities(&self, text: &str, others: &[&str]) -> Option<Vec<f32>>;
}

/// How alike the best of `others` must be to what a correction points at to be the line it
/// retires, when no word of the correction names it.
pub(crate) const POINTED: f32 = 0.35;
/// How far ahead of the next best the best must be, so that a vague pointer retires nothing.
pub(crate) const AHEAD: f32 = 0.10;

/// The one of `others` that `pointer` means, if one stands out: at least [`POINTED`] alike, and
/// [`AHEAD`] ahead of every other.
pub(crate) fn meant(meaning: &dyn Meaning, pointer: &str, others: &[&str]) -> Option<usize> {
    let similar = meaning.similarities(pointer, others)?;
    let mut ranked: Vec<(usize, f32)> = similar.into_iter().enumerate().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best, score) = *ranked.first()?;
    let next = ranked.get(1).map_or(f32::MIN, |r| r.1);
    (score >= POINTED && score - next >= AHEAD).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts as points on a line: alike as their positions are near.
    struct Line;

    impl Meaning for Line {
        fn similarities(&self, text: &str, others: &[&str]) -> Option<Vec<f32>> {
            let at = |t: &str| t.parse::<f32>().ok();
            let here = at(text)?;
            Some(others.iter().map(|o| at(o).map_or(-1.0, |x| 1.0 - (x - here).abs())).collect())
        }
    }

    #[test]
    fn only_a_line_that_stands_out_is_meant() {
        assert_eq!(meant(&Line, "0.0", &["0.9", "0.1", "0.5"]), Some(1));
        // Too far from everything.
        assert_eq!(meant(&Line, "0.0", &["0.7", "0.9"]), None);
        // Two lines alike.
        assert_eq!(meant(&Line, "0.0", &["0.2", "0.25"]), None);
        assert_eq!(meant(&Line, "0.0", &[]), None);
        assert_eq!(meant(&Line, "not a number", &["0.1"]), None);
    }
}
