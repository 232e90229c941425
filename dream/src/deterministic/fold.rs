//! The events of a chunk, in order, folded into the notes they change.

use std::collections::{BTreeMap, BTreeSet};

use memory_core::{EventKind, NoteKind, Scope, StoredEvent, slug};

use crate::DreamRequest;
use crate::deterministic::book::{Book, Page, Spec};
use crate::deterministic::fixes::{self, Fixes};
use crate::deterministic::purpose;
use crate::evidence::{self, FileAction, Outcome};
use crate::statements::{self, Claim, Reach, Reference, Statement, Why, filed};
use memory_core::shell::{self, Invocation};

/// Programs whose runs are file and version-control chores, not how a project is built or checked.
const CHORES: &[&str] = &[
    "git", "rm", "mv", "cp", "ln", "chmod", "chown", "kill", "pkill", "open", "code", "vim", "vi", "nano",
    "emacs", "unlink", "rmdir", "tar", "unzip", "zip", "mkdir", "touch",
];

/// The project a chunk belongs to.
#[derive(Debug, Clone)]
struct Project {
    /// How titles name it: its readable name, else its id.
    name: String,
    scope: Scope,
    folder: String,
}

/// Folds every event of the request into the book of notes.
pub(crate) fn fold<'a>(request: &'a DreamRequest, meaning: Option<&'a dyn crate::Meaning>) -> Book<'a> {
    let project = match (&request.group, request.project_folder()) {
        (Scope::Project(id), Some(folder)) => {
            let name = request.project_name.clone().unwrap_or_else(|| id.clone());
            Some(Project { name, scope: request.group.clone(), folder })
        }
        _ => None,
    };
    let mut state = Fold {
        book: Book::new(request),
        project,
        request,
        fixes: Fixes::default(),
        last_edit: BTreeMap::new(),
        asked: BTreeMap::new(),
        migrated: BTreeSet::new(),
        claims: BTreeMap::new(),
        meaning,
    };
    for stored in &request.events {
        state.event(stored);
    }
    state.book
}

struct Fold<'a> {
    book: Book<'a>,
    project: Option<Project>,
    request: &'a DreamRequest,
    fixes: Fixes,
    /// Per session, the kind and files of its last file edit, to count Cursor's twin reports of one
    /// edit (its `Write` tool and `afterFileEdit`) once.
    last_edit: BTreeMap<String, (EventKind, Vec<String>)>,
    /// What each session was last asked to work on ([`statements::what_the_work_was_for`]): what
    /// its edits were for.
    asked: BTreeMap<String, String>,
    /// Tools whose project notes already joined the user's in this chunk.
    migrated: BTreeSet<String>,
    /// The claims of the rules in the notes, by text, read once.
    claims: BTreeMap<String, Claim>,
    /// What reads a correction's pointer by meaning, when its words name no line.
    meaning: Option<&'a dyn crate::Meaning>,
}

