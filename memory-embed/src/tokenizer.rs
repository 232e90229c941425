//! BERT's uncased WordPiece tokenizer, as the model was trained with it: text cleaned,
//! lowercased and stripped of accents, split at whitespace and punctuation (CJK characters on
//! their own), then each word cut into the longest vocabulary pieces from the left (`##` marks a
//! piece that continues a word); a word with no cut is `[UNK]`.

use unicode_normalization::UnicodeNormalization as _;

use crate::error::{Error, Result};

/// Words longer than this are `[UNK]` whole, as BERT's tokenizer has it.
const MAX_WORD_CHARS: usize = 100;

/// The vocabulary, as one text of `token\tid` lines sorted by token (see [`sorted_vocab`]), and
/// where each line starts: a token is found by binary search, with no table to build when a
/// process starts.
#[derive(Debug, Clone)]
pub(crate) struct Tokenizer {
    text: String,
    lines: Vec<u32>,
    pub(crate) cls: u32,
    pub(crate) sep: u32,
    unk: u32,
}

/// `vocab.txt` (one token a line, the line number its id) as `token\tid` lines sorted by token.
pub(crate) fn sorted_vocab(vocab: &str) -> String {
    let mut entries: Vec<(&str, usize)> = vocab.lines().enumerate().map(|(id, token)| (token, id)).collect();
    entries.sort_unstable();
    entries.dedup_by(|a, b| a.0 == b.0);
    let mut out = String::with_capacity(vocab.len() + entries.len() * 7);
    for (token, id) in entries {
        out.push_str(token);
        out.push('\t');
        out.push_str(&id.to_string());
        out.push('\n');
    }
    out
}

impl Tokenizer {
    /// Reads a sorted vocabulary ([`sorted_vocab`]).
    pub(crate) fn from_sorted(text: String) -> Result<Self> {
        let mut lines = Vec::with_capacity(32_000);
        let mut start = 0usize;
        for (i, byte) in text.bytes().enumerate() {
            if byte == b'\n' {
                lines.push(
                    u32::try_from(start)
                        .map_err(|_| Error::Model("the vocabulary is too large".to_owned()))?,
                );
                start = i + 1;
            }
        }
        let mut tokenizer = Self { text, lines, cls: 0, sep: 0, unk: 0 };
        let special = |t: &Self, name: &str| {
            t.id(name).ok_or_else(|| Error::Model(format!("the vocabulary has no {name} token")))
        };
        tokenizer.cls = special(&tokenizer, "[CLS]")?;
        tokenizer.sep = special(&tokenizer, "[SEP]")?;
        tokenizer.unk = special(&tokenizer, "[UNK]")?;
        Ok(tokenizer)
    }

    fn line(&self, index: usize) -> (&str, &str) {
        let start = self.lines[index] as usize;
        let end = self.lines.get(index + 1).map_or(self.text.len(), |&e| e as usize);
        let line = self.text[start..end].trim_end_matches('\n');
        line.split_once('\t').unwrap_or((line, ""))
    }

    fn id(&self, token: &str) -> Option<u32> {
        let (mut lo, mut hi) = (0usize, self.lines.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (key, id) = self.line(mid);
            match key.cmp(token) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return id.parse().ok(),
            }
        }
        None
    }

    /// How many tokens the vocabulary has.
    pub(crate) fn len(&self) -> usize {
        self.lines.len()
    }

    /// The ids of `text`'s pieces, `[CLS]` first and `[SEP]` last, at most `max` in all.
    pub(crate) fn encode(&self, text: &str, max: usize) -> Vec<u32> {
        let mut out = vec![self.cls];
        'words: for word in basic_tokens(text) {
            for id in self.pieces(&word) {
                if out.len() + 1 >= max {
                    break 'words;
                }
                out.push(id);
            }
        }
        out.push(self.sep);
        out
    }

    fn pieces(&self, word: &str) -> Vec<u32> {
        let chars: Vec<char> = word.chars().collect();
        if chars.len() > MAX_WORD_CHARS {
            return vec![self.unk];
        }
        let mut out = Vec::new();
        let mut start = 0;
        while start < chars.len() {
            let mut end = chars.len();
            let mut found = None;
            while start < end {
                let piece: String = chars[start..end].iter().collect();
                let key = if start > 0 { format!("##{piece}") } else { piece };
                if let Some(id) = self.id(&key) {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => return vec![self.unk],
            }
        }
        out
    }
}

/// The words and punctuation marks of a text, lowercased and without accents.
fn basic_tokens(text: &str) -> Vec<String> {
    let mut spaced = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || (c.is_control() && !c.is_whitespace()) {
            continue;
        }
        if is_cjk(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else if c.is_whitespace() {
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    let mut out = Vec::new();
    for word in spaced.split(' ').filter(|w| !w.is_empty()) {
        let plain: String = word.to_lowercase().nfd().filter(|c| !is_combining_mark(*c)).collect();
        let mut current = String::new();
        for c in plain.chars() {
            if is_punctuation(c) {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                out.push(c.to_string());
            } else {
                current.push(c);
            }
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

/// ASCII symbols count as punctuation, as in BERT, besides Unicode punctuation.
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    // The general punctuation and CJK symbol blocks, and the common marks outside them.
    matches!(c as u32, 0x2000..=0x206F | 0x3000..=0x303F | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65)
        || matches!(c, '¡' | '§' | '«' | '¶' | '·' | '»' | '¿' | '‐'..='‧')
}

fn is_combining_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::{Tokenizer, basic_tokens, sorted_vocab};

    #[test]
    fn pieces_are_the_longest_vocabulary_entries() {
        let vocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\nplay\n##ing\n##s\nit\n'\n";
        let tokenizer = Tokenizer::from_sorted(sorted_vocab(vocab)).unwrap();
        assert_eq!(tokenizer.len(), 9);
        assert_eq!(tokenizer.encode("Playing plays it's xyz", 32), [2, 4, 5, 4, 6, 7, 8, 1, 1, 3]);
        assert_eq!(tokenizer.encode("playing plays", 3), [2, 4, 3], "cut to the maximum, [SEP] kept");
    }

    #[test]
    fn words_and_punctuation_are_split_lowercased_and_plain() {
        assert_eq!(basic_tokens("It's so sunny outside!"), ["it", "'", "s", "so", "sunny", "outside", "!"]);
        assert_eq!(basic_tokens("Café  `cargo test`"), ["cafe", "`", "cargo", "test", "`"]);
        assert_eq!(basic_tokens("localhost:8081/api"), ["localhost", ":", "8081", "/", "api"]);
    }
}
