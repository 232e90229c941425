//! The model's weights, read from a `safetensors` file as they are needed: a tensor (or a run
//! of a matrix's rows) at a time into a buffer the caller reuses, and single rows of the large
//! embedding tables. Nothing is mapped or kept, so a process that embeds one prompt holds a few
//! megabytes, not the model. Reads name their offset, so threads read one file at once.
//!
//! Two layouts are read: the model as published (every tensor `f32`), and the one
//! [`quantize`] writes at install time, where each weight matrix of the encoder's layers is
//! stored as bytes with one scale per [`GROUP`] values (`<name>.q8` and `<name>.scale`). A
//! prompt's embedding reads every such matrix once, so a quarter of the bytes is most of its
//! cost saved; the grouped scales keep the embeddings within a thousandth of the published
//! model's similarities.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Read as _, Write as _};
use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Longest header accepted, in bytes.
const MAX_HEADER: u64 = 16 * 1024 * 1024;
/// How many consecutive values of a matrix row share one scale in the quantized layout.
pub(crate) const GROUP: usize = 32;
/// Suffixes of a quantized matrix's two tensors.
pub(crate) const QUANTIZED: &str = ".q8";
pub(crate) const SCALES: &str = ".scale";

#[derive(Debug, Deserialize, Serialize)]
struct Entry {
    dtype: String,
    shape: Vec<usize>,
    data_offsets: [u64; 2],
}

/// The element types read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dtype {
    F32,
    I8,
}

impl Dtype {
    fn parse(name: &str) -> Option<Self> {
        match name {
            "F32" => Some(Self::F32),
            "I8" => Some(Self::I8),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::F32 => "F32",
            Self::I8 => "I8",
        }
    }

    fn size(self) -> usize {
        match self {
            Self::F32 => 4,
            Self::I8 => 1,
        }
    }
}

/// Where one tensor's values are.
#[derive(Debug, Clone)]
pub(crate) struct Tensor {
    pub(crate) shape: Vec<usize>,
    pub(crate) dtype: Dtype,
    /// Byte offset in the file.
    offset: u64,
}

impl Tensor {
    /// How many values it holds.
    pub(crate) fn len(&self) -> usize {
        self.shape.iter().product()
    }
}

/// An open `safetensors` file.
#[derive(Debug)]
pub(crate) struct Weights {
    file: File,
    tensors: HashMap<String, Tensor>,
}

impl Weights {
    pub(crate) fn open(path: &Path) -> Result<Self> {
        let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
        let mut len = [0u8; 8];
        file.read_exact(&mut len).map_err(|e| Error::io(path, e))?;
        let len = u64::from_le_bytes(len);
        if len > MAX_HEADER {
            return Err(Error::Model(format!(
                "{}: not a safetensors file (header of {len} bytes)",
                path.display()
            )));
        }
        let mut header = vec![0u8; usize::try_from(len).unwrap_or(0)];
        file.read_exact(&mut header).map_err(|e| Error::io(path, e))?;
        let entries: HashMap<String, serde_json::Value> = serde_json::from_slice(&header)
            .map_err(|e| Error::Model(format!("{}: unreadable safetensors header: {e}", path.display())))?;
        let mut tensors = HashMap::new();
        for (name, value) in entries {
            if name == "__metadata__" {
                continue;
            }
            let entry: Entry = serde_json::from_value(value)
                .map_err(|e| Error::Model(format!("{}: tensor {name}: {e}", path.display())))?;
            let Some(dtype) = Dtype::parse(&entry.dtype) else {
                continue;
            };
            let values: usize = entry.shape.iter().product();
            let bytes = entry.data_offsets[1].saturating_sub(entry.data_offsets[0]);
            if bytes != (values * dtype.size()) as u64 {
                return Err(Error::Model(format!(
                    "{}: tensor {name} has {bytes} bytes for {values} values",
                    path.display()
                )));
            }
            tensors
                .insert(name, Tensor { shape: entry.shape, dtype, offset: 8 + len + entry.data_offsets[0] });
        }
        Ok(Self { file, tensors })
    }

