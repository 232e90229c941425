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
    &["sudo", "time", "env", "nice", "nohup", "command", "exec", "npx", "pnpx", "bunx", "uvx", "cross-env"];

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

/// Flags a program takes before its subcommand whose value is the next word (`kubectl --context
/// prod get pods`, `git -C web status`).
const GLOBAL_VALUE_FLAGS: &[(&str, &[&str])] = &[
    ("kubectl", &["--context", "-n", "--namespace", "--kubeconfig", "--cluster", "--user", "-s", "--server"]),
    ("helm", &["-n", "--namespace", "--kube-context", "--kubeconfig"]),
    ("git", &["-C", "-c", "--git-dir", "--work-tree"]),
    ("docker", &["-H", "--host", "--context", "-c", "--config", "-l", "--log-level"]),
    ("podman", &["-c", "--connection", "--url"]),
    ("gh", &["-R", "--repo"]),
    ("aws", &["--profile", "--region", "--output"]),
    ("gcloud", &["--project", "--account", "--configuration"]),
    ("cargo", &["-C", "--config", "-Z"]),
    ("pnpm", &["--filter", "-F", "-C", "--dir"]),
    ("npm", &["-w", "--workspace", "--prefix"]),
    ("yarn", &["--cwd"]),
];

/// Package-manager programs whose `run <script>` names the script.
const SCRIPT_RUNNERS: &[&str] = &["npm", "pnpm", "yarn", "bun"];

/// Programs whose every argument that is not a flag names a task to run (`gradle clean assemble`).
const TASK_RUNNERS: &[&str] = &["gradle", "gradlew", "mvn", "mvnw", "make", "gmake", "just", "rake", "task"];

/// Flags of task runners that take the next word as their value (`gradle --tests '*Sync*'`,
/// `make -C web`).
const TASK_VALUE_FLAGS: &[&str] = &[
    "--tests",
    "-x",
    "--exclude-task",
    "-p",
    "--project-dir",
    "--console",
    "-b",
    "--build-file",
    "-c",
    "--settings-file",
    "-I",
    "--init-script",
    "--warning-mode",
    "-g",
    "--gradle-user-home",
    "-C",
    "--directory",
    "-f",
    "--file",
    "--makefile",
    "-pl",
    "--projects",
    "-P",
    "--activate-profiles",
    "-s",
    "--settings",
    "-o",
    "--old-file",
    "-W",
    "--what-if",
    "-j",
    "--jobs",
    "-l",
    "--load-average",
];

/// Flags that take the next word as their value wherever they appear (`-D warnings`, `--port
/// 3000`, `--reporter dot`), for telling a flag's value from the arguments after it.
const VALUE_FLAGS: &[&str] = &[
    "-D",
    "-W",
    "-A",
    "-F",
    "--features",
    "--port",
    "--host",
    "--reporter",
    "--target",
    "--profile",
    "--package",
    "-p",
    "--bin",
    "--example",
    "--test",
    "--bench",
    "-j",
    "--jobs",
    "-n",
    "--numprocesses",
    "--config",
    "-c",
    "--env",
    "--mode",
    "--format",
    "--log-level",
    "--loglevel",
    "--timeout",
    "--max-warnings",
    "--cov",
    "--cov-report",
    "--maxfail",
    "--durations",
    "--tb",
    "-m",
    "--workers",
    "--shard",
    "--preset",
    "--out-dir",
    "--outdir",
    "-o",
    "--output",
    "--ext",
    "--parallel",
    "--concurrency",
    "--max-workers",
    "--browser",
    "--project",
    "--region",
    "--namespace",
];

/// Flags that pick what one run covers (`-k test_login`, `--filter orders`): their values are for
/// that run, with nothing to reuse.
const SELECTOR_FLAGS: &[&str] = &[
    "-k",
    "--filter",
    "--grep",
    "-t",
    "--testNamePattern",
    "--test-name-pattern",
    "-g",
    "--tests",
    "--match",
    "-run",
    "--only",
    "--skip",
];

