//! Synthetic secrets in a format's shape, for tests and documentation: a template such as
//! `hvs.{b64url:91}` filled with deterministic pseudo-random characters. The repository then holds
//! no token-shaped literal, and every filled value is obviously generated.
//!
//! Placeholders: `{alnum:N}`, `{upperalnum:N}`, `{loweralnum:N}`, `{upper:N}`, `{lower:N}`,
//! `{hex:N}`, `{upperhex:N}`, `{b64:N}`, `{b64url:N}`, `{base32:N}`, `{bech32:N}`, `{digits:N}`
//! and `{uuid}`; `{enc:N}` is base64 of N letters and digits, `{userpass}` base64 of
//! `deploy:<password>` (a Docker `auth` value), `{discordid}` base64 of an 18-digit user id, and
//! `{pw:N}` a password of about N characters mixing cases, digits and symbols. A placeholder written `{~…}` is a public part (an id, a host): it is filled but
//! not counted among the secrets. Braces that are not a placeholder stay as written.

const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS: &str = "0123456789";

/// Standard base64 of `bytes`.
fn base64(bytes: &[u8], padded: bool) -> String {
    const TABLE: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(TABLE[((n >> (18 - 6 * i)) & 63) as usize]));
        }
        if padded {
            out.push_str(&"=".repeat(3 - chunk.len()));
        }
    }
    out
}

/// A filled template: its text and the secret values in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// The template with every placeholder filled.
    pub text: String,
    /// The values filled into secret placeholders, in order.
    pub secrets: Vec<String>,
}

/// Deterministic pseudo-random characters (SplitMix64).
#[derive(Debug, Clone)]
pub struct Generator(u64);

impl Generator {
    /// A generator; the same seed always gives the same characters.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn pick(&mut self, alphabet: &str, n: usize) -> String {
        let bytes = alphabet.as_bytes();
        let len = bytes.len() as u64;
        (0..n).map(|_| char::from(bytes[(self.next() % len) as usize])).collect()
    }

    /// `n` characters of `alphabet`; when it mixes digits and letters, with at least one of each
    /// (as generated keys have).
    fn chars(&mut self, alphabet: &str, n: usize) -> String {
        let mut s = self.pick(alphabet, n);
        let letter = alphabet.chars().find(char::is_ascii_alphabetic);
        let digit = alphabet.chars().find(char::is_ascii_digit);
        if let (true, Some(letter), Some(digit)) = (n > 4, letter, digit) {
            s.replace_range(n / 2..n / 2 + 2, &format!("{digit}{letter}"));
        }
        s
    }

    /// The value of one placeholder, or `None` when `kind` is not one.
    fn value(&mut self, kind: &str, n: usize) -> Option<String> {
        let alnum = format!("{UPPER}{LOWER}{DIGITS}");
        Some(match kind {
            "alnum" => self.chars(&alnum, n),
            "upperalnum" => self.chars(&format!("{UPPER}{DIGITS}"), n),
            "loweralnum" => self.chars(&format!("{LOWER}{DIGITS}"), n),
            "upper" => self.pick(UPPER, n),
            "lower" => self.pick(LOWER, n),
            "hex" => self.chars("0123456789abcdef", n),
            "upperhex" => self.chars("0123456789ABCDEF", n),
            "b64" => self.chars(&format!("{alnum}+/"), n),
            "b64url" => self.chars(&format!("{alnum}_-"), n),
            "base32" => self.chars("abcdefghijklmnopqrstuvwxyz234567", n),
            "bech32" => self.chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", n),
            "digits" => format!("{}{}", self.pick("123456789", 1), self.pick(DIGITS, n.saturating_sub(1))),
            "uuid" => {
                let hex = "0123456789abcdef";
                let parts: Vec<String> = [8, 4, 4, 4, 12].iter().map(|&k| self.chars(hex, k)).collect();
                parts.join("-")
            }
            "enc" => base64(self.chars(&alnum, n).as_bytes(), true),
            "userpass" => base64(format!("deploy:{}", self.chars(&alnum, 16)).as_bytes(), true),
            "discordid" => {
                let id = format!("{}{}", self.pick("123456789", 1), self.pick(DIGITS, 17));
                base64(id.as_bytes(), false)
            }
            "pw" => {
                let word = self.pick(LOWER, n.saturating_sub(6).max(2));
                let (upper, digits) = (self.pick(UPPER, 1), self.pick(DIGITS, 2));
                format!("{upper}{word}{digits}-{}!{}", self.pick(LOWER, 1), self.pick(DIGITS, 1))
            }
            _ => return None,
        })
    }

    /// Fills `template`.
    pub fn fill(&mut self, template: &str) -> Sample {
        let mut text = String::new();
        let mut secrets = Vec::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else { break };
            let inner = &rest[open + 1..close];
            let (public, inner) = inner.strip_prefix('~').map_or((false, inner), |i| (true, i));
            let (kind, count) = inner.split_once(':').unwrap_or((inner, "0"));
            let value = count.parse::<usize>().ok().and_then(|n| self.value(kind, n));
            let Some(value) = value else {
                // Literal braces (JSON): keep them.
                text.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
                continue;
            };
            text.push_str(&rest[..open]);
            text.push_str(&value);
            if !public {
                secrets.push(value);
            }
            rest = &rest[close + 1..];
        }
        text.push_str(rest);
        Sample { text, secrets }
    }
}

#[cfg(test)]
mod tests {
    use super::Generator;

    #[test]
    fn templates_fill_with_the_asked_alphabet() {
        let mut g = Generator::new(7);
        let s = g.fill(r#"{"x": "hvs.{b64url:24}", "org": "{~digits:6}", "id": "{uuid}"}"#);
        assert_eq!(s.secrets.len(), 2, "{s:?}");
        assert_eq!(s.secrets[0].len(), 24);
        assert!(s.text.starts_with(r#"{"x": "hvs."#));
        assert!(s.secrets[1].split('-').map(str::len).eq([8, 4, 4, 4, 12]));
        assert_eq!(Generator::new(7).fill("{hex:8}"), Generator::new(7).fill("{hex:8}"));
        assert!(g.fill("{hex:40}").secrets[0].bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(super::base64(b"deploy:x", true), "ZGVwbG95Ong=");
        assert!(g.fill("{pw:12}").secrets[0].contains('!'));
    }
}