    /// Whether the file holds a tensor called `name`.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.tensors.contains_key(name)
    }

    /// The tensor called `name`, which must have `shape` and hold `dtype`.
    pub(crate) fn tensor_of(&self, name: &str, shape: &[usize], dtype: Dtype) -> Result<Tensor> {
        let tensor =
            self.tensors.get(name).ok_or_else(|| Error::Model(format!("the model has no tensor {name}")))?;
        if tensor.shape != shape || tensor.dtype != dtype {
            return Err(Error::Model(format!(
                "tensor {name} is {} {:?}, expected {} {shape:?}",
                tensor.dtype.name(),
                tensor.shape,
                dtype.name()
            )));
        }
        Ok(tensor.clone())
    }

    /// The `f32` tensor called `name`, which must have `shape`.
    pub(crate) fn tensor(&self, name: &str, shape: &[usize]) -> Result<Tensor> {
        self.tensor_of(name, shape, Dtype::F32)
    }

    /// Reads a whole `f32` tensor into `into` (resized to fit).
    pub(crate) fn read(&self, tensor: &Tensor, into: &mut Vec<f32>) -> Result<()> {
        into.resize(tensor.len(), 0.0);
        self.read_floats(tensor.offset, into)
    }

    /// Reads rows `rows` of an `f32` matrix into `into` (resized to fit).
    pub(crate) fn read_rows(&self, tensor: &Tensor, rows: Range<usize>, into: &mut Vec<f32>) -> Result<()> {
        let (offset, len) = self.rows_at(tensor, rows)?;
        into.resize(len, 0.0);
        self.read_floats(offset, into)
    }

    /// Reads rows `rows` of a byte matrix into `into` (resized to fit).
    pub(crate) fn read_byte_rows(
        &self,
        tensor: &Tensor,
        rows: Range<usize>,
        into: &mut Vec<i8>,
    ) -> Result<()> {
        let (offset, len) = self.rows_at(tensor, rows)?;
        into.resize(len, 0);
        self.read_at(offset, bytemuck::cast_slice_mut(&mut into[..]))
    }

    /// Where rows `rows` of a matrix start in the file, and how many values they hold.
    fn rows_at(&self, tensor: &Tensor, rows: Range<usize>) -> Result<(u64, usize)> {
        match tensor.shape[..] {
            [height, width] if rows.start <= rows.end && rows.end <= height => {
                Ok((tensor.offset + (rows.start * width * tensor.dtype.size()) as u64, rows.len() * width))
            }
            _ => Err(Error::Model(format!("rows {rows:?} are outside a {:?} tensor", tensor.shape))),
        }
    }

    /// Reads row `row` of an `f32` matrix into `into` (its length is the row's).
    pub(crate) fn read_row(&self, tensor: &Tensor, row: usize, into: &mut [f32]) -> Result<()> {
        let width = tensor.shape.last().copied().unwrap_or(0);
        if into.len() != width || tensor.shape.first().is_none_or(|&rows| row >= rows) {
            return Err(Error::Model(format!("row {row} is outside a {:?} tensor", tensor.shape)));
        }
        self.read_floats(tensor.offset + (row * width * 4) as u64, into)
    }

    /// Reads little-endian `f32`s at `offset` into `into`.
    fn read_floats(&self, offset: u64, into: &mut [f32]) -> Result<()> {
        self.read_at(offset, bytemuck::cast_slice_mut(into))?;
        if cfg!(target_endian = "big") {
            for value in into.iter_mut() {
                *value = f32::from_bits(value.to_bits().swap_bytes());
            }
        }
        Ok(())
    }

    fn read_at(&self, offset: u64, bytes: &mut [u8]) -> Result<()> {
        read_exact_at(&self.file, offset, bytes)
            .map_err(|e| Error::Model(format!("reading the weights: {e}")))
    }

    /// Every tensor's name, in order.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.tensors.keys().cloned().collect();
        names.sort();
        names
    }
}

/// Fills `bytes` from `file` at `offset`, leaving the file's position alone.
#[cfg(unix)]
fn read_exact_at(file: &File, offset: u64, bytes: &mut [u8]) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, bytes, offset)
}

