//! Turns `src/catalog.toml` into Rust statics (`$OUT_DIR/catalog.rs`), so a hook process has the
//! catalog without parsing it.

use std::fmt::Write as _;

use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: Vec<Format>,
    line_prefix: Vec<LinePrefix>,
    auth: Auth,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Format {
    provider: String,
    name: String,
    kind: String,
    keywords: Vec<String>,
    pattern: String,
    #[serde(default)]
    digit: bool,
    samples: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinePrefix {
    harness: String,
    carrier: String,
    pattern: String,
    sample: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Auth {
    schemes: Vec<String>,
}

fn main() {
    println!("cargo::rerun-if-changed=src/catalog.toml");
    let source = std::fs::read_to_string("src/catalog.toml").expect("src/catalog.toml is readable");
    let file: File = toml::from_str(&source).unwrap_or_else(|e| panic!("src/catalog.toml: {e}"));
    let mut out = String::from(
        "/// The catalog's token formats, in the order they run.\npub(crate) static FORMATS: &[Format] = &[\n",
    );
    for f in &file.format {
        writeln!(
            out,
            "    Format {{ provider: {:?}, name: {:?}, kind: {:?}, keywords: &{:?}, pattern: {:?}, digit: {}, samples: &{:?} }},",
            f.provider, f.name, f.kind, f.keywords, f.pattern, f.digit, f.samples
        )
        .expect("write to a string");
    }
    out.push_str(
        "];\n\n/// Prefixes of harness output lines.\npub(crate) static LINE_PREFIXES: &[LinePrefix] = &[\n",
    );
    for p in &file.line_prefix {
        writeln!(
            out,
            "    LinePrefix {{ harness: {:?}, carrier: {:?}, pattern: {:?}, sample: {:?} }},",
            p.harness, p.carrier, p.pattern, p.sample
        )
        .expect("write to a string");
    }
    writeln!(
        out,
        "];\n\n/// `Authorization` schemes.\npub(crate) static AUTH_SCHEMES: &[&str] = &{:?};",
        file.auth.schemes
    )
    .expect("write to a string");
    let path = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR is set")).join("catalog.rs");
    std::fs::write(path, out).expect("OUT_DIR is writable");
}
