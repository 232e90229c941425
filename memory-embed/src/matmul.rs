//! The product of a prompt's hidden states and a weight matrix, the forward pass's main cost.
//!
//! A prompt is a few dozen tokens, so the hidden states (`m × k`, `m` small) fit in the core's
//! first-level cache while the weights (`n × k`, one row per output) stream past once. Each
//! output is the dot product of a token's row and a weight row, both contiguous: no copy of the
//! weights into another layout is needed (a general matrix product repacks them: at this shape
//! that took it more than half as long as its arithmetic). Three weight rows and four tokens are
//! taken at a time, twelve sums kept in vector registers, with the widest vectors and fused
//! multiply-adds the CPU has (found at run time; plain arithmetic where it has none).

use pulp::{Arch, Simd, WithSimd};

use crate::weights::{GROUP, dequantize};

/// Weight rows taken at once.
const ROWS: usize = 3;
/// Tokens taken at once.
const TOKENS: usize = 4;

/// A weight matrix's rows, `k` values each.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rows<'a> {
    /// As `f32`s.
    F32(&'a [f32]),
    /// As bytes with one scale per [`GROUP`] values ([`dequantize`]): the [`ROWS`] rows
    /// multiplied at a time are turned into `f32`s in the core's first-level cache.
    Quantized { values: &'a [i8], scales: &'a [f32] },
}

impl Rows<'_> {
    fn values(&self) -> usize {
        match self {
            Self::F32(values) => values.len(),
            Self::Quantized { values, .. } => values.len(),
        }
    }
}

/// For each of `xs` (a text's hidden states, rows of `k` values), writes into the matching `ys`
/// the product `x · wᵀ`: `y[i][j] = x[i] · w[j]`, row-major, as many values a row as `w` has
/// rows. Each group of weight rows is read (and turned into `f32`s) once for all the texts.
pub(crate) fn rows_times(xs: &[&[f32]], k: usize, w: Rows<'_>, ys: &mut [Vec<f32>]) {
    if k == 0 {
        return;
    }
    debug_assert!(w.values().is_multiple_of(k) && xs.len() == ys.len(), "shapes");
    let rows = w.values() / k;
    for (x, y) in xs.iter().zip(ys.iter_mut()) {
        y.clear();
        y.resize(x.len() / k * rows, 0.0);
    }
    Arch::new().dispatch(RowsTimes { xs, k, w, ys });
}

struct RowsTimes<'a> {
    xs: &'a [&'a [f32]],
    k: usize,
    w: Rows<'a>,
    ys: &'a mut [Vec<f32>],
}

impl WithSimd for RowsTimes<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        let Self { xs, k, w, ys } = self;
        let rows = w.values() / k;
        // The rows being multiplied, as `f32`s, when the matrix is quantized.
        let mut row_values = vec![0.0f32; ROWS * k];
        for first in (0..rows).step_by(ROWS) {
            // A last group short of rows repeats its last one; the repeats are not written.
            let taken: [usize; ROWS] = std::array::from_fn(|r| (first + r).min(rows - 1));
            let weights: [&[f32]; ROWS] = match w {
                Rows::F32(values) => taken.map(|j| &values[j * k..(j + 1) * k]),
                Rows::Quantized { values, scales } => {
                    for (slot, &j) in row_values.chunks_exact_mut(k).zip(&taken) {
                        let groups = j * k / GROUP..(j + 1) * k / GROUP;
                        dequantize(&values[j * k..(j + 1) * k], &scales[groups], slot);
                    }
                    std::array::from_fn(|r| &row_values[r * k..(r + 1) * k])
                }
            };
            for (x, y) in xs.iter().zip(ys.iter_mut()) {
                let m = x.len() / k;
                let token = |i: usize| &x[i * k..(i + 1) * k];
                for start in (0..m).step_by(TOKENS) {
                    // Likewise a short last group of tokens.
                    let group: [usize; TOKENS] = std::array::from_fn(|t| (start + t).min(m - 1));
                    let sums = dots(simd, group.map(token), weights);
                    for (t, &i) in group.iter().enumerate().take(m - start) {
                        for (r, &j) in taken.iter().enumerate().take(rows - first) {
                            y[i * rows + j] = sums[t][r];
                        }
                    }
                }
            }
        }
    }
}