impl Fold<'_> {
    fn event(&mut self, stored: &StoredEvent) {
        let event = &stored.event;
        let session = event.session.0.clone();
        if event.kind == EventKind::UserPromptSubmit
            && let Some(prompt) = event.prompt.as_deref()
        {
            self.asked.insert(session.clone(), statements::what_the_work_was_for(prompt).unwrap_or_default());
            // A retraction's new value, said in the sentence after it, is filed where what it took
            // back was, unless it says where it holds.
            let mut before = None;
            for statement in statements::statements(prompt) {
                before = self.statement(&statement, stored, before);
            }
        }
        if let (Some(command), Some(outcome)) = (evidence::shell_command(event), evidence::outcome(event)) {
            self.command(stored, &command, outcome);
        }
        let files = evidence::touched_files(event);
        let edited: Vec<String> =
            files.iter().filter(|(a, _)| *a == FileAction::Edited).map(|(_, p)| p.clone()).collect();
        let twin = !edited.is_empty()
            && self
                .last_edit
                .get(&session)
                .is_some_and(|(kind, paths)| *kind != event.kind && *paths == edited);
        if twin {
            self.last_edit.remove(&session);
        } else if !edited.is_empty() {
            self.last_edit.insert(session.clone(), (event.kind.clone(), edited.clone()));
        } else if !matches!(event.kind, EventKind::PreToolUse) {
            self.last_edit.remove(&session);
        }
        if !twin {
            for (action, path) in &files {
                if *action == FileAction::Edited {
                    self.fixes.edited(event, path);
                }
                if let Some(project) = self.project.clone() {
                    let item = match action {
                        FileAction::Edited => {
                            let item = format!("edited `{path}`");
                            // What the edit was for, in the words of the prompt it answered.
                            let words = self.asked.get(&session).map(|p| purpose::words(p, path));
                            let with = purpose::with_words(&item, &words.unwrap_or_default());
                            if statements::carries_secret(&with) { item } else { with }
                        }
                        FileAction::Read => format!("read `{path}`"),
                    };
                    self.book
                        .page(&project.scope, &hot_files_path(&project), || hot_files_spec(&project))
                        .observe(&item, stored);
                }
            }
        }
        if let Some(patch) = event.tool.as_ref().and_then(|t| t.patch.as_deref()) {
            let deleted = shell::patch_deleted_paths(patch);
            self.deleted(stored, &deleted);
        }
    }

    /// A statement of the user: filed in its scope, superseding what it corrects there, and
    /// retiring what it rules out from the other notes of that scope the distiller writes (the
    /// project's commands, errors and fixes, tool notes). A correction by reference ("scratch
    /// what I said about my shell, …") first retires what it points at, in the project's
    /// conventions or the profile, and is filed where that was. What a note loses stays in its
    /// history: the store keeps every version. `before` is where what the sentence before took
    /// back was, and what it took back; returns the same of this one.
    fn statement(
        &mut self,
        statement: &Statement,
        stored: &StoredEvent,
        before: Option<(Reach, Vec<String>)>,
    ) -> Option<(Reach, Vec<String>)> {
        let home = before.as_ref().map(|(reach, _)| *reach);
        let mut claim = statements::claim(&statement.text);
        let mut reach = statement.reach;
        let mut took_back = None;
        // Whether what the statement points back at was found and taken back.
        let mut referent_found = false;
        if statement.follows_retraction
            && let Some((home, taken)) = &before
        {
            if !statements::says_where(&statement.text) {
                reach = *home;
            }
            // "the gpu box I told you about is gone. the replacement is walrus, ssh walrus": what
            // the old one was reached by goes with it (`ssh tusk`).
            claim.rule_out(taken.iter().flat_map(|text| statements::other_targets(text, &statement.text)));
        }
        // "forget what I told you about the test database. we moved off that library, …": what
        // the sentence before took back is what "that" points at; nothing else is retired.
        let that_one = home.is_some()
            && statement.reference.as_ref().is_some_and(|r| {
                ["that ", "this ", "those ", "these ", "it "]
                    .iter()
                    .any(|d| r.said.trim_start().starts_with(d))
            });
        if that_one {
            reach = home.unwrap_or(reach);
        }
        if let Some(reference) = statement.reference.as_ref().filter(|_| !that_one) {
            let speaker = statements::speaker(&statement.text);
            let filed_as = filed(&statement.text);
            let (home, retired) = self.retire_referent(reference, &statement.text, speaker, filed_as, stored);
            referent_found = !retired.is_empty();
            // Found nowhere and said of nobody in particular ("not the lib I said earlier, it's
            // hedgehog now"), a correction made in a project is of the project's work.
            let of_the_work = self.project.is_some()
                && filed_as.is_some_and(|(reach, why)| reach == Reach::Project || why == Why::NoPlaceNamed);
            // Where the line it took back was decides over whose it sounds ("the team guideline
            // changed" of a rule in the user's profile corrects the profile), unless it says where
            // it holds ("company-wide", "in this repo").
            reach = if statements::says_where(&statement.text) { speaker.or(home) } else { home.or(speaker) }
                .unwrap_or(if of_the_work { Reach::Project } else { reach });
            took_back = home.map(|home| (home, retired.clone()));
            claim.rule_out(reference.names.iter().cloned());
            claim.rule_out(retired.iter().flat_map(|text| statements::shaped_values(text, &statement.text)));
            claim.rule_out(retired.iter().flat_map(|text| statements::other_targets(text, &statement.text)));
            claim.rule_out(
                retired.iter().flat_map(|text| statements::replaced_tools(reference, text, &statement.text)),
            );
            // The tools of the kind the pointer names that the agent ran, when the correction
            // names a new one of that kind: the new ones are those the agent never ran here.
            let ran = self.commands_ran();
            let named: Vec<&str> = memory_core::search::tools(&statement.text)
                .into_iter()
                .filter(|tool| !ran.iter().any(|command| memory_core::search::tools(command).contains(tool)))
                .collect();
            claim.replace_kind(&reference.words, &named);
            // "the vercel url is dead": the values the agent used that carry what it names.
            for text in ran.iter().chain(&self.fixes_found()) {
                claim.rule_out(statements::values_pointed_at(reference, text, &statement.text));
            }
        }
        if !statement.retracts_only {
            let page = self.said_page(reach, true)?;
            // A correction that says what it takes back ("the framework I named before is gone,
            // we moved to maestro") took that back above, when it found it: its new value retires
            // nothing more; when it did not, nothing it does not point at, unless both give
            // numbers.
            let pointed = |text: &str| match statement.reference.as_ref() {
                None => true,
                Some(_) if referent_found => false,
                Some(r) => statements::speaks_of(r, text) || claim.numbers_beside(text),
            };
            let superseded = page.retire(stored, |item| claim.supersedes(&item.text) && pointed(&item.text));
            page.observe(&statement.text, stored);
            claim.rule_out(
                superseded.iter().flat_map(|text| statements::shaped_values(text, &statement.text)),
            );
        }
        // What the user says holds everywhere, or of themselves, or a correction of what they
        // said so, reaches every project.
        let everywhere = reach == Reach::General
            && (statement.reference.is_some()
                || filed(&statement.text)
                    .is_some_and(|(_, why)| matches!(why, Why::SaysEverywhere | Why::AboutTheUser)));
        self.retire_ruled_out(reach, everywhere, stored, &claim);
        took_back
    }

    /// The fixes the agent found in this chunk's project, as its note holds them.
    fn fixes_found(&mut self) -> Vec<String> {
        let Some(project) = self.project.clone() else { return Vec::new() };
        self.book
            .existing(&project.scope, &errors_path(&project), || errors_spec(&project))
            .map(|page| page.texts())
            .unwrap_or_default()
    }

    /// The commands the agent ran in this chunk's project, as its note holds them.
    fn commands_ran(&mut self) -> Vec<String> {
        let Some(project) = self.project.clone() else { return Vec::new() };
        self.book
            .existing(&project.scope, &commands_path(&project), || commands_spec(&project))
            .map(|page| page.texts())
            .unwrap_or_default()
    }

    /// Retires the items a correction by reference points at: of the project's conventions and
    /// the profile, those that speak of its topic most (by words, the topics of the tools they
    /// name, and a value of the shape the correction gives). `speaker` is whose the correction
    /// says it is, `filed_as` where and why it reads as filed. Returns where they were, and their
    /// texts.
    fn retire_referent(
        &mut self,
        reference: &Reference,
        correction: &str,
        speaker: Option<Reach>,
        filed_as: Option<(Reach, Why)>,
        stored: &StoredEvent,
    ) -> (Option<Reach>, Vec<String>) {
        // What the correction points at decides; among items it points at equally, the one the
        // whole correction most resembles ("the docs tool" → the line about building the docs
        // site, not the one about doc comments, when the correction speaks of the site).
        let said = statements::topic_words(correction);
        let score = |text: &str| {
            let shaped = statements::same_shape_other_value(correction, text);
            let pointed = statements::affinity(reference, text) + 2 * usize::from(shaped);
            if pointed == 0 || (!shaped && !statements::speaks_of(reference, text)) {
                return 0;
            }
            pointed * 16 + said.intersection(&statements::topic_words(text)).count().min(15)
        };
        // Whose the correction is, when it says, decides where to look first; where nothing there
        // is what it points at, everywhere it could be, for a line that names all of its topic or
        // a tool of the kind the correction names.
        let mut scored: Vec<(Reach, String, usize)> = Vec::new();
        // The topics of the tools the correction names that it points at too ("the container
        // setup …, everything runs on podman now").
        let pointer_tools = memory_core::search::tools(&reference.said);
        let replacing: BTreeSet<String> = memory_core::search::tools(correction)
            .into_iter()
            .filter(|tool| !pointer_tools.contains(tool))
            .flat_map(statements::concept_words)
            .filter(|word| reference.words.contains(word))
            .collect();
        for only in [speaker, None] {
            let fallback = speaker.is_some() && only.is_none();
            for reach in [Reach::Project, Reach::General] {
                if only.is_none_or(|s| s == reach)
                    && let Some(page) = self.said_page(reach, false)
                {
                    scored.extend(page.texts().into_iter().map(|t| {
                        let (words, topics) = (statements::topic_words(&t), statements::concept_words(&t));
                        let named = reference.words.iter().all(|w| words.contains(w) || topics.contains(w))
                            || !replacing.is_disjoint(&topics);
                        let score = if fallback && !named { 0 } else { score(&t) };
                        (reach, t.clone(), score)
                    }));
                }
            }
            if only.is_none() || scored.iter().any(|(_, _, s)| *s > 0) {
                break;
            }
            scored.clear();
        }
        let best = scored.iter().map(|(_, _, s)| *s).max().unwrap_or(0);
        if best == 0 {
            // Read by meaning, the pointer means a line of its speaker's; said of nobody in
            // particular with what it says worded for the project ("the gpu node label you have
            // is stale — … nvidia.com/gpu.present=true now"), one of the project's, not what the
            // user said of their own things.
            let of_the_project = self.project.is_some()
                && filed_as.is_some_and(|(_, why)| {
                    matches!(why, Why::NamesAThingOfTheProject | Why::NamesTheProject)
                });
            let whose = speaker.or(of_the_project.then_some(Reach::Project));
            if let Some(whose) = whose {
                scored.retain(|(reach, _, _)| *reach == whose);
            }
        }
        let hits: Vec<(Reach, String)> = if best > 0 {
            let mut hits: Vec<(Reach, String)> = scored
                .into_iter()
                .filter(|(_, _, s)| *s == best)
                .map(|(reach, text, _)| (reach, text))
                .collect();
            // "my github handle" points at what the user said of themselves: among the lines it
            // points at equally, those ("I'm rafa-ib on github", not "chrono's timezone handling").
            let mine: Vec<(Reach, String)> =
                hits.iter().filter(|(_, text)| statements::speaks_of_oneself(text)).cloned().collect();
            if reference.said.split_whitespace().any(|w| w == "my") && !mine.is_empty() {
                hits = mine;
            }
            hits
        } else {
            // No word names a line: the one the pointer means, if one stands out, among the lines
            // of the topic it names ahead ("re logging: the library I mentioned …").
            let of_topic: Vec<&(Reach, String, usize)> =
                scored.iter().filter(|(_, text, _)| statements::of_its_topic(reference, text)).collect();
            let texts: Vec<&str> = of_topic.iter().map(|(_, text, _)| text.as_str()).collect();
            match self.meaning.and_then(|meaning| crate::meaning::meant(meaning, &reference.said, &texts)) {
                Some(at) => vec![(of_topic[at].0, of_topic[at].1.clone())],
                None => return (None, Vec::new()),
            }
        };
        // Each hit split once into what the correction takes back and the clauses it keeps.
        let splits: BTreeMap<String, (String, Option<String>)> = hits
            .iter()
            .map(|(_, text)| (text.to_lowercase(), statements::split_by_reference(reference, text)))
            .collect();
        for reach in [Reach::Project, Reach::General] {
            let texts: BTreeSet<String> =
                hits.iter().filter(|(r, _)| *r == reach).map(|(_, t)| t.to_lowercase()).collect();
            if texts.is_empty() {
                continue;
            }
            if let Some(page) = self.said_page(reach, false) {
                // A line that says other things besides keeps them ("background jobs run on
                // Sidekiq, and we lint with RuboCop" loses only the linter when that is corrected).
                page.rewrite(stored, |item| {
                    let key = item.text.to_lowercase();
                    texts
                        .contains(&key)
                        .then(|| splits.get(&key).and_then(|(_, kept)| kept.clone()))
                        .flatten()
                });
                page.retire(stored, |item| texts.contains(&item.text.to_lowercase()));
            }
        }
        let home = hits.first().map(|(reach, _)| *reach);
        let taken =
            hits.iter().filter_map(|(_, text)| splits.get(&text.to_lowercase())).map(|(t, _)| t.clone());
        (home, taken.collect())
    }

    /// The note statements of a reach are filed in: the project's conventions, or the profile;
    /// opened when it does not exist yet only if `create`.
    fn said_page(&mut self, reach: Reach, create: bool) -> Option<&mut Page> {
        let (scope, path, spec) = match (reach, &self.project) {
            (Reach::Project, Some(p)) => {
                (p.scope.clone(), format!("{}/conventions.md", p.folder), conventions_spec(p))
            }
            (Reach::Project, None) => return None,
            (Reach::General, _) => (Scope::User, "profile/preferences.md".to_owned(), preferences_spec()),
        };
        if create {
            Some(self.book.page(&scope, &path, || spec))
        } else {
            self.book.existing(&scope, &path, || spec)
        }
    }

    /// Retires what a statement rules out from the notes the distiller writes besides the
    /// statements': in the project, the commands that depend on it, the errors and fixes and the
    /// tool flags that name it, and the notes of a tool it replaces; for a statement that holds
    /// everywhere, the user's tool flags that name it too.
    /// `everywhere` when the statement holds in every project: what it rules out leaves the notes
    /// of the user's other projects too.
    fn retire_ruled_out(&mut self, reach: Reach, everywhere: bool, stored: &StoredEvent, claim: &Claim) {
        if let Some(project) = self.project.clone() {
            self.retire_in_project(&project, stored, claim);
        }
        if everywhere {
            let others: BTreeSet<(Scope, String)> = self
                .request
                .elsewhere
                .iter()
                .filter_map(|note| {
                    let folder = note.path.as_str().split('/').take(2).collect::<Vec<_>>().join("/");
                    (note.path.below_project_folder().is_some()).then(|| (note.meta.scope.clone(), folder))
                })
                .collect();
            for (scope, folder) in others {
                let name = folder.trim_start_matches("project/").to_owned();
                self.retire_in_project(&Project { name, scope, folder }, stored, claim);
            }
        }
        if reach == Reach::General {
            for path in self.paths_under(&Scope::User, "tools") {
                let tool = path["tools/".len()..].split('/').next().unwrap_or_default().to_owned();
                let label = self.tool_label(&Scope::User, &path, &tool);
                if let Some(page) =
                    self.book.existing(&Scope::User, &path, || flags_spec(None, &tool, &label))
                {
                    retire_from_tool_note(page, &tool, claim, stored);
                }
            }
        }
    }

    /// Retires what `claim` rules out from a project's notes of what the agent did: the commands
    /// that depend on it, the errors and fixes and the tool flags that name it, the notes of a
    /// tool it replaces, and files under a folder named after such a tool (`cypress/e2e/…`).
    fn retire_in_project(&mut self, project: &Project, stored: &StoredEvent, claim: &Claim) {
        // Another project's notes keep what they are; this one's are written as this chunk names it.
        let elsewhere = self.project.as_ref().is_none_or(|p| p.scope != project.scope);
        let spec_of =
            |book: &Book<'_>, path: &str, spec: fn(&Project) -> Spec| match book.note(&project.scope, path) {
                Some(note) if elsewhere => Spec::of(note),
                _ => spec(project),
            };
        let path = commands_path(project);
        let spec = spec_of(&self.book, &path, commands_spec);
        if let Some(page) = self.book.existing(&project.scope, &path, || spec) {
            page.retire(stored, |item| claim.retires_command(item.text.trim_matches('`')));
        }
        let path = errors_path(project);
        let spec = spec_of(&self.book, &path, errors_spec);
        if let Some(page) = self.book.existing(&project.scope, &path, || spec) {
            // A fix goes when what made it pass is ruled out; the command that failed may name
            // the old value without the fix depending on it.
            page.retire(stored, |item| names_ruled_out(claim, fixes::how_it_passed(&item.text)));
            // Such a fix still holds: its failing command loses the setting that names the old
            // value (`CXX=g++-12 cmake --preset dev` → `cmake --preset dev`).
            page.rewrite(stored, |item| failed_without(claim, &item.text));
        }
        let path = hot_files_path(project);
        let spec = spec_of(&self.book, &path, hot_files_spec);
        if let Some(page) = self.book.existing(&project.scope, &path, || spec) {
            page.retire(stored, |item| {
                item.text.split('`').nth(1).is_some_and(|file| {
                    let folders: Vec<&str> = file.split('/').collect();
                    folders[..folders.len().saturating_sub(1)].iter().any(|f| claim.rules_out_tool(f))
                })
            });
        }
        let folder = format!("{}/tools", project.folder);
        for path in self.paths_under(&project.scope, &folder) {
            let tool = path[folder.len() + 1..].split('/').next().unwrap_or_default().to_owned();
            let label = self.tool_label(&project.scope, &path, &tool);
            let spec = match self.book.note(&project.scope, &path) {
                Some(note) if elsewhere => Spec::of(note),
                _ => flags_spec(Some(project), &tool, &label),
            };
            let Some(page) = self.book.existing(&project.scope, &path, || spec) else {
                continue;
            };
            retire_from_tool_note(page, &tool, claim, stored);
        }
    }

    /// How a tool note's title names what its flags are passed to (`cargo test`), read from the
    /// note: what a page opened to retire some of its items keeps.
    fn tool_label(&self, scope: &Scope, path: &str, tool: &str) -> String {
        self.book.note(scope, path).map_or_else(
            || tool.to_owned(),
            |note| note.meta.title.split(" flags").next().unwrap_or(tool).to_owned(),
        )
    }

    /// The paths of the notes of a scope under a folder, current or opened in this chunk.
    fn paths_under(&self, scope: &Scope, folder: &str) -> BTreeSet<String> {
        let mut paths: BTreeSet<String> =
            self.book.notes_under(scope, folder).iter().map(|n| n.path.to_string()).collect();
        paths.extend(self.book.open_under(scope, folder));
        paths
    }

    fn command(&mut self, stored: &StoredEvent, command: &str, outcome: Outcome) {
        if let (Some(project), Some(fix)) =
            (self.project.clone(), self.fixes.command(stored, command, outcome))
        {
            let page = self.book.page(&project.scope, &errors_path(&project), || errors_spec(&project));
            page.observe(&fix.text, stored);
            page.cite_position(fix.failure_position, &fix.failure_id);
        }
        if outcome != Outcome::Succeeded {
            return;
        }
        let deleted = shell::deleted_paths(command);
        self.deleted(stored, &deleted);
        let Some(invocation) = shell::primary(command) else { return };
        if invocation.is_inspection() || is_chore(&invocation) || self.ruled_out(command) {
            return;
        }
        if let Some(project) = self.project.clone() {
            self.book
                .page(&project.scope, &commands_path(&project), || commands_spec(&project))
                .observe(&format!("`{}`", collapse_quoted(command)), stored);
        }
        self.flags(stored, &invocation);
    }

    /// Whether a rule the user gave, in the project's conventions or the profile, rules out a
    /// command the agent ran ("never npm here" and the agent ran `npm install` anyway): such a
    /// run is not a command to reuse, and its flags are not either.
    fn ruled_out(&mut self, command: &str) -> bool {
        let mut texts = Vec::new();
        for reach in [Reach::Project, Reach::General] {
            if let Some(page) = self.said_page(reach, false) {
                texts.extend(page.texts());
            }
        }
        texts.iter().any(|text| {
            let claim = self.claims.entry(text.clone()).or_insert_with(|| statements::claim(text));
            claim.retires_command(command)
        })
    }

    /// The flags of a command, credited to the program that takes them, in a note where the tool
    /// is used: the project's, or the user's once other projects use the tool too.
    fn flags(&mut self, stored: &StoredEvent, invocation: &Invocation) {
        let uses = invocation.flag_uses();
        if uses.is_empty() {
            return;
        }
        let tool = slug(&invocation.program);
        if tool == "untitled" {
            return;
        }
        let file = match &invocation.sub {
            Some(sub) => format!("{}-flags.md", slug(sub)),
            None => "flags.md".to_owned(),
        };
        let label = invocation.family();
        let project = self.project.clone();
        let shared = match &project {
            None => true,
            Some(_) => self.shared(&tool),
        };
        if shared && let Some(project) = &project {
            self.migrate(project, &tool, stored);
        }
        let (scope, path) = match (&project, shared) {
            (Some(project), false) => {
                (project.scope.clone(), format!("{}/tools/{tool}/{file}", project.folder))
            }
            _ => (Scope::User, format!("tools/{tool}/{file}")),
        };
        let in_project = if shared { None } else { project.as_ref() };
        let page = self.book.page(&scope, &path, || flags_spec(in_project, &tool, &label));
        for flag in &uses {
            page.observe(&format!("`{flag}`"), stored);
        }
    }

    /// Whether a tool is used beyond this project: another project's notes cover it, or a dream
    /// already filed it with the user's. A note the user wrote about the tool says they know it,
    /// not that other projects use it: flags seen in one project stay there, whether that note
    /// was imported before or after they were seen.
    fn shared(&self, tool: &str) -> bool {
        self.request.tools_elsewhere.contains(tool)
            || self
                .book
                .notes_under(&Scope::User, &format!("tools/{tool}"))
                .iter()
                .any(|n| !n.is_human_edited() && !is_legacy_flags(n))
            || !self.book.open_under(&Scope::User, &format!("tools/{tool}")).is_empty()
    }

    /// Moves this project's notes about a tool used across projects into the user's.
    fn migrate(&mut self, project: &Project, tool: &str, stored: &StoredEvent) {
        if !self.migrated.insert(tool.to_owned()) {
            return;
        }
        let folder = format!("{}/tools/{tool}", project.folder);
        for note in self.book.notes_under(&project.scope, &folder) {
            if note.is_human_edited() {
                continue;
            }
            let file = &note.path.as_str()[folder.len() + 1..];
            let label = note.meta.title.split(" flags").next().unwrap_or(tool).to_owned();
            self.book
                .page(&Scope::User, &format!("tools/{tool}/{file}"), || flags_spec(None, tool, &label))
                .absorb(note, stored);
            if let Some(page) = self
                .book
                .existing(&project.scope, note.path.as_str(), || flags_spec(Some(project), tool, &label))
            {
                page.remove();
            }
        }
    }

    /// Files deleted or moved away: no longer hot, and the commands that name them retire.
    fn deleted(&mut self, stored: &StoredEvent, paths: &[String]) {
        let Some(project) = self.project.clone() else { return };
        if paths.is_empty() {
            return;
        }
        let cwd = stored.event.cwd.as_deref().unwrap_or_default().trim_end_matches('/');
        let paths: Vec<String> = paths
            .iter()
            .map(|p| {
                let p = p.strip_prefix(cwd).map(|r| r.trim_start_matches('/')).unwrap_or(p);
                p.trim_start_matches("./").to_owned()
            })
            .filter(|p| !p.is_empty())
            .collect();
        let matches = |item_path: &str| {
            paths.iter().any(|p| {
                item_path == p
                    || item_path.ends_with(&format!("/{p}"))
                    || p.ends_with(&format!("/{item_path}"))
            })
        };
        if let Some(page) =
            self.book.existing(&project.scope, &hot_files_path(&project), || hot_files_spec(&project))
        {
            page.retire(stored, |item| item.text.split('`').nth(1).is_some_and(matches));
        }
        if let Some(page) =
            self.book.existing(&project.scope, &commands_path(&project), || commands_spec(&project))
        {
            page.retire(stored, |item| {
                shell::simple_commands(item.text.trim_matches('`'))
                    .concat()
                    .iter()
                    .any(|w| matches(&shell::unquote(w)))
            });
        }
    }
}

