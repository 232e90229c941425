//! `agent-memory --help`: the commands in groups (the first steps, daily use, maintenance, the
//! plumbing harnesses and MCP clients call), every line within [`WIDTH`] columns.

/// The widest line help prints.
pub(crate) const WIDTH: usize = 100;

/// The groups, in the order help lists them; a command in none goes to the last.
const GROUPS: &[(&str, &[&str])] = &[
    ("Start here", &["install", "demo", "doctor", "ui"]),
    ("Daily", &["sessions", "timeline", "search", "notes", "projects", "share", "team", "pause", "resume"]),
    (
        "Maintenance",
        &[
            "dream",
            "config",
            "forget",
            "prune",
            "sync",
            "export",
            "import",
            "migrate",
            "model",
            "redact",
            "uninstall",
        ],
    ),
    ("Hook plumbing", &["hook", "mcp", "completions", "man"]),
];

const HINT: &str = "New here? `agent-memory install` wires the hooks into your harnesses; `agent-memory demo` \
                    shows what they remember, without touching them.";

/// `command` with its subcommands listed in [`GROUPS`] and the first-steps hint at the end.
pub(crate) fn grouped(command: clap::Command) -> clap::Command {
    let listed: Vec<(String, String)> = command
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| (c.get_name().to_owned(), c.get_about().map(ToString::to_string).unwrap_or_default()))
        .chain([("help".to_owned(), "Print this message or the help of the given command(s)".to_owned())])
        .collect();
    let name_width = listed.iter().map(|(name, _)| name.len()).max().unwrap_or(0) + 2;
    let mut text = String::new();
    for (i, (heading, names)) in GROUPS.iter().enumerate() {
        let last = i + 1 == GROUPS.len();
        let members: Vec<&(String, String)> = listed
            .iter()
            .filter(|(name, _)| {
                names.contains(&name.as_str())
                    || (last && !GROUPS.iter().any(|(_, all)| all.contains(&name.as_str())))
            })
            .collect();
        text.push_str(&format!("{heading}:\n"));
        for (name, about) in members {
            let lines = wrap(about, WIDTH - 2 - name_width);
            for (n, line) in lines.iter().enumerate() {
                let label = if n == 0 { name.as_str() } else { "" };
                text.push_str(&format!("  {label:<name_width$}{line}\n"));
            }
        }
        text.push('\n');
    }
    let template = format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{text}Options:\n{{options}}\n\n{}",
        wrap(HINT, WIDTH).join("\n")
    );
    command.help_template(template).term_width(WIDTH).max_term_width(WIDTH)
}

/// `text` in lines of at most `width` characters, broken between words.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_owned());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}
