//! The BERT encoder of all-MiniLM-L6-v2 (6 layers, 384 wide, 12 heads), mean-pooled and
//! normalised as sentence-transformers does: a forward pass in `f32` on the CPU, weights read a
//! tensor at a time (each layer's matrices from bytes and scales when the install quantized
//! them). Each dense layer's rows are shared out among the cores there are (up to [`MAX_PARTS`]):
//! helper threads, started once for a forward pass, each read and multiply their own run of rows.

use std::ops::Range;
use std::sync::{Arc, mpsc};
use std::thread::Scope;

use ndarray::{Array1, Array2, ArrayView1, Axis, Slice};

use crate::error::{Error, Result};
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
/// Most threads one dense layer is shared out among: past this, handing a thread its share of a
/// prompt's rows costs about what it saves.
const MAX_PARTS: usize = 4;

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

/// A helper thread of a forward pass: the rows it is handed, and what it made of them.
struct Helper<'a> {
    jobs: mpsc::Sender<Job<'a>>,
    done: mpsc::Receiver<Result<Vec<Vec<f32>>>>,
}

/// Rows `run` of a dense layer, to multiply with each of `xs`.
struct Job<'a> {
    dense: &'a Dense,
    run: Range<usize>,
    xs: Arc<Vec<Vec<f32>>>,
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
    /// How many threads share a dense layer's rows.
    parts: usize,
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
        let parts = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, MAX_PARTS);
        Ok(Self { weights, words, positions, token_type, embedding_norm, layers, vocab, parts })
    }

    /// Shares each dense layer among at most `threads` threads (this one and its helpers).
    pub(crate) fn set_threads(&mut self, threads: usize) {
        self.parts = threads.max(1);
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
        let states = std::thread::scope(|scope| {
            // Helpers the system will not start leave their shares to this thread.
            let helpers: Vec<Helper<'_>> = (1..self.parts).map_while(|_| self.helper(scope)).collect();
            let mut buffer = Scratch::default();
            for layer in &self.layers {
                states = self.layer(layer, &states, &mut buffer, &helpers)?;
            }
            Ok::<_, Error>(states)
        })?;
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

    /// A thread that multiplies the rows it is handed until its jobs end.
    fn helper<'a>(&'a self, scope: &'a Scope<'a, '_>) -> Option<Helper<'a>> {
        let (jobs, inbox) = mpsc::channel::<Job<'a>>();
        let (outbox, done) = mpsc::channel();
        std::thread::Builder::new()
            .name("agent-memory-embed".to_owned())
            .spawn_scoped(scope, move || {
                let mut buffer = Scratch::default();
                for job in inbox {
                    let xs: Vec<&[f32]> = job.xs.iter().map(Vec::as_slice).collect();
                    if outbox.send(self.rows(job.dense, job.run, &xs, &mut buffer)).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Helper { jobs, done })
    }

    fn layer<'a>(
        &'a self,
        layer: &'a Layer,
        xs: &[Array2<f32>],
        buffer: &mut Scratch,
        helpers: &[Helper<'a>],
    ) -> Result<Vec<Array2<f32>>> {
        let qs = self.dense(&layer.query, xs, buffer, helpers)?;
        let ks = self.dense(&layer.key, xs, buffer, helpers)?;
        let vs = self.dense(&layer.value, xs, buffer, helpers)?;
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
        let mut attended = self.dense(&layer.attention_out, &contexts, buffer, helpers)?;
        for (a, x) in attended.iter_mut().zip(xs) {
            *a += x;
            layer_norm(a, &layer.attention_norm);
        }
        let mut inner = self.dense(&layer.intermediate, &attended, buffer, helpers)?;
        for i in &mut inner {
            i.mapv_inplace(gelu);
        }
        let mut out = self.dense(&layer.output, &inner, buffer, helpers)?;
        for (o, a) in out.iter_mut().zip(&attended) {
            *o += a;
            layer_norm(o, &layer.output_norm);
        }
        Ok(out)
    }

    /// `x · wᵀ + b` for each of `xs`, the weight rows shared out between this thread and the
    /// `helpers`.
    fn dense<'a>(
        &self,
        dense: &'a Dense,
        xs: &[Array2<f32>],
        buffer: &mut Scratch,
        helpers: &[Helper<'a>],
    ) -> Result<Vec<Array2<f32>>> {
        let standard: Vec<_> = xs.iter().map(|x| x.as_standard_layout()).collect();
        let slices: Vec<&[f32]> = standard.iter().map(|x| x.as_slice().unwrap_or_default()).collect();
        let runs = runs(dense.out, helpers.len() + 1);
        let (own, shares) = runs.split_first().unwrap_or((&(0..0), &[]));
        // The helpers' copy of the hidden states: a prompt's are a few dozen kilobytes.
        let shared = Arc::new(if shares.is_empty() {
            Vec::new()
        } else {
            slices.iter().map(|x| x.to_vec()).collect()
        });
        let handed: Vec<bool> = shares
            .iter()
            .zip(helpers)
            .map(|(run, helper)| {
                helper.jobs.send(Job { dense, run: run.clone(), xs: Arc::clone(&shared) }).is_ok()
            })
            .collect();
        let mut parts = vec![self.rows(dense, own.clone(), &slices, buffer)];
        for ((run, helper), handed) in shares.iter().zip(helpers).zip(handed) {
            // A helper that stopped leaves its share to this thread.
            let done = if handed { helper.done.recv().ok() } else { None };
            parts.push(match done {
                Some(part) => part,
                None => self.rows(dense, run.clone(), &slices, buffer),
            });
        }
        let mut ys: Vec<Array2<f32>> = xs.iter().map(|x| Array2::zeros((x.nrows(), dense.out))).collect();
        for (run, part) in runs.iter().zip(parts) {
            for (y, values) in ys.iter_mut().zip(part?) {
                for (mut row, share) in y.rows_mut().into_iter().zip(values.chunks_exact(run.len())) {
                    row.slice_axis_mut(Axis(0), Slice::from(run.clone())).assign(&ArrayView1::from(share));
                }
            }
        }
        for y in &mut ys {
            *y += &dense.bias;
        }
        Ok(ys)
    }

    /// `x · wᵀ` for the weight rows `run` alone: for each of `xs`, its tokens' values for those
    /// rows, read into `buffer`.
    fn rows(
        &self,
        dense: &Dense,
        run: Range<usize>,
        xs: &[&[f32]],
        buffer: &mut Scratch,
    ) -> Result<Vec<Vec<f32>>> {
        let rows = match &dense.weight {
            Matrix::F32(tensor) => {
                self.weights.read_rows(tensor, run, &mut buffer.weight)?;
                Rows::F32(&buffer.weight)
            }
            Matrix::Quantized { values, scales } => {
                self.weights.read_byte_rows(values, run.clone(), &mut buffer.bytes)?;
                self.weights.read_rows(scales, run, &mut buffer.scales)?;
                Rows::Quantized { values: &buffer.bytes, scales: &buffer.scales }
            }
        };
        let mut outputs = vec![Vec::new(); xs.len()];
        rows_times(xs, dense.inp, rows, &mut outputs);
        Ok(outputs)
    }
}

/// `0..len` cut into `parts` runs of (nearly) one length, none empty.
fn runs(len: usize, parts: usize) -> Vec<Range<usize>> {
    let share = len.div_ceil(parts.max(1)).max(1);
    (0..len).step_by(share).map(|start| start..(start + share).min(len)).collect()
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
    use super::{erf, runs};

    #[test]
    fn rows_are_shared_out_whole_and_once() {
        for (len, parts) in [(384, 1), (384, 2), (1536, 3), (384, 4), (5, 4), (2, 4), (0, 2)] {
            let got = runs(len, parts);
            assert!(got.len() <= parts && got.iter().all(|r| !r.is_empty()), "{len} in {parts}: {got:?}");
            let covered: Vec<usize> = got.into_iter().flatten().collect();
            assert_eq!(covered, (0..len).collect::<Vec<_>>(), "{len} in {parts}");
        }
    }

    #[test]
    fn erf_matches_known_values() {
        for (x, want) in
            [(0.0, 0.0), (0.5, 0.520_499_9), (1.0, 0.842_700_8), (-2.0, -0.995_322_3), (3.0, 0.999_977_9)]
        {
            assert!((erf(x) - want).abs() < 1e-6, "erf({x}) = {}", erf(x));
        }
    }
}