/// Fills `bytes` from `file` at `offset`.
#[cfg(windows)]
fn read_exact_at(file: &File, mut offset: u64, mut bytes: &mut [u8]) -> std::io::Result<()> {
    while !bytes.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, bytes, offset) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                bytes = &mut bytes[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Values of a quantized matrix as `f32`s: each run of [`GROUP`] bytes times its scale. Kept out
/// of line: compiled for the baseline target it vectorises, while inlined into the matrix
/// product's kernel (`crate::matmul`) it came out as scalar code.
#[inline(never)]
pub(crate) fn dequantize(values: &[i8], scales: &[f32], into: &mut [f32]) {
    // Groups of a constant length, so the compiler turns each into a few vector instructions.
    for ((out, group), &scale) in into.chunks_exact_mut(GROUP).zip(values.chunks_exact(GROUP)).zip(scales) {
        let (Ok(out), Ok(group)) = (<&mut [f32; GROUP]>::try_from(out), <&[i8; GROUP]>::try_from(group))
        else {
            continue;
        };
        for (o, &v) in out.iter_mut().zip(group) {
            *o = f32::from(v) * scale;
        }
    }
}

/// The bytes and scales of a matrix whose rows are `width` values (a multiple of [`GROUP`]):
/// each group scaled so that its largest magnitude is 127.
fn quantize_values(values: &[f32]) -> (Vec<i8>, Vec<f32>) {
    let mut bytes = Vec::with_capacity(values.len());
    let mut scales = Vec::with_capacity(values.len() / GROUP);
    for group in values.chunks_exact(GROUP) {
        let largest = group.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let scale = if largest > 0.0 { largest / 127.0 } else { 1.0 };
        scales.push(scale);
        // In range by construction: |v| / scale ≤ 127.
        bytes.extend(group.iter().map(|v| (v / scale).round().clamp(-127.0, 127.0) as i8));
    }
    (bytes, scales)
}

/// Whether the install quantizes the tensor: the weight matrices of the encoder's layers, the
/// ones a prompt reads whole (the embedding tables are read a row at a time and stay `f32`).
fn quantized(name: &str, tensor: &Tensor) -> bool {
    name.starts_with("encoder.layer.")
        && name.ends_with(".weight")
        && tensor.shape.len() == 2
        && tensor.shape[1].is_multiple_of(GROUP)
        && tensor.dtype == Dtype::F32
}

/// Writes the quantized layout of the `f32` model at `from` to `to`: every weight matrix of
/// the encoder's layers as bytes and scales, every other tensor as it is.
pub(crate) fn quantize(from: &Path, to: &Path) -> Result<()> {
    let weights = Weights::open(from)?;
    let mut header = BTreeMap::new();
    // Each tensor's bytes, in the order of their offsets.
    let mut payload: Vec<Vec<u8>> = Vec::new();
    let mut offset = 0u64;
    let mut push = |name: String, dtype: Dtype, shape: Vec<usize>, bytes: Vec<u8>| {
        let end = offset + bytes.len() as u64;
        header.insert(name, Entry { dtype: dtype.name().to_owned(), shape, data_offsets: [offset, end] });
        offset = end;
        payload.push(bytes);
    };
    let mut values = Vec::new();
    for name in weights.names() {
        let tensor = weights.tensors[&name].clone();
        if tensor.dtype != Dtype::F32 {
            continue;
        }
        weights.read(&tensor, &mut values)?;
        if quantized(&name, &tensor) {
            let (bytes, scales) = quantize_values(&values);
            let rows = tensor.shape[0];
            let groups = tensor.shape[1] / GROUP;
            push(
                format!("{name}{QUANTIZED}"),
                Dtype::I8,
                tensor.shape.clone(),
                bytemuck::cast_slice(&bytes).to_vec(),
            );
            push(format!("{name}{SCALES}"), Dtype::F32, vec![rows, groups], le_bytes(&scales));
        } else {
            push(name, Dtype::F32, tensor.shape.clone(), le_bytes(&values));
        }
    }
    // The header is padded to a multiple of 8 bytes.
    let mut text = serde_json::to_vec(&header).map_err(|e| Error::Model(e.to_string()))?;
    while !text.len().is_multiple_of(8) {
        text.push(b' ');
    }
    let file = File::create(to).map_err(|e| Error::io(to, e))?;
    let mut out = BufWriter::new(file);
    let write = |out: &mut BufWriter<File>, bytes: &[u8]| out.write_all(bytes).map_err(|e| Error::io(to, e));
    write(&mut out, &(text.len() as u64).to_le_bytes())?;
    write(&mut out, &text)?;
    for bytes in &payload {
        write(&mut out, bytes)?;
    }
    let file = out.into_inner().map_err(|e| Error::io(to, e.into_error()))?;
    file.sync_all().map_err(|e| Error::io(to, e))
}

fn le_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::{GROUP, dequantize, quantize_values};

    #[test]
    fn quantized_values_come_back_within_half_a_step() {
        let values: Vec<f32> = (0..GROUP * 4).map(|i| ((i * 37 % 101) as f32 - 50.0) / 61.0).collect();
        let (bytes, scales) = quantize_values(&values);
        assert_eq!((bytes.len(), scales.len()), (values.len(), 4));
        let mut back = vec![f32::NAN; values.len()];
        dequantize(&bytes, &scales, &mut back);
        for (i, (a, b)) in values.iter().zip(&back).enumerate() {
            assert!((a - b).abs() <= scales[i / GROUP] / 2.0 + 1e-7, "{a} came back as {b}");
        }
        assert!(bytes.iter().any(|&b| b == 127 || b == -127), "each group's largest value is ±127");
    }

    #[test]
    fn a_group_of_zeros_stays_zero() {
        let (bytes, scales) = quantize_values(&[0.0; GROUP]);
        let mut back = vec![f32::NAN; GROUP];
        dequantize(&bytes, &scales, &mut back);
        assert!(back.iter().all(|&v| v == 0.0));
    }
}
