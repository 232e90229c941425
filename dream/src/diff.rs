//! A small line diff for showing planned note changes.

/// Lines of context kept around each change.
const CONTEXT: usize = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line<'a> {
    Same(&'a str),
    Removed(&'a str),
    Added(&'a str),
}

/// A unified-style diff of two texts: `--- label`/`+++ label` headers, then changed lines prefixed
/// with `-`/`+`, up to two unchanged lines of context around them, and `@@` between distant changes.
pub fn unified_diff(label: &str, before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    let lines = diff_lines(&old, &new);
    let mut out = format!("--- a/{label}\n+++ b/{label}\n");
    let changed: Vec<usize> =
        lines.iter().enumerate().filter(|(_, l)| !matches!(l, Line::Same(_))).map(|(i, _)| i).collect();
    let near_change = |i: usize| changed.iter().any(|&c| c.abs_diff(i) <= CONTEXT);
    let mut skipped = false;
    for (i, line) in lines.iter().enumerate() {
        if !near_change(i) {
            skipped = true;
            continue;
        }
        if skipped || i == 0 {
            out.push_str("@@\n");
            skipped = false;
        }
        let (prefix, text) = match line {
            Line::Same(t) => (' ', t),
            Line::Removed(t) => ('-', t),
            Line::Added(t) => ('+', t),
        };
        out.push(prefix);
        out.push_str(text);
        out.push('\n');
    }
    out
}

fn diff_lines<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Line<'a>> {
    // Longest common subsequence table, filled from the end.
    let (n, m) = (old.len(), new.len());
    let mut table = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i][j] =
                if old[i] == new[j] { table[i + 1][j + 1] + 1 } else { table[i + 1][j].max(table[i][j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n.max(m));
    while i < n && j < m {
        if old[i] == new[j] {
            out.push(Line::Same(old[i]));
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            out.push(Line::Removed(old[i]));
            i += 1;
        } else {
            out.push(Line::Added(new[j]));
            j += 1;
        }
    }
    out.extend(old[i..].iter().map(|l| Line::Removed(l)));
    out.extend(new[j..].iter().map(|l| Line::Added(l)));
    out
}