/// A tool's flags note loses what `claim` rules out: all of it when the tool itself is replaced.
fn retire_from_tool_note(page: &mut Page, tool: &str, claim: &Claim, stored: &StoredEvent) {
    if claim.rules_out_tool(tool) {
        page.remove();
        page.cite(stored);
    } else {
        page.retire(stored, |item| names_ruled_out(claim, &item.text));
    }
}

/// Whether a note records what the agent did in its project: the commands, errors and fixes,
/// hot files and tool flags the distiller writes from activity.
pub(crate) fn records_activity(path: &memory_core::NotePath) -> bool {
    path.below_project_folder().is_some_and(|inner| {
        matches!(inner, "commands.md" | "errors.md" | "hot-files.md") || inner.starts_with("tools/")
    })
}

/// Whether an item of errors and fixes or of tool flags names what a statement rules out, in one
/// of its code spans (`CXX=g++-12`, `--runner jest`), or in its words when it has none.
fn names_ruled_out(claim: &Claim, text: &str) -> bool {
    let spans: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
    if spans.is_empty() {
        claim.names_replaced(text)
    } else {
        spans.iter().any(|span| claim.names_replaced(span))
    }
}

/// A fix's text with the settings (`NAME=value`, `-Dkey=value`, `--flag=value`) that name what a
/// statement rules out dropped from the command that failed; `None` when it names none, or
/// nothing else.
fn failed_without(claim: &Claim, text: &str) -> Option<String> {
    let (command, tail) = text.strip_prefix('`')?.split_once('`')?;
    let words: Vec<&str> = command.split_whitespace().collect();
    let kept: Vec<&str> =
        words.iter().copied().filter(|w| !(w.contains('=') && claim.names_replaced(w))).collect();
    (kept.len() < words.len() && !kept.is_empty()).then(|| format!("`{}`{tail}", kept.join(" ")))
}

