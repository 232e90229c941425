//! Colour for text output. Text is painted with ANSI sequences; [`super::print`] writes through
//! `anstream`, which strips them unless stdout is a terminal that takes colour, and always when
//! `NO_COLOR` is set (`CLICOLOR_FORCE` forces them on a pipe).

use anstyle::{AnsiColor, Style};

/// What a piece of text is, which decides its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Plain,
    /// A table's header line.
    Header,
    /// Secondary text: excerpts, details.
    Dim,
    /// A failed tool call, an error.
    Failure,
    /// Something the memory gave the agent.
    Injected,
}

fn style(tone: Tone) -> Style {
    match tone {
        Tone::Plain => Style::new(),
        Tone::Header => Style::new().bold(),
        Tone::Dim => Style::new().dimmed(),
        Tone::Failure => Style::new().fg_color(Some(AnsiColor::Red.into())),
        Tone::Injected => Style::new().fg_color(Some(AnsiColor::Cyan.into())),
    }
}

/// `text` in the tone's colour.
pub(crate) fn paint(tone: Tone, text: &str) -> String {
    let style = style(tone);
    if style == Style::new() || text.is_empty() {
        return text.to_owned();
    }
    format!("{style}{text}{style:#}")
}
