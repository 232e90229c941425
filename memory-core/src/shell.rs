//! Reading shell command lines, harness-neutral: the simple commands of a line, the program each
//! runs (past variable assignments and runners such as `uv run` or `npx`), its subcommand and
//! flags, and the files a command deletes. The dream reads what was run with it; the hook runtime
//! recognises a command about to run again.

/// Programs that say nothing about a project: moving around, printing, shell plumbing.
const TRIVIAL: &[&str] = &[
    "ls", "cd", "pwd", "cat", "echo", "head", "tail", "wc", "clear", "which", "true", "false", "mkdir",
    "touch", "sleep", "printf", "test", "[", "exit", "export", "source", ".", "set", "unset", "alias",
];

/// Programs that only look around (search, inspect, compare); running them fixes nothing and
/// teaches nothing about how the project is built.
const INSPECTION: &[&str] = &[
    "grep", "rg", "ag", "ack", "find", "fd", "sed", "awk", "less", "more", "tree", "du", "df", "ps", "top",
    "env", "date", "whoami", "uname", "file", "stat", "diff", "jq", "yq", "sort", "uniq", "cut", "tr",
    "history", "man", "type", "nl", "xxd", "od", "realpath", "dirname", "basename", "readlink", "lsof",
];

/// Subcommands that only look around, by program.
const INSPECTION_SUBCOMMANDS: &[(&str, &[&str])] = &[
    (
        "git",
        &[
            "status",
            "diff",
            "log",
            "show",
            "branch",
            "remote",
            "rev-parse",
            "blame",
            "grep",
            "ls-files",
            "reflog",
            "describe",
            "config",
            "shortlog",
            "whatchanged",
        ],
    ),
    ("cargo", &["tree", "metadata", "search", "version"]),
    ("npm", &["ls", "view", "outdated", "list"]),
    ("pnpm", &["ls", "list", "why", "outdated"]),
    ("yarn", &["why", "list", "info"]),
    ("pip", &["list", "show", "freeze"]),
    ("docker", &["ps", "images", "logs", "inspect"]),
    ("kubectl", &["get", "describe", "logs"]),
];

/// Programs that run another program: the flags that follow belong to that program.
const RUNNERS: &[&str] =
    &["sudo", "time", "env", "nice", "nohup", "command", "exec", "npx", "pnpx", "bunx", "uvx"];

/// Programs whose subcommand runs another program (`uv run pytest`, `bundle exec rspec`).
const RUNNER_SUBCOMMANDS: &[(&str, &[&str])] = &[
    ("uv", &["run"]),
    ("poetry", &["run"]),
    ("pdm", &["run"]),
    ("hatch", &["run"]),
    ("pipenv", &["run"]),
    ("rye", &["run"]),
    ("pipx", &["run"]),
    ("conda", &["run"]),
    ("bundle", &["exec"]),
    ("pnpm", &["exec", "dlx"]),
    ("yarn", &["exec", "dlx"]),
    ("npm", &["exec"]),
    ("bun", &["x"]),
];

/// Flags of runners that take a value (`uv run --with httpx pytest`).
const RUNNER_VALUE_FLAGS: &[&str] = &[
    "--with",
    "--from",
    "--python",
    "-p",
    "--package",
    "-n",
    "--name",
    "--env-file",
    "-C",
    "--directory",
    "--project",
    "-u",
    "--user",
    "-g",
    "--group",
];

/// Package-manager programs whose `run <script>` names the script.
const SCRIPT_RUNNERS: &[&str] = &["npm", "pnpm", "yarn", "bun"];

/// One simple command, as a program run with its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// Variable assignments before the program (`TZ=UTC`).
    pub env: Vec<String>,
    /// The runners in front of the program (`uv run`, `npx`).
    pub runners: Vec<String>,
    /// The program, without its directory.
    pub program: String,
    /// The subcommand (`test` of `cargo test`; the script of `pnpm run lint`).
    pub sub: Option<String>,
    /// The flags, names only (`--features`, not its value), in order, without repeats.
    pub flags: Vec<String>,
    /// The words after the program, unquoted.
    pub args: Vec<String>,
    /// Every word of the simple command, as written.
    pub words: Vec<String>,
}

