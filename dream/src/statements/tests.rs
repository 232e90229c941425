//! The statement reader on sentences as people type them.

use super::*;

/// Where `sentence` is filed, if it is kept.
fn kept(sentence: &str) -> Option<Reach> {
    filed(sentence).map(|(reach, _)| reach)
}

/// The one statement of `sentence`, which must point back at `topic` and give a new value.
fn points_at_with_a_new_value(sentence: &str, topic: &str) {
    let found = statements(sentence);
    assert_eq!(found.len(), 1, "{sentence:?}");
    let reference = found[0].reference.as_ref().unwrap_or_else(|| panic!("{sentence:?} points back"));
    assert_eq!(reference.words, reference::topic_words(topic), "{sentence:?}");
    assert!(!found[0].retracts_only, "{sentence:?} gives the new value");
}

fn reach(sentence: &str) -> Option<Reach> {
    let found = statements(sentence);
    assert!(found.len() <= 1, "{sentence:?} is one sentence: {found:?}");
    found.first().map(|s| s.reach)
}

#[test]
fn durable_statements_are_found_with_their_reach() {
    use Reach::{General, Project};
    let table: &[(&str, Option<Reach>)] = &[
        // Preferences, positive and negative.
        ("I like small commits with conventional commit messages.", Some(General)),
        ("I prefer small commits with clear messages.", Some(General)),
        ("i really hate it when you add emojis to commit messages", Some(General)),
        ("I'd rather have one PR per feature.", Some(General)),
        ("I want small, focused diffs.", Some(General)),
        ("I'm not a fan of deeply nested callbacks.", Some(General)),
        ("don't add comments that restate the code", Some(General)),
        ("Do not use unwrap in library code.", Some(General)),
        ("Never use unwrap in library code.", Some(General)),
        ("Avoid one-letter variable names.", Some(General)),
        ("please always run cargo fmt before committing", Some(General)),
        ("Always run cargo fmt before committing.", Some(General)),
        ("From now on, use rg instead of grep when searching.", Some(General)),
        ("Prefer early returns over nested ifs.", Some(General)),
        ("Tabs, not spaces.", Some(General)),
        ("use jest for unit tests", Some(General)),
        ("Format dates as ISO 8601.", Some(General)),
        ("Keep functions small.", Some(General)),
        ("No emojis in commit messages.", Some(General)),
        ("Stop adding TODO comments.", Some(General)),
        ("Can you always run clippy before you commit?", Some(General)),
        ("Actually, I prefer 4 spaces for indentation now.", Some(General)),
        ("actually use vitest, not jest", Some(General)),
        ("My editor is neovim with 2-space tabs.", Some(General)),
        ("I usually want a short summary at the end of each task.", Some(General)),
        ("make sure you run the linter before every commit", Some(General)),
        ("Please keep PRs under 300 lines.", Some(General)),
        ("always squash merge", Some(General)),
        ("use kebab-case for branch names", Some(General)),
        ("no console.log in committed code please", Some(General)),
        ("remember to update the changelog when you change the public api", Some(General)),
        ("never touch the migrations folder by hand", Some(General)),
        ("Error messages should be lowercase without a trailing period.", Some(General)),
        ("Commit messages in English, imperative mood.", Some(General)),
        ("I'm on a Mac, so use gsed if you need GNU sed.", Some(General)),
        ("when fixing a bug, write a failing test first, then the fix", Some(General)),
        ("for searching, use ripgrep, grep -r is way too slow on these repos", Some(General)),
        ("and next time ask me before adding any new dependency, even dev ones", Some(General)),
        ("ask me before deleting files", Some(General)),
        ("before you open a PR, run the linter", Some(General)),
        // Project wording, the team, and facts about the project.
        ("indent with tabs in this repo, not spaces", Some(Project)),
        ("please always use pnpm here, not npm", Some(Project)),
        ("in this crate errors go through thiserror, and no unwrap() outside tests", Some(Project)),
        ("In this repo always run tests with `make check`, never `npm test`", Some(Project)),
        ("In this project we use thiserror for library errors and anyhow only in binaries.", Some(Project)),
        ("We're on Node 20 and deploy to Fly.", Some(Project)),
        ("we moved to Postgres 16, ignore the 14 stuff", Some(Project)),
        ("the dev server is on 5173 now", Some(Project)),
        ("The dev server runs on localhost:3000.", Some(Project)),
        ("We don't use Redis anymore, sessions live in Postgres.", Some(Project)),
        ("We switched from yarn to pnpm last week.", Some(Project)),
        ("Our API listens on port 8080.", Some(Project)),
        ("Here, migrations are written by hand.", Some(Project)),
        ("For this app, dates are always stored in UTC.", Some(Project)),
        ("Use snake_case for file names in this codebase.", Some(Project)),
        ("We use conventional commits, so prefix every commit with feat:, fix: or chore:.", Some(Project)),
        ("Tests go in __tests__ next to the component.", Some(Project)),
        ("our CI runs on GitHub Actions", Some(Project)),
        ("heads up: the staging db is read-only", Some(Project)),
        ("btw we deploy with fly deploy, not the github action", Some(Project)),
        ("The API base url is https://api.internal.example.com now.", Some(Project)),
        ("node version is 22 now", Some(Project)),
        ("we're using tailwind for styling, no css modules", Some(Project)),
        ("we dropped python 3.8 support", Some(Project)),
        ("the main branch is called trunk in this repo", Some(Project)),
        ("for this project, use pytest fixtures instead of setUp methods", Some(Project)),
        ("this service uses uv for everything, please don't pip install anything", Some(Project)),
        ("the API base URL comes from REACT_APP_API_URL, never hardcode hosts in the code", Some(Project)),
        ("type hints on every public function please, mypy runs in CI with --strict", Some(Project)),
        ("the API moved to 8081 after the proxy change, update the README", Some(Project)),
        ("the API runs on localhost:8080 locally, can you check the users endpoint responds?", Some(Project)),
        // Requests for work, questions, one-offs, reports of trouble.
        ("fix the bug in foo.rs", None),
        ("Fix the failing test in checkout.test.ts", None),
        ("Add a test for the discount code parser.", None),
        ("can you refactor the parser into its own module", None),
        ("ok now can you fix the bug in src/cart.ts where the total is off by one?", None),
        ("Could you look at the flaky retry test?", None),
        ("What does this function return?", None),
        ("Why do you always add comments?", None),
        ("Run the tests.", None),
        ("Use the helper in utils.rs for this.", None),
        ("Push to main.", None),
        ("Just for this run, don't commit anything, I want to review the diff myself.", None),
        ("For now, skip the e2e tests.", None),
        ("This time, don't bother with the changelog.", None),
        ("Don't worry about the lint warnings.", None),
        ("No, that's not it.", None),
        ("The test always fails on CI.", None),
        ("the chart legend overlaps the axis labels, please take a look", None),
        ("We need to fix the login flow before Friday.", None),
        ("I want you to rename the module.", None),
        ("Let's try a different approach.", None),
        ("Here's the error I get.", None),
        ("error: linking with `cc` failed: exit status: 1", None),
        ("The bug is in the parser.", None),
        ("Thanks, looks good.", None),
        ("could you add logging to the retry loop", None),
        ("it works now, thanks", None),
        ("now run the tests again", None),
        ("ok that's fixed now", None),
        ("The build should be green now.", None),
        ("The modal should close on escape.", None),
        ("The function should return null when the list is empty.", None),
        ("I'm on it.", None),
        ("until the release is out, don't touch main", None),
        ("until friday, no deploys to prod please", None),
        ("for this PR only, skip the changelog entry", None),
        ("Make sure it compiles.", None),
        ("when fixing the parser, use the helper in utils.rs", None),
        // Requests that point at a habit without saying it, and a team's wishes and plans.
        ("install a new command line tool on my machine the way I usually do", None),
        ("set up the linter for this package like we always do", None),
        ("can you bump the dependencies as I normally would", None),
        ("we want to turn dark mode on for only some users without a release", None),
        ("we'd like to move the nightly job to the new scheduler", None),
        ("we're planning to split the monolith into three services", None),
        ("We're hoping to drop the legacy importer by March.", None),
        ("we like to keep migrations reversible", Some(Project)),
        ("the due date test keeps failing on my laptop, can you figure out why?", None),
    ];
    let mut wrong = Vec::new();
    for (sentence, expected) in table {
        let got = reach(sentence);
        if got != *expected {
            wrong.push(format!("{sentence:?}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{} misread:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn a_prompt_is_read_sentence_by_sentence_and_pasted_text_is_left_out() {
    let prompt = "I prefer small commits. Can you fix the flaky retry test?\n\n```\nnever do this\n```\n> always quoted\nAlso, never force-push to main.";
    let found: Vec<String> = statements(prompt).into_iter().map(|s| s.text).collect();
    assert_eq!(found, ["I prefer small commits.", "never force-push to main."]);
}

#[test]
fn project_wording() {
    for worded in
        ["use pnpm here", "in this repo we use tabs", "for this app", "this crate's errors", "Here, tabs."]
    {
        assert!(project_worded(worded), "{worded:?}");
    }
    for general in ["here's the log", "where is it", "there you go", "I like it", "paste it here is fine"] {
        assert!(!project_worded(general), "{general:?}");
    }
}

fn supersedes(new: &str, old: &str) -> bool {
    claim(new).supersedes(old)
}

#[test]
fn later_statements_supersede_what_they_correct() {
    let yes: &[(&str, &str)] = &[
        ("we moved to Postgres 16, ignore the 14 stuff", "We're on Postgres 14 for the main database."),
        (
            "we bumped rust-version to 1.80 last week, LazyLock is fine now",
            "the minimum rust version is 1.74, so don't use newer features",
        ),
        ("we raised the node-version to 22 in CI", "CI runs on node version 18."),
        ("I'm on zsh these days.", "my shell is bash, keep that in mind for snippets."),
        ("I'm on helix nowadays", "my editor is vscode"),
        ("I use ghostty now", "my terminal is alacritty"),
        ("we bumped min-sdk to 26 last week", "the min sdk is 24."),
        ("the dev server is on 5173 now", "The dev server runs on localhost:3000."),
        ("the port is 5173 now", "The dev server runs on localhost:3000."),
        ("actually use vitest, not jest", "use jest for unit tests"),
        ("We don't use Redis anymore, sessions live in Postgres.", "We use Redis for the session cache."),
        ("We switched from yarn to pnpm last week.", "We use yarn workspaces."),
        ("Actually, I prefer 4 spaces for indentation now.", "I prefer 2 spaces for indentation."),
        ("indent with tabs in this repo, not spaces", "Indent with 4 spaces here."),
        ("Always use unwrap in library code.", "Never use unwrap in library code."),
        ("we're on Node 22 now", "We're on Node 20 and deploy to Fly."),
        ("actually use vitest for unit tests", "use jest for unit tests"),
        ("the port is 3001", "the port is 3000"),
        (
            "the dev server is on 5173 now, the port changed when we dropped the custom server.",
            "the dev server runs on localhost:3000, check the cart page there",
        ),
        (
            "we bumped the MSRV to 1.82 last week, so ignore what I said before about the old one.",
            "MSRV here is 1.75, so no let-chains or other newer syntax in this crate",
        ),
        ("the API moved to 8081 after the proxy change", "the API for this dashboard runs on localhost:8080"),
        // A tool of the same kind, said by the same voice with a switch or sharing a word.
        ("I changed my editor to zed.", "my editor is vscode."),
        ("I switched my shell to zsh.", "I use bash as my shell."),
        ("we moved to pnpm.", "we use npm here."),
        ("the build uses vite now", "the build uses webpack"),
    ];
    for (new, old) in yes {
        assert!(supersedes(new, old), "{new:?} should supersede {old:?}");
    }
    let no: &[(&str, &str)] = &[
        ("we moved to Postgres 16, ignore the 14 stuff", "Node 14 is fine for the scripts."),
        ("the dev server is on 5173 now", "Our API listens on port 8080."),
        ("please always use pnpm here, not npm", "please always use pnpm here, not npm"),
        ("please always use pnpm here, not npm", "Use pnpm instead of npm."),
        ("use pnpm, not npm", "I prefer small commits."),
        ("Also run clippy before pushing.", "Run fmt before pushing."),
        ("Use Node 18 for the scripts", "Use Node 20 for the frontend"),
        ("we bumped the MSRV to 1.82", "keep functions under 40 lines"),
        ("the API moved to 8081", "the docs site builds in 2 minutes"),
        ("I'm on zsh these days.", "I use tmux all day."),
        ("I'm on zsh these days.", "my terminal is alacritty"),
        ("I'm on helix nowadays", "my shell is fish shell"),
        ("I like small commits with conventional commit messages.", "I prefer 2 spaces for indentation."),
        // A program ruled out with its subcommand rules out that command only.
        ("don't use git add . or -A, stage files by name", "I always use git switch, not git checkout."),
        ("never run cargo update by hand here", "run cargo fmt before every commit"),
        // A tool of another kind, or of the same kind said by another voice without a shared word.
        ("I'm on zsh these days.", "I use tmux all day."),
        ("we moved the cache to valkey.", "we use postgres for the main db."),
        ("we moved to pnpm.", "the docs site uses npm scripts for the search index."),
        ("I switched to zed.", "the team's editorconfig pins vscode settings."),
        ("stop using npm audit fix, it breaks the lockfile", "use npm ci in CI"),
    ];
    for (new, old) in no {
        assert!(!supersedes(new, old), "{new:?} should not supersede {old:?}");
    }
}

#[test]
fn corrections_retire_the_commands_they_rule_out() {
    let retires = |statement: &str, command: &str| claim(statement).retires_command(command);
    assert!(retires("please always use pnpm here, not npm", "npm test"));
    assert!(retires("please always use pnpm here, not npm", "cd web && npm install"));
    assert!(!retires("please always use pnpm here, not npm", "pnpm test"));
    assert!(retires(
        "In this repo always run tests with `make check`, never `npm test`",
        "npm test -- --coverage"
    ));
    assert!(!retires("In this repo always run tests with `make check`, never `npm test`", "npm install"));
    assert!(retires("the port is 5173 now", "curl localhost:8080/health"));
    assert!(retires("the dev server is on 5173 now", "pnpm dev --port 3000"));
    assert!(!retires("the dev server is on 5173 now", "curl localhost:5173/health"));
    assert!(!retires("the dev server is on 5173 now", "pnpm test"));
    assert!(retires("we moved to Postgres 16, ignore the 14 stuff", "docker run -d postgres:14"));
    assert!(retires("we moved to Postgres 16", "docker run -d postgres:14"));
    assert!(!retires("we moved to Postgres 16, ignore the 14 stuff", "node --max-old-space-size=14 x.js"));
    assert!(retires("We switched from yarn to pnpm last week.", "yarn dev --port 3000"));
    assert!(retires("the API moved to 8081 after the proxy change", "curl -s localhost:8080/api/users"));
    assert!(!retires("we moved to the new office in 2025", "curl -s localhost:8080/api/users"));
    assert!(claim("use pnpm here, not npm").rules_out_tool("npm"));
    assert!(retires("never npm here, it's pnpm", "npm install left-pad"));
    assert!(retires("no yarn in this repo please", "yarn add zod"));
    assert!(!retires("never npm here, it's pnpm", "pnpm install"));
    assert!(retires("don't use git add . or -A, stage files by name", "git add . && git commit -m x"));
    assert!(!retires("don't use git add . or -A, stage files by name", "git switch -c feat/x"));
}

fn texts(prompt: &str) -> Vec<String> {
    statements(prompt).into_iter().map(|s| s.text).collect()
}

#[test]
fn abbreviations_ellipses_and_a_lone_full_stop_do_not_end_a_sentence() {
    assert_eq!(
        texts("always use conventional commit style, e.g. feat: add x, fix: drop y."),
        ["always use conventional commit style, e.g. feat: add x, fix: drop y."]
    );
    assert_eq!(
        texts("when you log an error write it as ERR(code): ... so we can grep them later."),
        ["when you log an error write it as ERR(code): ... so we can grep them later."]
    );
    assert_eq!(
        texts("never run git add . or git add -A here, stage files by name."),
        ["never run git add . or git add -A here, stage files by name."]
    );
    assert_eq!(
        texts("prefer composition over inheritance, i.e. no deep class trees."),
        ["prefer composition over inheritance, i.e. no deep class trees."]
    );
}

#[test]
fn fillers_and_interjections_leave_the_kept_text() {
    assert_eq!(texts("Oh wait, we use pnpm in this repo."), ["we use pnpm in this repo."]);
    assert_eq!(texts("ok cool, small thing but i always want tabs."), ["i always want tabs."]);
    assert_eq!(
        texts("hey, quick note: we deploy with fly here, not heroku."),
        ["we deploy with fly here, not heroku."]
    );
}

#[test]
fn requests_for_work_after_a_statement_are_cut_off() {
    assert_eq!(
        texts("the staging db is read-only here, add a note about it to the README"),
        ["the staging db is read-only here"]
    );
    assert_eq!(
        texts("we lint with biome in this repo, run it on the changed files"),
        ["we lint with biome in this repo"]
    );
    assert_eq!(
        texts("CI is circleci here, .circleci/config.yml, add a job for the e2e suite"),
        ["CI is circleci here, .circleci/config.yml"]
    );
    // A condition's rule is not a request, and neither is how the user wants to be told.
    assert_eq!(
        texts("when fixing a bug, write a failing test first, then the fix"),
        ["when fixing a bug, write a failing test first, then the fix"]
    );
    assert_eq!(
        texts("don't run migrations yourself, just tell me the command and i'll run it"),
        ["don't run migrations yourself, just tell me the command and i'll run it"]
    );
}

#[test]
fn a_statement_after_a_request_in_one_sentence_is_found() {
    assert_eq!(
        texts("add tests for the parser, i like table-driven tests over copy-pasted ones."),
        ["i like table-driven tests over copy-pasted ones."]
    );
    assert_eq!(
        texts("set up the dev preset, we build with clang 17 here so CC=clang-17"),
        ["we build with clang 17 here so CC=clang-17"]
    );
    assert_eq!(
        texts("rename the helper, and never use abbreviations in public names"),
        ["never use abbreviations in public names"]
    );
}

#[test]
fn what_is_said_of_the_code_is_the_projects_and_what_is_said_of_the_user_is_theirs() {
    use Reach::{General, Project};
    for (sentence, expected) in [
        ("background jobs go through sidekiq, never threads.", Project),
        ("errors in the public client are typed results, not exceptions.", Project),
        ("new screens are swiftui only, no new storyboards.", Project),
        ("my terminal is kitty, so give me kitty keybindings.", General),
        ("keep your answers short, i read them on my phone.", General),
        ("when you hand me shell snippets use long flags.", General),
        ("in all my projects, commit messages follow the conventional style.", General),
        ("every commit needs a ticket id, the company enforces it.", General),
        ("i always rebase before pushing, never merge main in.", General),
        ("I'm Sam, a backend dev; I mostly write Python.", General),
        ("i'm priya and i'm a data engineer, mostly spark and scala.", General),
        ("my name is Lee, an ios developer working in swift.", General),
    ] {
        assert_eq!(reach(sentence), Some(expected), "{sentence}");
    }
}

#[test]
fn what_was_asked_is_quoted_without_the_asides_around_it() {
    for (prompt, expected) in [
        // The work stays; a joke, a story of the past or a thank-you beside it goes.
        ("let's rewrite the checkout in haskell lol. anyway, fix the cart badge", Some("fix the cart badge")),
        (
            "the export drops the last day of the month, can you find out why?",
            Some("the export drops the last day of the month, can you find out why?"),
        ),
        ("thanks, that works! now add a test for the empty cart", Some("now add a test for the empty cart")),
        (
            "at my old job we always deployed on fridays. bump the version to 2.4",
            Some("bump the version to 2.4"),
        ),
        // Nothing asked: a closing remark, however it is worded.
        ("let's just rewrite the checkout in haskell lol. anyway, it renders, good", None),
        ("perfect, thanks!", None),
        ("it works now. nice", None),
        ("looks good to me", None),
        ("at my last job we always deployed on fridays, what a mess that was.", None),
        ("back in 2019 we never wrote tests, fun times", None),
        ("the wifi password is CorrectHorse99", None),
        // What held for that session alone would mislead the next one.
        ("for today only use the staging env, prod is frozen for the release", None),
        ("just this once skip the pre-commit hooks", None),
        (
            "for now don't touch the migrations. add the refund column to orders",
            Some("add the refund column to orders"),
        ),
        // What was stated to last is memory, given with the notes, not the task.
        (
            "I prefer small focused commits. In this project we use thiserror for library errors, never \
             anyhow. Run the cargo tests and write down what you find.",
            Some("Run the cargo tests and write down what you find."),
        ),
        (
            "we deploy with helm now, not kubectl apply. bump the chart version",
            Some("bump the chart version"),
        ),
        (
            "Please always answer in British English. Could you tidy up the README intro?",
            Some("Could you tidy up the README intro?"),
        ),
        ("from now on the api lives under /v2", None),
    ] {
        assert_eq!(worth_quoting(prompt).as_deref(), expected, "{prompt}");
    }
}

#[test]
fn where_a_statement_is_filed_comes_with_why() {
    use super::{Reach, Why, filed};
    for (sentence, reach, why) in [
        (
            "in all my projects, commit messages follow the conventional style.",
            Reach::General,
            Why::SaysEverywhere,
        ),
        ("whatever the repo, I always rebase before pushing.", Reach::General, Why::SaysEverywhere),
        ("everywhere I work, tabs over spaces, always.", Reach::General, Why::SaysEverywhere),
        ("in this repo we never commit generated protobuf code.", Reach::Project, Why::NamesTheProject),
        ("this project uses pnpm, not npm.", Reach::Project, Why::NamesTheProject),
        ("here the api is versioned under /v2.", Reach::Project, Why::NamesTheProject),
        ("i prefer small focused commits.", Reach::General, Why::AboutTheUser),
        ("my terminal is kitty, so give me kitty keybindings.", Reach::General, Why::AboutTheUser),
        ("I'm Sam, a backend dev; I mostly write Python.", Reach::General, Why::AboutTheUser),
        ("background jobs go through sidekiq, never threads.", Reach::Project, Why::AboutTheCode),
        ("errors in the public client are typed results, not exceptions.", Reach::Project, Why::AboutTheCode),
        ("new screens are swiftui only, no new storyboards.", Reach::Project, Why::AboutTheCode),
        ("we deploy on tuesdays after the standup.", Reach::Project, Why::SpeaksForTheTeam),
        ("our convention is snake_case for database columns.", Reach::Project, Why::SpeaksForTheTeam),
        ("we squash every pull request before merging.", Reach::Project, Why::SpeaksForTheTeam),
        ("keep your answers short, no preamble.", Reach::General, Why::ToTheAgent),
        ("when you hand me shell snippets use long flags.", Reach::General, Why::ToTheAgent),
        ("always check with me before adding a dependency.", Reach::General, Why::ToTheAgent),
    ] {
        assert_eq!(filed(sentence), Some((reach, why)), "{sentence}");
    }
    for sentence in [
        "should we always squash before merging?",
        "just for today, don't push anything.",
        "fix the flaky test in checkout_spec.rb",
    ] {
        assert_eq!(filed(sentence), None, "{sentence}");
    }
}

#[test]
fn a_word_character_is_a_letter_digit_or_underscore_of_any_script_and_no_punctuation() {
    let word = re(r"^\w+$");
    let without_case = re(r"(?i)^\w+$");
    let words = [
        "cafe",
        "café",
        "naïve",
        "Straße",
        "łódź",
        "日本語",
        "Ελληνικά",
        "x_1",
        "v2",
        "kayak",
        "Ωμέγα",
        "år",
    ];
    for text in words {
        assert!(word.is_match(text), "{text:?} is a word");
        assert!(without_case.is_match(text), "{text:?} is a word in any case");
    }
    let others =
        ["—", "–", "’", "“", "…", "→", "⇒", "·", "×", "😂", "-", ".", "'", "`", " ", "\u{a0}", "。", "，"];
    for text in others {
        assert!(!word.is_match(text), "{text:?} is no word");
        assert!(!without_case.is_match(text), "{text:?} is no word in any case");
    }
    // In a class, a union with what the class lists besides.
    let path = re(r"^[\w./-]+$");
    assert!(path.is_match("src/über-main.rs"));
    assert!(!path.is_match("src/main.rs,"));
    let not_word = re(r"^[^\w\s]+$");
    assert!(not_word.is_match("—…!"));
    assert!(!not_word.is_match("é"));
    // An escaped backslash before a `w` is a backslash and a `w`.
    assert!(re(r"^a\\w$").is_match(r"a\w"));
    assert_eq!(word_class(r"\\w\w"), format!(r"\\w{WORD}"));
}

mod announced;
mod at_work;
mod beside_the_work;
mod by_reference;
mod everyday;
mod in_passing;
mod terse;
mod trouble;
mod untuned;
