//! The model's weights, read from its `model.safetensors` file as they are needed: a tensor at a
//! time into a buffer the caller reuses, and single rows of the large embedding tables. Nothing
//! is mapped or kept, so a process that embeds one prompt holds a few megabytes, not the model.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::Path;
use std::sync::Mutex;

use serde::Deserialize;

use crate::error::{Error, Result};

/// Longest header accepted, in bytes.
const MAX_HEADER: u64 = 16 * 1024 * 1024;

#[derive(Debug, Deserialize)]
struct Entry {
    dtype: String,
    shape: Vec<usize>,
    data_offsets: [u64; 2],
}

/// Where one tensor's values are.
#[derive(Debug, Clone)]
pub(crate) struct Tensor {
    pub(crate) shape: Vec<usize>,
    /// Byte offset in the file.
    offset: u64,
}

impl Tensor {
    /// How many values it holds.
    pub(crate) fn len(&self) -> usize {
        self.shape.iter().product()
    }
}

/// An open `safetensors` file of `f32` tensors.
#[derive(Debug)]
pub(crate) struct Weights {
    file: Mutex<File>,
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
            if entry.dtype != "F32" {
                continue;
            }
            let values: usize = entry.shape.iter().product();
            let bytes = entry.data_offsets[1].saturating_sub(entry.data_offsets[0]);
            if bytes != values as u64 * 4 {
                return Err(Error::Model(format!(
                    "{}: tensor {name} has {bytes} bytes for {values} values",
                    path.display()
                )));
            }
            tensors.insert(name, Tensor { shape: entry.shape, offset: 8 + len + entry.data_offsets[0] });
        }
        Ok(Self { file: Mutex::new(file), tensors })
    }

    /// The tensor called `name`, which must have `shape`.
    pub(crate) fn tensor(&self, name: &str, shape: &[usize]) -> Result<Tensor> {
        let tensor =
            self.tensors.get(name).ok_or_else(|| Error::Model(format!("the model has no tensor {name}")))?;
        if tensor.shape != shape {
            return Err(Error::Model(format!("tensor {name} is {:?}, expected {shape:?}", tensor.shape)));
        }
        Ok(tensor.clone())
    }

    /// Reads a whole tensor into `into` (resized to fit).
    pub(crate) fn read(&self, tensor: &Tensor, into: &mut Vec<f32>) -> Result<()> {
        into.resize(tensor.len(), 0.0);
        self.read_at(tensor.offset, into)
    }

    /// Reads row `row` of a matrix into `into` (its length is the row's).
    pub(crate) fn read_row(&self, tensor: &Tensor, row: usize, into: &mut [f32]) -> Result<()> {
        let width = tensor.shape.last().copied().unwrap_or(0);
        if into.len() != width || tensor.shape.first().is_none_or(|&rows| row >= rows) {
            return Err(Error::Model(format!("row {row} is outside a {:?} tensor", tensor.shape)));
        }
        self.read_at(tensor.offset + (row * width * 4) as u64, into)
    }

    fn read_at(&self, offset: u64, into: &mut [f32]) -> Result<()> {
        let mut file =
            self.file.lock().map_err(|_| Error::Model("the weights file lock is poisoned".to_owned()))?;
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(into);
        file.seek(SeekFrom::Start(offset))
            .and_then(|_| file.read_exact(bytes))
            .map_err(|e| Error::Model(format!("reading the weights: {e}")))?;
        if cfg!(target_endian = "big") {
            for value in into.iter_mut() {
                *value = f32::from_bits(value.to_bits().swap_bytes());
            }
        }
        Ok(())
    }
}
