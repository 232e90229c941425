//! Aligned tables with a header row, for the read commands' text output.
//!
//! Columns are padded to their widest cell as a terminal shows it (wide characters take two
//! columns); the last column is never padded, so lines carry no trailing blanks. A row may carry a
//! detail line (an excerpt, an error) printed indented under it.

use unicode_width::UnicodeWidthStr as _;

use super::style::{self, Tone};

/// How a column's cells line up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

#[derive(Debug)]
struct Row {
    cells: Vec<String>,
    tone: Tone,
    details: Vec<String>,
}

/// A table being filled: headers first, then rows.
#[derive(Debug)]
pub(crate) struct Table {
    headers: Vec<(&'static str, Align)>,
    rows: Vec<Row>,
}

impl Table {
    /// A table with these column headers.
    pub(crate) fn new(headers: &[(&'static str, Align)]) -> Self {
        Self { headers: headers.to_vec(), rows: Vec::new() }
    }

    /// Adds a row; cells past the headers' count are dropped, missing ones are blank.
    pub(crate) fn row(&mut self, cells: Vec<String>) {
        self.row_with(cells, Tone::Plain, None);
    }

    /// Adds a row in a tone (a failure in red), with detail lines under it.
    pub(crate) fn row_with(
        &mut self,
        mut cells: Vec<String>,
        tone: Tone,
        details: impl IntoIterator<Item = String>,
    ) {
        cells.resize(self.headers.len(), String::new());
        let cells = cells.into_iter().map(|c| single_line(&c)).collect();
        let details = details.into_iter().map(|d| single_line(&d)).collect();
        self.rows.push(Row { cells, tone, details });
    }

    /// The table as text: a header line, then one line per row (plus its detail line). Styles are
    /// ANSI sequences that [`super::print`] strips when stdout is not a colour terminal.
    pub(crate) fn render(&self) -> String {
        let widths: Vec<usize> = (0..self.headers.len())
            .map(|i| {
                let cells = self.rows.iter().map(|r| r.cells[i].width());
                cells.chain(std::iter::once(self.headers[i].0.width())).max().unwrap_or(0)
            })
            .collect();
        let line = |cells: &[&str]| -> String {
            let mut out = String::new();
            for (i, cell) in cells.iter().enumerate() {
                let last = i + 1 == cells.len();
                let pad = widths[i].saturating_sub(cell.width());
                if i > 0 {
                    out.push_str("  ");
                }
                match self.headers[i].1 {
                    Align::Right => {
                        out.push_str(&" ".repeat(pad));
                        out.push_str(cell);
                    }
                    Align::Left => {
                        out.push_str(cell);
                        if !last {
                            out.push_str(&" ".repeat(pad));
                        }
                    }
                }
            }
            out.trim_end().to_owned()
        };
        let headers: Vec<&str> = self.headers.iter().map(|h| h.0).collect();
        let mut out = style::paint(Tone::Header, &line(&headers));
        out.push('\n');
        for row in &self.rows {
            let cells: Vec<&str> = row.cells.iter().map(String::as_str).collect();
            out.push_str(&style::paint(row.tone, &line(&cells)));
            out.push('\n');
            for detail in &row.details {
                out.push_str("    ");
                out.push_str(&style::paint(Tone::Dim, detail));
                out.push('\n');
            }
        }
        out
    }
}

/// A cell's text on one line: runs of whitespace (newlines, tabs) become one space, and control
/// characters that would move a terminal's cursor are dropped.
fn single_line(text: &str) -> String {
    let cleaned: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` cut to at most `max` characters, an ellipsis marking the cut.
pub(crate) fn clip(text: &str, max: usize) -> String {
    let flat = single_line(text);
    if flat.chars().count() > max {
        format!("{}…", flat.chars().take(max.saturating_sub(1)).collect::<String>())
    } else {
        flat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(table: &Table) -> String {
        anstream::adapter::strip_str(&table.render()).to_string()
    }

    #[test]
    fn columns_line_up_under_their_headers() {
        let mut table = Table::new(&[("NAME", Align::Left), ("EVENTS", Align::Right), ("NOTE", Align::Left)]);
        table.row(vec!["webshop".into(), "7".into(), "short".into()]);
        table.row(vec!["ledger".into(), "1204".into(), "a longer one".into()]);
        assert_eq!(
            plain(&table),
            "NAME     EVENTS  NOTE\nwebshop       7  short\nledger     1204  a longer one\n"
        );
    }

    #[test]
    fn wide_characters_take_two_columns_and_newlines_stay_out_of_cells() {
        let mut table = Table::new(&[("A", Align::Left), ("B", Align::Left)]);
        table.row(vec!["日本".into(), "x".into()]);
        table.row_with(
            vec!["ab".into(), "two\nlines".into()],
            Tone::Failure,
            Some("why\tit\u{1b}[2J failed".into()),
        );
        assert_eq!(plain(&table), "A     B\n日本  x\nab    two lines\n    why it [2J failed\n");
    }

    #[test]
    fn clip_marks_the_cut() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
    }
}
