//! The BERT encoder of all-MiniLM-L6-v2 (6 layers, 384 wide, 12 heads), mean-pooled and
//! normalised as sentence-transformers does: a forward pass in `f32` on the CPU, weights read a
//! tensor at a time (each layer's matrices from bytes and scales when the install quantized
//! them).

use ndarray::{Array1, Array2, ArrayView1, Axis, Slice};

use crate::error::Result;
use crate::matmul::{Rows, rows_times};
use crate::weights::{Dtype, GROUP, QUANTIZED, SCALES, Tensor, Weights};

/// Width of every hidden state, and of the embeddings.
pub(crate) const HIDDEN: usize = 384;
const HEADS: usize = 12;
const HEAD: usize = HIDDEN / HEADS;
const FFN: usize = 1536;
const LAYERS: usize = 6;
const POSITIONS: usize = 512;
const EPS: f32 = 1e-12;

/// A weight matrix (`out × in`), read when used.
#[derive(Debug)]
enum Matrix {
    /// As published.
    F32(Tensor),
    /// Bytes, and one scale per [`GROUP`] values of a row.
    Quantized { values: Tensor, scales: Tensor },
}

/// A dense layer: its weight matrix and bias.
#[derive(Debug)]
struct Dense {
    weight: Matrix,
    out: usize,
    inp: usize,
    bias: Array1<f32>,
}

/// Buffers a forward pass reuses from one matrix to the next.
#[derive(Debug, Default)]
struct Scratch {
    weight: Vec<f32>,
    bytes: Vec<i8>,
    scales: Vec<f32>,
}

#[derive(Debug)]
struct Norm {
    gamma: Array1<f32>,
    beta: Array1<f32>,
}

#[derive(Debug)]
struct Layer {
    query: Dense,
    key: Dense,
    value: Dense,
    attention_out: Dense,
    attention_norm: Norm,
    intermediate: Dense,
    output: Dense,
    output_norm: Norm,
}

/// The encoder over an open weights file.
#[derive(Debug)]
pub(crate) struct Bert {
    weights: Weights,
    words: Tensor,
    positions: Tensor,
    token_type: Array1<f32>,
    embedding_norm: Norm,
    layers: Vec<Layer>,
    vocab: usize,
}

fn small(weights: &Weights, name: &str, len: usize) -> Result<Array1<f32>> {
    let mut values = Vec::new();
    weights.read(&weights.tensor(name, &[len])?, &mut values)?;
    Ok(Array1::from_vec(values))
}

fn dense(weights: &Weights, prefix: &str, out: usize, inp: usize) -> Result<Dense> {
    let name = format!("{prefix}.weight");
    let quantized = format!("{name}{QUANTIZED}");
    let weight = if weights.has(&quantized) {
        Matrix::Quantized {
            values: weights.tensor_of(&quantized, &[out, inp], Dtype::I8)?,
            scales: weights.tensor(&format!("{name}{SCALES}"), &[out, inp / GROUP])?,
        }
    } else {
        Matrix::F32(weights.tensor(&name, &[out, inp])?)
    };
    Ok(Dense { weight, out, inp, bias: small(weights, &format!("{prefix}.bias"), out)? })
}

fn norm(weights: &Weights, prefix: &str) -> Result<Norm> {
    Ok(Norm {
        gamma: small(weights, &format!("{prefix}.weight"), HIDDEN)?,
        beta: small(weights, &format!("{prefix}.bias"), HIDDEN)?,
    })
}

impl Bert {
    /// Checks every tensor's shape and reads the small ones (biases, norms).
    pub(crate) fn new(weights: Weights, vocab: usize) -> Result<Self> {
        let words = weights.tensor("embeddings.word_embeddings.weight", &[vocab, HIDDEN])?;
        let positions = weights.tensor("embeddings.position_embeddings.weight", &[POSITIONS, HIDDEN])?;
        let types = weights.tensor("embeddings.token_type_embeddings.weight", &[2, HIDDEN])?;
        let mut token_type = Array1::zeros(HIDDEN);
        weights.read_row(&types, 0, token_type.as_slice_mut().unwrap_or_default())?;
        let embedding_norm = norm(&weights, "embeddings.LayerNorm")?;
        let mut layers = Vec::with_capacity(LAYERS);
        for i in 0..LAYERS {
            let p = format!("encoder.layer.{i}");
            layers.push(Layer {
                query: dense(&weights, &format!("{p}.attention.self.query"), HIDDEN, HIDDEN)?,
                key: dense(&weights, &format!("{p}.attention.self.key"), HIDDEN, HIDDEN)?,
                value: dense(&weights, &format!("{p}.attention.self.value"), HIDDEN, HIDDEN)?,
                attention_out: dense(&weights, &format!("{p}.attention.output.dense"), HIDDEN, HIDDEN)?,
                attention_norm: norm(&weights, &format!("{p}.attention.output.LayerNorm"))?,
                intermediate: dense(&weights, &format!("{p}.intermediate.dense"), FFN, HIDDEN)?,
                output: dense(&weights, &format!("{p}.output.dense"), HIDDEN, FFN)?,
                output_norm: norm(&weights, &format!("{p}.output.LayerNorm"))?,
            });
        }
        Ok(Self { weights, words, positions, token_type, embedding_norm, layers, vocab })
    }