fn is_chore(invocation: &Invocation) -> bool {
    CHORES.contains(&invocation.program.as_str())
}

fn is_legacy_flags(note: &memory_core::Note) -> bool {
    note.meta.generator == crate::deterministic::GENERATOR
        && note.body.starts_with("Flags the user passes to")
}

/// A command with long quoted arguments shortened (`git commit -m "…"`), so runs that differ only
/// in a message count as one.
fn collapse_quoted(command: &str) -> String {
    const LONG: usize = 24;
    let mut out = String::new();
    let mut quote: Option<(char, String)> = None;
    for c in command.chars() {
        match &mut quote {
            Some((q, text)) if c == *q => {
                let q = *q;
                if text.chars().count() > LONG {
                    out.push(q);
                    out.push('…');
                    out.push(q);
                } else {
                    out.push(q);
                    out.push_str(text);
                    out.push(q);
                }
                quote = None;
            }
            Some((_, text)) => text.push(c),
            None if c == '"' || c == '\'' => quote = Some((c, String::new())),
            None => out.push(c),
        }
    }
    if let Some((q, text)) = quote {
        out.push(q);
        out.push_str(&text);
    }
    out
}

fn commands_path(project: &Project) -> String {
    format!("{}/commands.md", project.folder)
}

fn hot_files_path(project: &Project) -> String {
    format!("{}/hot-files.md", project.folder)
}