/// Programs that run a script file: the file is what runs (`python manage.py migrate`).
const INTERPRETERS: &[&str] =
    &["python", "node", "ruby", "perl", "php", "bash", "sh", "zsh", "deno", "elixir", "Rscript", "lua"];

/// Extensions of script files an interpreter runs.
const SCRIPT_EXTENSIONS: &[&str] =
    &["py", "js", "mjs", "cjs", "ts", "mts", "rb", "pl", "php", "sh", "bash", "zsh", "exs", "r", "lua"];

/// Flags that only ask a program for its version or its usage.
const INFORMATIONAL_FLAGS: &[&str] = &["--version", "-version", "--help", "-help", "-V"];

/// Subcommands that only ask a program for its version or its usage (`tofu version`).
const INFORMATIONAL_SUBCOMMANDS: &[&str] = &["version", "help"];

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

    /// The tool the program is, one name for its wrappers and versions: `gradle` for
    /// `./gradlew`, `python` for `python3.12`, `pip` for `pip3`.
    pub fn tool(&self) -> String {
        let program = self.program.trim_end_matches(".bat").trim_end_matches(".cmd").trim_end_matches(".exe");
        let program = match program {
            "gradlew" => "gradle",
            "mvnw" => "mvn",
            "gmake" => "make",
            other => other,
        };
        let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        match base {
            "python" | "pip" | "ruby" | "node" | "perl" | "php" | "lua" if !base.is_empty() => {
                base.to_owned()
            }
            _ => program.to_owned(),
        }
    }

    /// Whether the command only asks the program for its version or its usage (`uv --version`,
    /// `tofu version`, `cargo help build`).
    pub fn is_informational(&self) -> bool {
        self.args.iter().any(|a| INFORMATIONAL_FLAGS.contains(&a.as_str()))
            || (self.args.len() == 1 && self.args[0] == "-h")
            || self.args.iter().find(|a| !a.starts_with('-')).is_some_and(|first| {
                INFORMATIONAL_SUBCOMMANDS.contains(&first.as_str()) && self.args.len() <= 2
            })
    }

    /// What the command does with its tool, for telling runs of one tool apart whatever their
    /// targets, flags and variables: the subcommand (`sync` of `uv sync --frozen`), the family of a
    /// namespaced task (`deps` of `mix deps.update`, `db` of `rails db:migrate`), the kind of a
    /// task runner's tasks (`assemble` of `gradle :app:assembleRelease`), the script a package
    /// manager or an interpreter runs (`build` of `npm run build`, `manage.py migrate` of `python
    /// manage.py migrate`), the mode of a program whose flags choose it (`configure` or `build`
    /// of `cmake`). A word right after a flag may be that flag's value, so the next word is a
    /// candidate too. Empty when the program runs without naming an operation (`pytest -q
    /// tests/orders`, `ctest -R render`): such a command covers every operation of its tool.
    pub fn operations(&self) -> Vec<String> {
        let tool = self.tool();
        let args: Vec<&str> = self.args.iter().map(String::as_str).take_while(|a| *a != "--").collect();
        match tool.as_str() {
            "cmake" => return vec![cmake_mode(&args).to_owned()],
            "ctest" => return Vec::new(),
            _ => {}
        }
        if TASK_RUNNERS.contains(&tool.as_str()) {
            let mut tasks = Vec::new();
            let mut index = 0;
            while let Some(word) = args.get(index) {
                index += 1;
                if word.starts_with('-') {
                    if TASK_VALUE_FLAGS.contains(word) {
                        index += 1;
                    }
                    continue;
                }
                if is_assignment(word) || word.chars().all(|c| c.is_ascii_digit()) {
                    continue;
                }
                let task = task_kind(&tool, word);
                if !task.is_empty() && !tasks.contains(&task) {
                    tasks.push(task);
                }
            }
            return tasks;
        }
        // The value of a global flag (`--context prod`, `--filter web`) is no operation.
        let global_value = |at: usize| at > 0 && global_value_flag(&self.program, args[at - 1]);
        let positional: Vec<(usize, &str)> = args
            .iter()
            .enumerate()
            .filter(|(i, a)| {
                !a.starts_with('-') && !a.starts_with('+') && !is_assignment(a) && !global_value(*i)
            })
            .map(|(i, a)| (i, *a))
            .collect();
        let Some(&(_, first)) = positional.first() else {
            return if INTERPRETERS.contains(&tool.as_str()) {
                vec!["inline".to_owned()]
            } else {
                Vec::new()
            };
        };
        if INTERPRETERS.contains(&tool.as_str()) {
            if !is_script_file(first) {
                // Code given inline or on stdin: no script of the project runs.
                return vec!["inline".to_owned()];
            }
            let script = first.rsplit('/').next().unwrap_or(first);
            return match positional.get(1).and_then(|(_, w)| operation_word(w)) {
                Some(next) => vec![format!("{script} {next}")],
                None => vec![script.to_owned()],
            };
        }
        if SCRIPT_RUNNERS.contains(&tool.as_str()) && first == "run" {
            return positional.get(1).and_then(|(_, w)| operation_word(w)).into_iter().collect();
        }
        // Words right after a flag may be its value: each is a candidate, up to the first word
        // that follows no flag.
        let mut out: Vec<String> = Vec::new();
        for &(at, word) in &positional {
            if let Some(operation) = operation_word(word)
                && !out.contains(&operation)
            {
                out.push(operation);
            }
            let after_bare_flag = at > 0 && args[at - 1].starts_with('-') && !args[at - 1].contains('=');
            if !after_bare_flag {
                break;
            }
        }
        out
    }

    /// The flags as a person would reuse them, in order, without repeats: a flag with the value
    /// it was given (`--reporter=dot`, `-D warnings`, `--port 3000`), a switch by its name
    /// (`--release`). Flags that pick what one run covers (`-k test_login`) and values of free
    /// text (`-m "not slow"`) give nothing to reuse and are left out.
    pub fn flag_uses(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut index = 0;
        while let Some(word) = self.args.get(index) {
            index += 1;
            if !word.starts_with('-') || word == "-" || word == "--" || word.len() < 2 {
                continue;
            }
            let (name, attached) = match word.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (word.as_str(), None),
            };
            if name.len() < 2 || name.len() > 40 || name.contains('`') {
                continue;
            }
            let next = self.args.get(index).filter(|w| !w.starts_with('-'));
            let value = match attached {
                Some(value) => Some(value),
                None if VALUE_FLAGS.contains(&name) || SELECTOR_FLAGS.contains(&name) => {
                    index += usize::from(next.is_some());
                    Some(next.cloned().unwrap_or_default())
                }
                None => match next {
                    Some(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
                        index += 1;
                        Some(n.clone())
                    }
                    _ => None,
                },
            };
            let usage = match value {
                None => name.to_owned(),
                Some(value) => {
                    let reusable = !value.is_empty()
                        && value.len() <= 40
                        && !value.contains(char::is_whitespace)
                        && !SELECTOR_FLAGS.contains(&name);
                    if !reusable {
                        continue;
                    }
                    let joiner = if word.contains('=') { "=" } else { " " };
                    format!("{name}{joiner}{value}")
                }
            };
            if !out.contains(&usage) {
                out.push(usage);
            }
        }
        out
    }

    /// Whether the command only gets things ready for another: adds a toolchain target or a
    /// component, installs or fetches what is needed, updates a package index (`rustup target
    /// add`, `pnpm install`, `cabal update`, `dvc add`).
    pub fn prepares(&self) -> bool {
        matches!(self.program.as_str(), "rustup" | "chmod" | "ln" | "cp")
            || self.sub.as_deref().is_some_and(|sub| {
                matches!(
                    sub,
                    "install" | "add" | "ci" | "sync" | "fetch" | "update" | "download" | "restore" | "get"
                )
            })
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
    // Depth of `$( … )` command substitutions: one word of the outer command, whatever it holds.
    let mut substitution = 0usize;
    let mut chars = line.chars().peekable();
    let end_word = |word: &mut String, words: &mut Vec<String>| {
        if !word.is_empty() {
            words.push(std::mem::take(word));
        }
    };
    while let Some(c) = chars.next() {
        if substitution > 0 && quote.is_none() {
            word.push(c);
            match c {
                '(' => substitution += 1,
                ')' => substitution -= 1,
                _ => {}
            }
            continue;
        }
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                word.push(c);
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"' | '`') => {
                quote = Some(c);
                word.push(c);
            }
            (None, '$') if chars.peek() == Some(&'(') => {
                word.push(c);
                word.push('(');
                chars.next();
                substitution = 1;
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
        // `pnpm --filter web exec vitest`: the runner's subcommand may follow its global flags.
        let at = after_global_flags(&program, words, index + 1);
        if let Some(sub) = words.get(at).map(|w| unquote(w))
            && RUNNER_SUBCOMMANDS.iter().any(|(p, subs)| *p == program && subs.contains(&sub.as_str()))
        {
            runners.push(format!("{program} {sub}"));
            index = skip_runner_flags(words, at + 1);
            continue;
        }
        // pnpm, yarn and bun run a dependency's program named in place of a script: `pnpm
        // --filter web cypress run` runs cypress.
        if matches!(program.as_str(), "pnpm" | "yarn" | "bun")
            && let Some(next) = words.get(at).map(|w| unquote(w))
            && dependency_program(&next)
        {
            runners.push(program);
            index = at;
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
    // The subcommand is the first word that is not a flag (`+nightly` is a toolchain, not a word)
    // nor the value of a global flag (`kubectl --context prod get pods`).
    let takes_value = |flag: &str| global_value_flag(&program, flag);
    let first = args.iter().enumerate().find(|(at, w)| {
        let flag_value = *at > 0 && takes_value(&args[*at - 1]);
        !(w.starts_with('-') || w.starts_with('+') || flag_value)
    });
    let mut sub = first.map(|(_, w)| w).filter(|w| is_subcommand(w)).cloned();
    if SCRIPT_RUNNERS.contains(&program.as_str()) && sub.as_deref() == Some("run") {
        let after = first.map_or(0, |(at, _)| at + 1);
        let script = args[after..].iter().find(|w| !w.starts_with('-'));
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
    // A tool another one embeds is that tool: `kubectl kustomize dir` is `kustomize build dir`.
    let (program, sub, args) = match (program.as_str(), sub.as_deref()) {
        ("kubectl", Some("kustomize")) => {
            let mut args = args;
            if let Some(at) = args.iter().position(|a| a == "kustomize") {
                args[at] = "build".to_owned();
            }
            ("kustomize".to_owned(), Some("build".to_owned()), args)
        }
        _ => (program, sub, args),
    };
    Some(Invocation { env, runners, program, sub, flags, args, words: words.to_vec() })
}

/// What `cmake` is asked to do: build, install, run a script or a tool command, a workflow, or
/// (by default) configure.
fn cmake_mode(args: &[&str]) -> &'static str {
    for arg in args {
        match *arg {
            "--build" => return "build",
            "--install" => return "install",
            "-P" => return "script",
            "-E" => return "tool",
            "--workflow" => return "workflow",
            _ => {}
        }
    }
    "configure"
}

/// The kind of a task runner's task: its name without the project path Gradle puts before it and
/// without what its camel case adds (`:app:assembleRelease` and `assembleDebug` are `assemble`,
/// `testDebugUnitTest` is `test`), or its namespace elsewhere (`db:migrate` is `db`).
fn task_kind(tool: &str, task: &str) -> String {
    let name = if tool == "gradle" {
        task.rsplit(':').next().unwrap_or(task)
    } else {
        task.split(':').next().unwrap_or(task)
    };
    let head: String = name.chars().take_while(|c| !c.is_ascii_uppercase()).collect();
    let head = head.split(['.', '/']).next().unwrap_or_default();
    if head.is_empty() { name.to_owned() } else { head.to_owned() }
}

/// A word naming an operation, reduced to its family (`deps` of `deps.get`, `test` of
/// `test:unit`); `None` for paths, files, numbers and other targets.
fn operation_word(word: &str) -> Option<String> {
    if word.contains('/') || word.starts_with('.') || word.contains('*') || is_file_name(word) {
        return None;
    }
    let head = word.split(['.', ':']).next().unwrap_or_default();
    (head.len() <= 30
        && head.starts_with(|c: char| c.is_ascii_alphabetic())
        && head.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    .then(|| head.to_owned())
}

/// Extensions of files commands are given, beside scripts: what a word that names a file ends
/// with.
const FILE_EXTENSIONS: &[&str] = &[
    "md",
    "txt",
    "rst",
    "json",
    "jsonc",
    "yaml",
    "yml",
    "toml",
    "ini",
    "cfg",
    "conf",
    "env",
    "lock",
    "xml",
    "html",
    "css",
    "scss",
    "tsx",
    "jsx",
    "vue",
    "svelte",
    "rs",
    "go",
    "ex",
    "java",
    "kt",
    "kts",
    "swift",
    "c",
    "cc",
    "cpp",
    "cxx",
    "h",
    "hpp",
    "cs",
    "fs",
    "scala",
    "dart",
    "sql",
    "proto",
    "tf",
    "tfvars",
    "hcl",
    "csv",
    "log",
    "zip",
    "gz",
    "tgz",
    "tar",
    "png",
    "jpg",
    "svg",
    "pdf",
    "wasm",
    "exe",
    "so",
    "dll",
    "gradle",
    "plist",
    "mk",
    "cmake",
    "dockerfile",
    "ipynb",
    "spec",
];

/// Whether a word names a file by its extension (`README.md`, `tests/test_api.py`).
pub fn is_file_name(word: &str) -> bool {
    let name = word.rsplit('/').next().unwrap_or(word);
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        let ext = ext.to_ascii_lowercase();
        !stem.is_empty()
            && (SCRIPT_EXTENSIONS.contains(&ext.as_str()) || FILE_EXTENSIONS.contains(&ext.as_str()))
    })
}

/// Whether a word names a script file an interpreter runs.
fn is_script_file(word: &str) -> bool {
    let name = word.rsplit('/').next().unwrap_or(word);
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && SCRIPT_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    })
}