    /// The mean-pooled, unit-length embeddings of token sequences (each at most 512 ids). Each
    /// weight matrix is read once for all of them.
    pub(crate) fn embed(&self, sequences: &[Vec<u32>]) -> Result<Vec<Vec<f32>>> {
        let mut states = Vec::with_capacity(sequences.len());
        let mut row = vec![0.0f32; HIDDEN];
        for ids in sequences {
            let n = ids.len().clamp(1, POSITIONS);
            let mut x = Array2::<f32>::zeros((n, HIDDEN));
            for (i, &id) in ids.iter().take(n).enumerate() {
                let id = usize::try_from(id).unwrap_or(0).min(self.vocab - 1);
                let mut target = x.row_mut(i);
                self.weights.read_row(&self.words, id, &mut row)?;
                target += &ArrayView1::from(&row[..]);
                self.weights.read_row(&self.positions, i, &mut row)?;
                target += &ArrayView1::from(&row[..]);
                target += &self.token_type;
            }
            layer_norm(&mut x, &self.embedding_norm);
            states.push(x);
        }
        let mut buffer = Scratch::default();
        for layer in &self.layers {
            states = self.layer(layer, &states, &mut buffer)?;
        }
        Ok(states
            .into_iter()
            .map(|x| {
                let mut pooled = x.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(HIDDEN));
                let length = pooled.dot(&pooled).sqrt().max(1e-12);
                pooled /= length;
                pooled.to_vec()
            })
            .collect())
    }

    fn layer(&self, layer: &Layer, xs: &[Array2<f32>], buffer: &mut Scratch) -> Result<Vec<Array2<f32>>> {
        let qs = self.dense(&layer.query, xs, buffer)?;
        let ks = self.dense(&layer.key, xs, buffer)?;
        let vs = self.dense(&layer.value, xs, buffer)?;
        let scale = 1.0 / (HEAD as f32).sqrt();
        let mut contexts = Vec::with_capacity(xs.len());
        for ((q, k), v) in qs.iter().zip(&ks).zip(&vs) {
            let mut context = Array2::<f32>::zeros((q.nrows(), HIDDEN));
            for h in 0..HEADS {
                let cols = Slice::from(h * HEAD..(h + 1) * HEAD);
                let mut scores = q.slice_axis(Axis(1), cols).dot(&k.slice_axis(Axis(1), cols).t());
                scores *= scale;
                for mut row in scores.rows_mut() {
                    let max = row.fold(f32::NEG_INFINITY, |m, &v| m.max(v));
                    row.mapv_inplace(|v| (v - max).exp());
                    let sum = row.sum();
                    row /= sum;
                }
                context.slice_axis_mut(Axis(1), cols).assign(&scores.dot(&v.slice_axis(Axis(1), cols)));
            }
            contexts.push(context);
        }
        let mut attended = self.dense(&layer.attention_out, &contexts, buffer)?;
        for (a, x) in attended.iter_mut().zip(xs) {
            *a += x;
            layer_norm(a, &layer.attention_norm);
        }
        let mut inner = self.dense(&layer.intermediate, &attended, buffer)?;
        for i in &mut inner {
            i.mapv_inplace(gelu);
        }
        let mut out = self.dense(&layer.output, &inner, buffer)?;
        for (o, a) in out.iter_mut().zip(&attended) {
            *o += a;
            layer_norm(o, &layer.output_norm);
        }
        Ok(out)
    }

    fn dense(&self, dense: &Dense, xs: &[Array2<f32>], buffer: &mut Scratch) -> Result<Vec<Array2<f32>>> {
        let rows = match &dense.weight {
            Matrix::F32(tensor) => {
                self.weights.read(tensor, &mut buffer.weight)?;
                Rows::F32(&buffer.weight)
            }
            Matrix::Quantized { values, scales } => {
                self.weights.read_bytes(values, &mut buffer.bytes)?;
                self.weights.read(scales, &mut buffer.scales)?;
                Rows::Quantized { values: &buffer.bytes, scales: &buffer.scales }
            }
        };
        let standard: Vec<_> = xs.iter().map(|x| x.as_standard_layout()).collect();
        let slices: Vec<&[f32]> = standard.iter().map(|x| x.as_slice().unwrap_or_default()).collect();
        let mut outputs = vec![Vec::new(); xs.len()];
        rows_times(&slices, dense.inp, rows, &mut outputs);
        let mut ys = Vec::with_capacity(xs.len());
        for (x, y) in xs.iter().zip(outputs) {
            let mut y = Array2::from_shape_vec((x.nrows(), dense.out), y)
                .map_err(|e| crate::Error::Model(format!("a dense layer's output: {e}")))?;
            y += &dense.bias;
            ys.push(y);
        }
        Ok(ys)
    }
}

fn layer_norm(x: &mut Array2<f32>, norm: &Norm) {
    for mut row in x.rows_mut() {
        let mean = row.mean().unwrap_or(0.0);
        row -= mean;
        let variance = row.dot(&row) / HIDDEN as f32;
        row /= (variance + EPS).sqrt();
        row *= &norm.gamma;
        row += &norm.beta;
    }
}

/// GELU as BERT computes it, with the exact error function.
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x / std::f32::consts::SQRT_2))
}

/// The error function, to within about 1e-6 (a Chebyshev fit of `erfc`, evaluated in `f32`).
fn erf(x: f32) -> f32 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_2
        + t * (1.000_023_7
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_204
                                + t * (1.488_515_9 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let value = 1.0 - t * poly.exp();
    if x >= 0.0 { value } else { -value }
}

#[cfg(test)]
mod tests {
    use super::erf;

    #[test]
    fn erf_matches_known_values() {
        for (x, want) in
            [(0.0, 0.0), (0.5, 0.520_499_9), (1.0, 0.842_700_8), (-2.0, -0.995_322_3), (3.0, 0.999_977_9)]
        {
            assert!((erf(x) - want).abs() < 1e-6, "erf({x}) = {}", erf(x));
        }
    }
}
