//! Our hook command: how it is written into a harness's configuration, and how an entry already
//! there is recognised as ours.
//!
//! The command is `"<binary>" hook <harness>` with the binary's absolute path in double quotes
//! (`\`, `"`, `$` and `` ` `` escaped with a backslash, so every POSIX shell reads it back as one
//! word). An entry is ours when its command is exactly three shell words: a program whose file
//! name starts with `agent-memory` (or that is the binary being installed), `hook`, and the
//! harness's name. Anything else (other programs, other arguments, wrappers) is foreign.

use std::path::{Path, PathBuf};

/// The command line a harness runs for our hook.
pub(crate) fn command_for(binary: &Path, harness: &str) -> String {
    let mut quoted = String::from("\"");
    for c in binary.to_string_lossy().chars() {
        if matches!(c, '\\' | '"' | '$' | '`') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    format!("{quoted} hook {harness}")
}

/// When `command` is our hook for `harness`, the program it runs.
pub(crate) fn ours(command: &str, harness: &str, binary: &Path) -> Option<PathBuf> {
    let words = shell_words(command)?;
    let [program, verb, name] = words.as_slice() else {
        return None;
    };
    if verb != "hook" || name != harness {
        return None;
    }
    let program = PathBuf::from(program);
    let named_like_us =
        program.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("agent-memory"));
    (named_like_us || program == binary).then_some(program)
}

/// Splits a command line into words the way a POSIX shell would for the simple cases (plain
/// words, double and single quotes, backslash escapes). Returns `None` for anything a plain split
/// cannot decide (unterminated quotes, shell operators, variables): such a command is not ours.
fn shell_words(command: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.trim().chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => {
                            let next = chars.next()?;
                            if !matches!(next, '\\' | '"' | '$' | '`') {
                                word.push('\\');
                            }
                            word.push(next);
                        }
                        '$' | '`' => return None,
                        other => word.push(other),
                    }
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        other => word.push(other),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            ';' | '&' | '|' | '<' | '>' | '(' | ')' | '$' | '`' | '\n' | '*' | '?' => return None,
            other => {
                in_word = true;
                word.push(other);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}