/// The dot products of [`TOKENS`] token rows with [`ROWS`] weight rows, all of one length.
#[inline(always)]
fn dots<S: Simd>(simd: S, tokens: [&[f32]; TOKENS], weights: [&[f32]; ROWS]) -> [[f32; ROWS]; TOKENS] {
    let tokens = tokens.map(S::as_simd_f32s);
    let weights = weights.map(S::as_simd_f32s);
    // Every slice cut to one length, so the loop reads them without bounds checks.
    let n = weights[0].0.len();
    let token_heads = tokens.map(|(head, _)| &head[..n]);
    let weight_heads = weights.map(|(head, _)| &head[..n]);
    let zero = simd.splat_f32s(0.0);
    let mut acc = [[zero; ROWS]; TOKENS];
    for c in 0..n {
        let w = weight_heads.map(|head| head[c]);
        for (sums, head) in acc.iter_mut().zip(&token_heads) {
            let v = head[c];
            for (sum, &w) in sums.iter_mut().zip(&w) {
                *sum = simd.mul_add_f32s(v, w, *sum);
            }
        }
    }
    let mut out = [[0.0f32; ROWS]; TOKENS];
    for ((out, sums), (_, token_tail)) in out.iter_mut().zip(&acc).zip(&tokens) {
        for ((out, &sum), (_, weight_tail)) in out.iter_mut().zip(sums).zip(&weights) {
            let rest: f32 = token_tail.iter().zip(weight_tail.iter()).map(|(p, q)| p * q).sum();
            *out = simd.reduce_sum_f32s(sum) + rest;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Rows, rows_times};
    use crate::weights::GROUP;

    /// `x · wᵀ` summed plainly.
    fn plain(x: &[f32], m: usize, k: usize, w: &[f32]) -> Vec<f32> {
        let rows = w.len() / k;
        (0..m * rows).map(|o| (0..k).map(|c| x[o / rows * k + c] * w[o % rows * k + c]).sum()).collect()
    }

    fn close(got: &[f32], want: &[f32], shape: (usize, usize, usize)) {
        assert_eq!(got.len(), want.len());
        for (o, (g, w)) in got.iter().zip(want).enumerate() {
            assert!((g - w).abs() <= 1e-4 * (1.0 + w.abs()), "{shape:?} output {o}: {g} vs {w}");
        }
    }

    /// Every output against a plain sum, for shapes with short groups of tokens, an odd number
    /// of rows, and lengths that leave a tail after the vectors.
    #[test]
    fn every_output_is_its_row_dot_product() {
        for (m, k, r) in [(1, 3, 1), (5, 37, 3), (16, 384, 7), (9, 64, 2), (4, 8, 5)] {
            let x: Vec<f32> = (0..m * k).map(|i| ((i * 7 % 13) as f32 - 6.0) / 5.0).collect();
            let w: Vec<f32> = (0..r * k).map(|i| ((i * 5 % 11) as f32 - 5.0) / 3.0).collect();
            let other: Vec<f32> = (0..2 * k).map(|i| x[i * 3 % x.len()]).collect();
            let mut ys = vec![Vec::new(), vec![f32::NAN; 3]];
            rows_times(&[&x, &other], k, Rows::F32(&w), &mut ys);
            close(&ys[0], &plain(&x, m, k, &w), (m, k, r));
            close(&ys[1], &plain(&other, 2, k, &w), (2, k, r));
        }
    }

    #[test]
    fn quantized_rows_multiply_as_their_values_do() {
        let (m, k, r) = (6, 2 * GROUP, 3);
        let x: Vec<f32> = (0..m * k).map(|i| ((i * 3 % 17) as f32 - 8.0) / 7.0).collect();
        let values: Vec<i8> =
            (0..r * k).map(|i| i8::try_from(i * 37 % 255).unwrap_or(0).wrapping_sub(64)).collect();
        let scales: Vec<f32> = (0..r * k / GROUP).map(|g| 0.01 * (g + 1) as f32).collect();
        let w: Vec<f32> = values.iter().enumerate().map(|(i, &v)| f32::from(v) * scales[i / GROUP]).collect();
        let mut ys = vec![Vec::new()];
        rows_times(&[&x], k, Rows::Quantized { values: &values, scales: &scales }, &mut ys);
        close(&ys[0], &plain(&x, m, k, &w), (m, k, r));
    }
}
