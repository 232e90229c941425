//! Decoding base64 (standard or URL-safe, padded or not), for the rules that recognise a secret by
//! what it encodes: a Docker `auth` value is `user:password`, a Discord bot token starts with a
//! user id.

/// The 6-bit value of one base64 character of either alphabet.
fn sextet(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

/// The bytes `text` encodes, or `None` when it is not base64 (a stray character, padding in the
/// middle, or a length no encoder produces).
pub(super) fn decode(text: &str) -> Option<Vec<u8>> {
    let body = text.trim_end_matches('=');
    if text.len() - body.len() > 2 || body.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in body.bytes() {
        acc = (acc << 6) | sextet(c)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((acc >> bits) & 0xff).ok()?);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn decodes_both_alphabets_with_and_without_padding() {
        assert_eq!(decode("dXNlcjpwYXNz").as_deref(), Some(&b"user:pass"[..]));
        assert_eq!(decode("YWI=").as_deref(), Some(&b"ab"[..]));
        assert_eq!(decode("YWI").as_deref(), Some(&b"ab"[..]));
        assert_eq!(decode("-_-_").as_deref(), Some(&[0xfb, 0xff, 0xbf][..]));
        assert_eq!(decode("a"), None);
        assert_eq!(decode("ab!d"), None);
        assert_eq!(decode("YW==="), None);
    }
}