impl Invocation {
    /// `program sub` (or `program`): how commands are grouped (`cargo test`, `pytest`).
    pub fn family(&self) -> String {
        match &self.sub {
            Some(sub) => format!("{} {sub}", self.program),
            None => self.program.clone(),
        }
    }

    /// Whether the command only looks around.
    pub fn is_inspection(&self) -> bool {
        INSPECTION.contains(&self.program.as_str())
            || INSPECTION_SUBCOMMANDS.iter().any(|(program, subs)| {
                *program == self.program && self.sub.as_deref().is_some_and(|sub| subs.contains(&sub))
            })
    }
}

/// Splits a command line into the words of its simple commands, at unquoted `&&`, `||`, `|`, `;`
/// and `&`; quotes stay in the words, redirections are left out.
pub fn simple_commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    let end_word = |word: &mut String, words: &mut Vec<String>| {
        if !word.is_empty() {
            words.push(std::mem::take(word));
        }
    };
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                word.push(c);
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.push(c);
            }
            (None, '\\') => {
                word.push(c);
                if let Some(next) = chars.next() {
                    word.push(next);
                }
            }
            (None, c) if c.is_whitespace() => end_word(&mut word, &mut words),
            (None, '&' | '|' | ';') => {
                end_word(&mut word, &mut words);
                if matches!(chars.peek(), Some('&' | '|')) {
                    chars.next();
                }
                if !words.is_empty() {
                    commands.push(std::mem::take(&mut words));
                }
            }
            (None, c) => word.push(c),
        }
    }
    end_word(&mut word, &mut words);
    if !words.is_empty() {
        commands.push(words);
    }
    for words in &mut commands {
        words.retain(|w| !is_redirection(w));
    }
    commands.retain(|words| !words.is_empty());
    commands
}

fn is_redirection(word: &str) -> bool {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.starts_with('>') || rest.starts_with('<') || word == "2>&1"
}

/// Reads one simple command.
pub fn invocation(words: &[String]) -> Option<Invocation> {
    let mut index = 0;
    let mut env = Vec::new();
    let mut runners = Vec::new();
    loop {
        while words.get(index).is_some_and(|w| is_assignment(w)) {
            env.push(words[index].clone());
            index += 1;
        }
        let program = program_name(words.get(index)?);
        if RUNNERS.contains(&program.as_str()) {
            runners.push(program.clone());
            index = skip_runner_flags(words, index + 1);
            continue;
        }
        if program == "timeout" {
            runners.push(program);
            index = skip_runner_flags(words, index + 1) + 1;
            continue;
        }
        if let Some(sub) = words.get(index + 1).map(|w| unquote(w))
            && RUNNER_SUBCOMMANDS.iter().any(|(p, subs)| *p == program && subs.contains(&sub.as_str()))
        {
            runners.push(format!("{program} {sub}"));
            index = skip_runner_flags(words, index + 2);
            continue;
        }
        if matches!(program.as_str(), "python" | "python3" | "py")
            && words.get(index + 1).is_some_and(|w| w == "-m")
            && words.get(index + 2).is_some()
        {
            runners.push(format!("{program} -m"));
            index += 2;
            continue;
        }
        break;
    }
    let program = program_name(words.get(index)?);
    if program.is_empty()
        || !program.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '[' || c == '.')
    {
        return None;
    }
    let args: Vec<String> = words[index + 1..].iter().map(|w| unquote(w)).collect();
    // The subcommand is the first word that is not a flag (`+nightly` is a toolchain, not a word).
    let mut sub = args
        .iter()
        .find(|w| !w.starts_with('-') && !w.starts_with('+'))
        .filter(|w| is_subcommand(w))
        .cloned();
    if SCRIPT_RUNNERS.contains(&program.as_str()) && sub.as_deref() == Some("run") {
        let script = args.iter().filter(|w| !w.starts_with('-')).nth(1);
        if let Some(script) = script.filter(|s| is_subcommand(s)) {
            sub = Some(script.clone());
        }
    }
    let mut flags: Vec<String> = Vec::new();
    for word in &args {
        if !word.starts_with('-') || word == "-" || word == "--" || word.len() < 2 {
            continue;
        }
        let name = word.split('=').next().unwrap_or(word).replace('`', "");
        if name.len() > 1 && name.len() <= 40 && !flags.contains(&name) {
            flags.push(name);
        }
    }
    Some(Invocation { env, runners, program, sub, flags, args, words: words.to_vec() })
}

