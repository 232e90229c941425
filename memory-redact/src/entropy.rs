//! High-entropy values on environment-style lines (`NAME=value`, `export NAME=value`).

/// Minimum length of a value the entropy check considers.
pub(super) const MIN_LEN: usize = 20;

/// Minimum Shannon entropy, in bits per character. Random base62 strings of 20 characters score
/// about 4; words, paths and version strings stay well below.
pub(super) const MIN_BITS_PER_CHAR: f64 = 3.5;

/// Variable names whose values are identifiers, not secrets (commit ids, checksums).
const PUBLIC_NAME_PARTS: &[&str] =
    &["SHA", "COMMIT", "REV", "HASH", "CHECKSUM", "DIGEST", "VERSION", "UUID", "INTEGRITY"];

/// Prefixes of content hashes (`sha512-…` in lockfiles and subresource integrity), which are
/// public.
const HASH_PREFIXES: &[&str] = &["sha1-", "sha256-", "sha384-", "sha512-", "md5-"];

/// Shannon entropy of `s` in bits per character (0 for the empty string).
pub(super) fn bits_per_char(s: &str) -> f64 {
    let mut counts = [0u32; 256];
    let mut total = 0u32;
    for b in s.bytes() {
        counts[usize::from(b)] += 1;
        total += 1;
    }
    if total == 0 {
        return 0.0;
    }
    let total = f64::from(total);
    counts
        .iter()
        .filter(|&&n| n > 0)
        .map(|&n| {
            let p = f64::from(n) / total;
            -p * p.log2()
        })
        .sum()
}

/// Whether `value`, assigned to `name` on an env-style line, looks like a generated secret:
/// long enough, token alphabet only, letters and digits mixed, high entropy, and not a path,
/// URL, UUID or public identifier.
pub(super) fn looks_like_secret(name: &str, value: &str) -> bool {
    if value.len() < MIN_LEN || super::is_marker(value) {
        return false;
    }
    let upper_name = name.to_ascii_uppercase();
    if PUBLIC_NAME_PARTS.iter().any(|part| upper_name.contains(part)) {
        return false;
    }
    if !value.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/=_-.~".contains(&b)) {
        return false;
    }
    if value.starts_with(['/', '.', '~'])
        || is_uuid(value)
        || HASH_PREFIXES.iter().any(|p| value.starts_with(p))
    {
        return false;
    }
    if is_slug(value) {
        return false;
    }
    let has_digit = value.bytes().any(|b| b.is_ascii_digit());
    let has_lower = value.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = value.bytes().any(|b| b.is_ascii_uppercase());
    if !has_digit || !(has_lower || has_upper) {
        return false;
    }
    bits_per_char(value) >= MIN_BITS_PER_CHAR
}

/// Whether `value` is a name made of words: three or more parts separated by `-`, `_` or `.`,
/// each all lowercase letters, all digits or a short version part (`acme-logs-prod-eu-west-1`,
/// `api_v2_eu_3`). Generated
/// secrets mix cases or letters and digits inside their parts.
fn is_slug(value: &str) -> bool {
    let parts: Vec<&str> = value.split(['-', '_', '.']).collect();
    parts.len() >= 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && (p.bytes().all(|b| b.is_ascii_lowercase())
                    || p.bytes().all(|b| b.is_ascii_digit())
                    || p.len() <= 3 && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
        })
}

/// Whether `s` is a UUID in its usual 8-4-4-4-12 hex form.
pub(super) fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::looks_like_secret;

    #[test]
    fn names_made_of_words_are_not_secrets() {
        assert!(!looks_like_secret("BUCKET", "acme-logs-prod-eu-west-1"));
        assert!(!looks_like_secret("SERVICE", "api_v2_eu_central_3_primary"));
        assert!(!looks_like_secret("HOST", "db.replica.eu.west.1.internal"));
        assert!(looks_like_secret("SALT", "a7Fq-9xKp2-Lm4Zr8-Wt3Yb6Nc"), "mixed parts stay secrets");
    }
}