fn errors_path(project: &Project) -> String {
    format!("{}/errors.md", project.folder)
}

fn spec(title: String, description: &str, kind: NoteKind, tags: &[&str], intro: &str, ages: bool) -> Spec {
    let mut tags: Vec<String> = tags.iter().map(|t| (*t).to_owned()).collect();
    tags.sort();
    tags.dedup();
    Spec { title, description: description.to_owned(), kind, tags, intro: intro.to_owned(), ages }
}

fn preferences_spec() -> Spec {
    spec(
        "Preferences".to_owned(),
        "How the user wants things done, in their own words; follow these in every project",
        NoteKind::Preference,
        &["preferences"],
        "Preferences and rules the user stated, in their words.",
        false,
    )
}

fn conventions_spec(project: &Project) -> Spec {
    spec(
        format!("Conventions of {}", project.name),
        "Rules and facts the user stated for this project; follow them when changing it",
        NoteKind::Convention,
        &["conventions"],
        "Conventions and facts the user stated for this project, in their words.",
        false,
    )
}

fn commands_spec(project: &Project) -> Spec {
    spec(
        format!("Commands run in {}", project.name),
        "Shell commands the agent ran successfully in this project, to build, test and check it",
        NoteKind::Tool,
        &["commands"],
        "Shell commands the agent ran successfully in this project, most frequent first.",
        true,
    )
}

fn hot_files_spec(project: &Project) -> Spec {
    spec(
        format!("Hot files in {}", project.name),
        "Files of this project that are edited and read most often",
        NoteKind::Fact,
        &["files"],
        "Files edited and read most often in this project.",
        true,
    )
}

fn errors_spec(project: &Project) -> Spec {
    spec(
        format!("Errors and fixes in {}", project.name),
        "Commands that failed in this project and what made them pass",
        NoteKind::Procedure,
        &["errors"],
        "Commands that failed in this project, and what made them pass.",
        false,
    )
}

fn flags_spec(project: Option<&Project>, tool: &str, label: &str) -> Spec {
    match project {
        Some(project) => spec(
            format!("{label} flags in {}", project.name),
            &format!("Flags passed to `{label}` in the commands the agent ran in this project"),
            NoteKind::Tool,
            &[tool],
            &format!("Flags passed to `{label}` in commands the agent ran in this project, most used first."),
            true,
        ),
        None => spec(
            format!("{label} flags"),
            &format!(
                "Flags passed to `{label}` in the commands the agent ran, in every project that uses it"
            ),
            NoteKind::Tool,
            &[tool],
            &format!("Flags passed to `{label}` in commands the agent ran across projects, most used first."),
            true,
        ),
    }
}