/// Whether a word after pnpm, yarn or bun names a developer tool of the concept table (`turbo`,
/// `cypress`, `vitest`) that is no package manager: the program it runs, not a script's name.
fn dependency_program(word: &str) -> bool {
    // Words a project's scripts are named by ("typecheck", "codegen") name the script.
    const SCRIPT_NAMES: &[&str] =
        &["build", "check", "codegen", "deploy", "dev", "format", "lint", "start", "test", "typecheck"];
    !SCRIPT_RUNNERS.contains(&word)
        && !SCRIPT_NAMES.contains(&word)
        && !matches!(word, "npx" | "pnpx" | "bunx" | "corepack")
        && crate::search::tools(word).first().is_some_and(|tool| *tool == word)
}

/// Whether `flag` is one of `program`'s global flags that take the next word as their value
/// ([`GLOBAL_VALUE_FLAGS`]).
fn global_value_flag(program: &str, flag: &str) -> bool {
    GLOBAL_VALUE_FLAGS.iter().any(|(p, flags)| *p == program && flags.contains(&flag))
}

/// The index of the first word from `index` on that is neither a flag nor the value of one of
/// `program`'s global flags.
fn after_global_flags(program: &str, words: &[String], mut index: usize) -> usize {
    while let Some(word) = words.get(index).filter(|w| w.starts_with('-')) {
        index += if global_value_flag(program, word) { 2 } else { 1 };
    }
    index
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

/// The command of a failed line that failed: its last when every one before it only prepares
/// (adds a target or a component, installs, fetches, updates an index), as `cargo build` of
/// `rustup target add x && cargo build --target x`; else its first that is not trivial, as
/// [`primary`].
pub fn failed_step(line: &str) -> Option<Invocation> {
    let steps = invocations(line);
    match steps.split_last() {
        Some((last, before)) if !before.is_empty() && before.iter().all(Invocation::prepares) => {
            Some(last.clone())
        }
        _ => steps.into_iter().next(),
    }
}

/// Every command a line runs that is not trivial, in order (`pnpm install` and `pnpm test` of
/// `cd web && pnpm install && pnpm test`).
pub fn invocations(line: &str) -> Vec<Invocation> {
    simple_commands(line).iter().filter_map(|words| invocation(words)).filter(|i| !is_trivial(i)).collect()
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

#[cfg(test)]
mod tests {
    use super::{failed_step, invocations, primary, simple_commands};

    fn operations(line: &str) -> Vec<String> {
        primary(line).unwrap().operations()
    }

    #[test]
    fn flags_are_reused_with_their_values() {
        let uses = |line: &str| primary(line).unwrap().flag_uses();
        assert_eq!(uses("cargo clippy --all-targets -- -D warnings"), ["--all-targets", "-D warnings"]);
        assert_eq!(uses("npx vitest run --reporter=dot --coverage"), ["--reporter=dot", "--coverage"]);
        assert_eq!(uses("pnpm dev --port 5173 --open"), ["--port 5173", "--open"]);
        assert_eq!(uses("pytest -x -n 4 tests/api"), ["-x", "-n 4"]);
        assert_eq!(uses("./server --threads 8 --verbose"), ["--threads 8", "--verbose"]);
        assert_eq!(uses("cargo test --release orders::"), ["--release"], "a switch takes no argument");
    }

    #[test]
    fn flags_that_pick_one_run_or_carry_free_text_give_nothing() {
        let uses = |line: &str| primary(line).unwrap().flag_uses();
        assert_eq!(uses("pytest -k test_login_redirect -q"), ["-q"]);
        assert_eq!(uses("npx jest -t 'renders the cart' --ci"), ["--ci"]);
        assert_eq!(uses("go test -run TestSync ./..."), Vec::<String>::new());
        assert_eq!(uses("pytest -m 'not slow' --tb=short"), ["--tb=short"]);
        assert_eq!(uses("cargo run --port"), Vec::<String>::new(), "a value flag without its value");
    }

    #[test]
    fn a_command_substitution_is_one_word() {
        assert_eq!(
            simple_commands("LIBCLANG_PATH=$(llvm-config --libdir) cargo build && echo `date +%s`"),
            [vec!["LIBCLANG_PATH=$(llvm-config --libdir)", "cargo", "build"], vec!["echo", "`date +%s`"],]
        );
        let nested = primary("OUT=$(dirname $(which node)) npm ci").unwrap();
        assert_eq!(
            (nested.env.as_slice(), nested.program.as_str()),
            (&["OUT=$(dirname $(which node))".to_owned()][..], "npm")
        );
    }

    #[test]
    fn operations_name_what_a_tool_is_run_for() {
        assert_eq!(operations("uv sync --locked"), ["sync"]);
        assert_eq!(operations("bin/rails db:seed"), ["db"]);
        // A tool another embeds is that tool.
        assert_eq!(
            primary("kubectl kustomize overlays/staging").map(|i| i.family()),
            Some("kustomize build".to_owned())
        );
        // The value of a global flag is not the subcommand.
        for (line, family) in [
            ("kubectl --context eks-staging -n courier get deploy api", "kubectl get"),
            ("git -C web status --short", "git status"),
            ("helm --kube-context prod -n web upgrade api ./chart", "helm upgrade"),
            ("pnpm --filter @shop/ui test", "pnpm test"),
            ("npm -w packages/api run build", "npm build"),
            ("pnpm -F web --filter admin exec vitest run src/a.test.ts", "vitest run"),
            ("yarn --cwd web exec eslint src", "eslint src"),
            // A dependency's program run through the package manager is that program.
            ("pnpm --filter web cypress run --spec cypress/e2e/cart.cy.ts", "cypress run"),
            ("pnpm turbo run build --filter=web", "turbo run"),
            ("yarn vitest run src/a.test.ts", "vitest run"),
            ("pnpm lint", "pnpm lint"),
            ("yarn typecheck", "yarn typecheck"),
        ] {
            assert_eq!(primary(line).map(|i| i.family()), Some(family.to_owned()), "{line}");
        }
        assert_eq!(operations("mix ecto.reset"), ["ecto"]);
        assert_eq!(operations("./gradlew :feature:login:compileReleaseKotlin --offline"), ["compile"]);
        assert_eq!(operations("gradle --tests '*Login*' check"), ["check"]);
        assert_eq!(operations("cmake -B out -DFOO=1"), ["configure"]);
        assert_eq!(operations("cmake --build out -j 8"), ["build"]);
        assert_eq!(operations("pnpm run lint:fix"), ["lint"]);
        assert_eq!(operations("python scripts/seed.py --fresh"), ["seed.py"]);
        assert_eq!(operations("python manage.py check --deploy"), ["manage.py check"]);
        assert_eq!(operations("kubectl --context prod apply -f k8s/"), ["apply"]);
        assert_eq!(operations("npm -w packages/api run build"), ["build"]);
        assert_eq!(operations("pnpm --filter @shop/ui test"), ["test"]);
        assert!(operations("pytest -x tests/api").is_empty());
        assert!(operations("ctest --test-dir out -R net").is_empty());
        assert!(operations("eslint src/index.ts").is_empty(), "a file is a target");
        assert_eq!(operations("python3 -c 'import ssl'"), ["inline"], "no script runs");
        assert_eq!(operations("node -e 'console.log(1)'"), ["inline"]);
    }

    #[test]
    fn the_step_that_failed_follows_the_ones_that_prepare_it() {
        for (line, family) in [
            (
                "rustup target add aarch64-unknown-linux-gnu && cargo build --target aarch64-unknown-linux-gnu",
                "cargo build",
            ),
            ("cd web && pnpm install && pnpm test", "pnpm test"),
            ("cabal update && cabal build exe:server", "cabal build"),
            ("cargo build && ./target/debug/server --check", "cargo build"),
        ] {
            assert_eq!(failed_step(line).map(|i| i.family()), Some(family.to_owned()), "{line}");
        }
    }

    #[test]
    fn version_and_help_calls_are_informational() {
        for line in ["node --version", "terraform version", "go help test", "rustc -V", "make -h"] {
            assert!(primary(line).unwrap().is_informational(), "{line}");
        }
        for line in ["go test ./...", "psql -h localhost -c 'select 1'", "npm run version-bump"] {
            assert!(!primary(line).unwrap().is_informational(), "{line}");
        }
    }

    #[test]
    fn a_tool_has_one_name_for_its_wrappers_and_versions() {
        let tools: Vec<String> =
            ["./gradlew build", "python3 -m pip install -e .", "pip3 list", "mvnw verify"]
                .iter()
                .map(|l| primary(l).unwrap().tool())
                .collect();
        assert_eq!(tools, ["gradle", "pip", "pip", "mvn"]);
        let all: Vec<String> =
            invocations("cd web && npm ci && npm test").iter().map(|i| i.family()).collect();
        assert_eq!(all, ["npm ci", "npm test"]);
    }
}