fn skip_runner_flags(words: &[String], mut index: usize) -> usize {
    while let Some(word) = words.get(index) {
        if is_assignment(word) {
            index += 1;
        } else if word.starts_with('-') {
            let name = word.split('=').next().unwrap_or(word);
            index += if RUNNER_VALUE_FLAGS.contains(&name) && !word.contains('=') { 2 } else { 1 };
        } else {
            break;
        }
    }
    index
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

fn program_name(word: &str) -> String {
    let word = unquote(word);
    word.rsplit('/').next().unwrap_or(&word).to_owned()
}

fn is_subcommand(word: &str) -> bool {
    word.len() <= 20
        && word.starts_with(|c: char| c.is_ascii_lowercase())
        && word.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == ':')
}

/// A word without its surrounding quotes.
pub fn unquote(word: &str) -> String {
    let stripped = word
        .strip_prefix('"')
        .and_then(|w| w.strip_suffix('"'))
        .or_else(|| word.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')));
    stripped.unwrap_or(word).to_owned()
}

/// Whether a simple command is trivial (`cd`, `echo`, `ls`).
fn is_trivial(invocation: &Invocation) -> bool {
    TRIVIAL.contains(&invocation.program.as_str())
}

/// The command a line is about: its first simple command that is not trivial (`pnpm test` of
/// `cd web && pnpm test`). `None` when every part is trivial.
pub fn primary(line: &str) -> Option<Invocation> {
    simple_commands(line).iter().filter_map(|words| invocation(words)).find(|i| !is_trivial(i))
}

/// The files a command line deletes or moves away: `rm`, `git rm`, `unlink`, and the sources of
/// `mv` and `git mv`.
pub fn deleted_paths(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for words in simple_commands(line) {
        let Some(invocation) = invocation(&words) else { continue };
        let mut args: Vec<String> = invocation.args.iter().filter(|w| !w.starts_with('-')).cloned().collect();
        let moved = match (invocation.program.as_str(), invocation.sub.as_deref()) {
            ("rm" | "unlink", _) => false,
            ("git", Some("rm")) => {
                args.remove(0);
                false
            }
            ("mv", _) => true,
            ("git", Some("mv")) => {
                args.remove(0);
                true
            }
            _ => continue,
        };
        if moved {
            args.pop();
        }
        out.extend(args.into_iter().filter(|a| !a.is_empty() && !a.contains('*')));
    }
    out
}

/// The files a patch deletes or moves away: `*** Delete File:` and the source of `*** Move to:` in
/// Codex's patch format, `+++ /dev/null` in a unified diff.
pub fn patch_deleted_paths(patch: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut updating: Option<&str> = None;
    let mut minus: Option<&str> = None;
    for line in patch.lines() {
        if let Some(path) = line.strip_prefix("*** Delete File: ") {
            out.push(path.trim().to_owned());
        } else if let Some(path) = line.strip_prefix("*** Update File: ") {
            updating = Some(path.trim());
        } else if line.starts_with("*** Move to: ") {
            out.extend(updating.map(str::to_owned));
        } else if let Some(path) = line.strip_prefix("--- ") {
            minus = Some(path.trim().trim_start_matches("a/"));
        } else if line.trim() == "+++ /dev/null" {
            out.extend(minus.filter(|p| *p != "/dev/null").map(str::to_owned));
        }
    }
    out
}
