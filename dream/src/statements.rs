//! What users state in their prompts: preferences, rules, conventions and facts, with their reach
//! (this project or everywhere), and how a later statement supersedes an earlier one.
//!
//! A sentence is a statement when it says how things are to be done or how they are, in the ways
//! people phrase that: "I like/prefer/want/hate …", "please always/never …", "don't/avoid …",
//! "we use/we're on …", "X, not Y", "use X instead of Y", conventions in the imperative ("indent
//! with tabs") or led by the project ("in this crate errors go through thiserror"), and facts with
//! a value ("the dev server runs on localhost:3000"). Questions, requests for work ("fix the bug in
//! foo.rs", "can you refactor …") and one-offs ("just for this run", "for now") are not.
//!
//! A statement reaches the project when it says so ("here", "in this repo"), speaks for the team
//! ("we", "our") or states a fact about the project; otherwise it reaches the user everywhere.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::values;
use memory_core::{search, shell};

mod mood;
mod reference;

pub(crate) use mood::{NotLasting, secret};
pub(crate) use reference::{
    Reference, affinity, concept_words, of_its_topic, other_targets, replaced_tools, same_shape_other_value,
    shaped_values, speaks_of, split_by_reference, topic_words, values_pointed_at,
};

/// Longest statement kept, in characters.
const MAX_STATEMENT_CHARS: usize = 240;
/// Sentences longer than this are pasted text, not something the user says.
const MAX_SENTENCE_CHARS: usize = 400;

/// Where a statement applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    /// The project the user was working in.
    Project,
    /// The user, in every project.
    General,
}

/// Why a statement applies where it does ([`filed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// It says it holds everywhere ("in all my projects", "always, whatever the repo").
    SaysEverywhere,
    /// It names the project or the code base ("in this repo", "here we …").
    NamesTheProject,
    /// It speaks for the team ("we deploy on Tuesdays", "our convention is …").
    SpeaksForTheTeam,
    /// It speaks of the user: who they are, what they prefer, how they work.
    AboutTheUser,
    /// It tells the agent how to work with the user ("keep answers short").
    ToTheAgent,
    /// It says how things are in the code or its tools ("the API lives under /v2").
    AboutTheCode,
    /// It names a thing only the project has: a path, a script, a make target, a variable
    /// ("never edit files under gen/ by hand", "run db:reset after pulling").
    NamesAThingOfTheProject,
    /// An instruction that names no place: the user's, wherever they work.
    NoPlaceNamed,
}

impl Why {
    /// The reason in words, for `explain`.
    pub fn says(self) -> &'static str {
        match self {
            Self::SaysEverywhere => "it says it holds in every project",
            Self::NamesTheProject => "it names this project or its code",
            Self::SpeaksForTheTeam => "it speaks for the team working on the project",
            Self::AboutTheUser => "it is about you: who you are, what you prefer, how you work",
            Self::ToTheAgent => "it tells the agent how to work with you",
            Self::NamesAThingOfTheProject => "it names a path, script or setting of this project",
            Self::AboutTheCode => "it says how things are in the project's code or tools",
            Self::NoPlaceNamed => "an instruction that names no project holds wherever you work",
        }
    }
}

/// Where what `sentence` states to last is filed, and why; `None` when it states nothing to keep
/// (a question, a one-off, a task, a story …).
pub fn filed(sentence: &str) -> Option<(Reach, Why)> {
    let sentence = sentence.trim();
    statement(sentence)?;
    classify_why(sentence).or_else(|| {
        let lower = normalize(LEAD_NOISE.replace(sentence, "").trim());
        Some(reach_why(&lower, &lower, false, false))
    })
}

/// One durable statement, in the user's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Statement {
    pub(crate) text: String,
    pub(crate) reach: Reach,
    /// What it corrects by pointing back at it ("scratch what I said about my shell, …").
    pub(crate) reference: Option<Reference>,
    /// Whether it only takes back what it points at, giving no new value.
    pub(crate) retracts_only: bool,
    /// Whether the sentence right before it took something back: it may be that thing's new value.
    pub(crate) follows_retraction: bool,
}

/// Compiles a statement pattern, its `\w` read as [`WORD`].
fn re(pattern: &str) -> Regex {
    Regex::new(&word_class(pattern)).expect("the statement patterns compile")
}

/// A word character, as the statement patterns mean `\w`: anything but whitespace, punctuation
/// and symbols (ASCII's, Latin-1's, the general punctuation, arrows and symbol blocks, CJK and
/// full-width punctuation, emoji). It differs from Unicode's `\w` on rare characters only (control
/// characters count as word characters, letter-like symbols such as `ℓ` do not), and it compiles
/// to a few byte ranges where Unicode's `\w` is some seven hundred: a hook that reads prompts
/// (where the last session left off) compiles the patterns in a few tens of milliseconds rather
/// than a fifth of a second.
///
/// The letters among those blocks' symbols (the micro, ohm, kelvin and angstrom signs) are word
/// characters, as they are for Unicode: a pattern read without case (`(?i)`) leaves out every case
/// of what the class leaves out, so leaving those out would leave out `μ`, `ω`, `k` and `å`.
const WORD: &str = r"[^\s!-/:-@\[-^`{-~\u{A1}-\u{B4}\u{B6}-\u{BF}\u{D7}\u{F7}\u{2000}-\u{2125}\u{2127}-\u{2129}\u{212C}-\u{2BFF}\u{3000}-\u{3004}\u{3008}-\u{303F}\u{FE30}-\u{FE4F}\u{FF01}-\u{FF0F}\u{1F000}-\u{1FAFF}]";

/// `pattern` with each `\w` written as [`WORD`]. Inside a class the replacement is a nested class,
/// which the class takes as a union (`[\w.-]` is a word character, a dot or a dash).
fn word_class(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() * 2);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('w') => out.push_str(WORD),
            Some(escaped) => {
                out.push('\\');
                out.push(escaped);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Discourse fillers in front of what is said ("also, ", "btw ").
static FILLER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:(?:also|and|oh|btw|by the way|fyi(?: that)?|fwiw|for what it's worth|imo|in case it matters|heads-up(?: that)?|(?:it )?turns out|note to self(?: and you)?|for future (?:reference|sessions)|(?:a )?tip for (?:future|later|next) (?:sessions?|time|reference)|ok|okay|so|one more thing|note|heads up(?: that)?|just so you know(?: that)?|for the record|quick note|reminder|hey|hi|cool|nice|good|great|sure|right|alright|anyway|anyways|tbh|honestly|plus|but|(?:one |a )?(?:small|quick|minor|little|tiny|last) (?:thing|note|nit|request|point)(?: but| though)?|(?:a )?(?:quick |friendly )?reminder of (?:the|our|a|my) (?:house |team )?(?:rules?|conventions?)(?: (?:in|for|of) (?:this|the|our) \w+| here)?|(?:the |our |one )?(?:house|team) rules?(?: (?:in|for|of) (?:this|the|our) \w+| here)?)\b[,:!]?\s+)+",
    )
});
/// Corrections in front of what is said ("no, ", "actually, ").
static CORRECTION_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:(?:no|nope|nah|wait|sorry|correction|scratch that|update|change of plan)[,:!]|actually,?)\s+)+",
    )
});
/// Everything at the head of a sentence that is not what it says: fillers, interjections and
/// correction leads ("oh wait, ", "no, actually ").
static LEAD_NOISE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:(?:(?:also|and|oh|btw|by the way|fyi(?: that)?|fwiw|for what it's worth|imo|in case it matters|heads-up(?: that)?|(?:it )?turns out|note to self(?: and you)?|for future (?:reference|sessions)|(?:a )?tip for (?:future|later|next) (?:sessions?|time|reference)|ok|okay|so|one more thing|heads up(?: that)?|just so you know(?: that)?|for the record|quick note|hey|hi|cool|nice|good|great|sure|alright|anyway|anyways|tbh|honestly|plus|but|actually|(?:one |a )?(?:small|quick|minor|little|tiny|last) (?:thing|note|nit|request|point)(?: but| though)?)\b[,:!]?|(?:no|nope|nah|wait|sorry|correction|update|right)[,:!])\s+)+",
    )
});
/// When a rule starts, at the head of it ("starting today, …", "as of this sprint, …").
static BEGINNING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:starting|as of|beginning|effective) (?:today|tomorrow|now|(?:this|next) \w+|(?:mon|tues|wednes|thurs|fri)day)|from (?:today|tomorrow|(?:this|next) \w+))(?: on(?:wards?)?)?,?\s+",
    )
});
static POLITE: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:(?:please|pls|plz|kindly)\b,?\s+)+"));
/// The project named at the head of a sentence ("in this crate, …", "here, …").
static PROJECT_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:in|for|across|throughout|within|inside) (?:this|the|our) (?:repo|repository|project|codebase|code base|crate|workspace|monorepo|package|app|application|service|module|library|lib)|here)\b,?\s+",
    )
});
static PROJECT_WORDING: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:in|for|across|throughout|within|inside|on|to|of)\ (?:the|this|our)\ (?:repo|repository|project|codebase|code\ base|crate|workspace|monorepo)\b
      | \b(?:in|for|across|throughout|within|inside|on|to|of)\ (?:this|our)\ (?:app|application|service|package|module|library|lib|code)\b
      | \bthis\ (?:repo|repository|project|codebase|crate|workspace|monorepo|app|application|service|package|library)(?:'s)?\b
      | (?:^|[^\w'])here\b(?:$|[^\w'])
    ")
});
/// "here" that points at something rather than at the project.
static HERE_POINTING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:over|right|from|click|look|come|see|paste|pasted|attached|below|output)\s+here\b|^here(?:'s| is| are)\b|\bhere(?:'s| is| are)\b",
    )
});
static TEAM_WORDING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:we|we're|we've|we'll|we'd|our|ours)\b|\b(?:the|my)\ (?:whole\ |entire\ )?team\b|\beveryone\ (?:here|on\ the\ team)\b|\b(?:bit|bitten|bites|burned|burnt|burns|cost|costs|hurt|hurts|saved|saves)\ us\b",
    )
});
/// The team as the subject of a habit in the present ("the team squashes every PR", "our devs
/// never push on Fridays", "everyone here uses conventional commits").
static TEAM_HABIT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:(?:the|our|my)\ (?:whole\ |entire\ |\w+\ )?(?:team|squad|org|company|crew|devs|developers|engineers|maintainers|reviewers)
          |everyone\ (?:here|on\ the\ team)|everybody\ (?:here|on\ the\ team)|all\ of\ us|nobody|no\ one|none\ of\ us)
        \ (?:(?:always|never|usually|generally|normally|typically|only|also|all|still)\ )*
        (?P<verb>[a-z-]+)\b
    ")
});
/// Verbs after the team that tell of a moment, a plan or a mood, not of a habit.
const NOT_TEAM_HABITS: &[&str] = &[
    "is", "was", "were", "has", "had", "needs", "need", "wants", "want", "hopes", "plans", "thinks", "think",
    "says", "said", "asked", "asks", "tells", "told", "decided", "agreed", "tried", "seems", "looks",
    "keeps", "kept", "will", "would", "should", "could", "might", "can", "must", "did", "got", "gets",
    "hates", "loves", "likes", "broke", "left", "went", "lost", "found",
];

/// Whether `rest` says how the team works, in the present.
fn team_habit(rest: &str) -> bool {
    TEAM_HABIT.captures(rest).is_some_and(|c| {
        let verb = &c["verb"];
        !NOT_TEAM_HABITS.contains(&verb) && !verb.ends_with("ed") && !trouble(rest)
    })
}
static ONE_OFF: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:just\ |only\ )?(?:for|in|during)\ (?:this|the\ current|the\ next)\ (?:run|session|task|one|pr|pull\ request|commit|change|ticket|branch|time|round|attempt|try|turn|conversation|chat|step)\b
      | \b(?:for\ now|this\ time|just\ this\ once|this\ once|for\ the\ moment|for\ the\ time\ being|right\ now|temporarily|temporary|for\ today|today|tonight|one-off|one\ off|until\ further\ notice|until\ i\ say\ otherwise|at\ the\ moment|in\ this\ run)\b
      | \b(?:this|tomorrow|tomorrow's|tonight's|today's)\ (?:morning|afternoon|evening|week|weekend|sprint|demo|release)\b
      | \bfor\ the\ next\ (?:\w+\ ){0,2}(?:minutes?|hours?|days?|weeks?|sprint)\b
      | \b(?:until|till|til)\ (?:tomorrow|tonight|later|next\ \w+|monday|tuesday|wednesday|thursday|friday|the\ (?:release|freeze|demo|deadline|weekend|end\ of\ (?:the\ )?\w+)|i'm\ back|we\ ship|it's\ fixed|it\ lands|that\ lands|that's\ merged|this\ is\ merged)\b
      | ^until\b
      | \bwhile\ (?:i'm|i\ am|we're|we\ are|she's|he's|they're|\w+\ is|\w+'s)\ (?:out|away|off|on\ (?:vacation|holiday|leave|pto|parental\ leave))\b
      | \b(?:don't|do\ not|dont|not|never)\ (?:\w+\ ){0,3}?yet\b
      | \b(?:when|once|after)\ (?:you're\ |you\ are\ |it's\ |it\ is\ |that's\ |we're\ |everything's\ )?(?:done|finished|through|green|merged)[.!]*$
      | \bfor\ me[.!]*$
    ")
});
/// A general condition at the head of a rule ("when fixing a bug, …", "for searching, …",
/// "before you open a PR, …"): what follows is a standing instruction, not a request for work.
static CONDITION_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:
            (?:when|whenever|before|after|while|once)\ \w+ing\b(?:\ (?:a|an|any|every|each|new|\w+s|[\w-]+)){0,4}
          | for\ \w+ing\b(?:\ (?:a|an|any|every|each|new|\w+s|[\w-]+)){0,3}
          | (?:when|whenever|before|after|if|once)\ (?:you|we|i)\ (?:\w+\ ){0,2}(?:a|an|any|every|each|new)\ [\w\ -]{1,40}
          | (?:when|whenever|before|after|once)\ (?:you|we|i)\ \w+\ (?:[\w-]+\ ){0,2}[\w-]+s
          | (?:when|whenever|if|once|every\ time|each\ time|any\ time)\ (?:a|an|any|every|each)\ [\w/.-]+\ [^,;:]{1,60}
          | (?:when|whenever|if|every\ time|any\ time)\ (?:you|u)\ \w+\ (?:stuff|things|anything|something|code|changes)\b[^,;:]{0,30}
          | (?:when|if|where|wherever|whenever)\ (?:(?:you're|you\ are|we're|i'm)\ )?(?:in\ doubt|unsure|not\ sure|uncertain|unclear|possible
              |practical|feasible|reasonable|in\ a\ pinch|stuck|it\ makes\ sense|it's\ ambiguous|something\ is\ ambiguous|anything\ is\ unclear)
        ),\s*
    ")
});
/// A condition on any thing of a kind ("if a migration drops a column", "whenever a PR …").
static ANY_OF_A_KIND: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:when|whenever|if|once|every time|each time|any time) (?:a|an|any|every|each) [\w/.-]+ ")
});
/// A condition with no comma before its rule ("when you leave a todo write it as …"): the rule
/// starts at the first verb of an instruction.
static CONDITION_BARE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:(?:when|whenever|every\ time|each\ time|any\ time|anytime)\ (?:you|we|i)\ \w+\ (?:[\w'-]+\ ){0,6}?|for\ \w+ing\ (?:[\w'-]+\ ){0,3}?)
        (?P<rule>give|write|use|put|add|run|tell|ask|show|keep|make|call|name|prefix|format|include|leave|mark
          |label|check|prefer|avoid|don't|do\ not|never|always|start|end|link|mention|say|list|sort|wrap|cite|stick)\b
    ")
});
/// Said to hold beyond the project ("in all my projects", "the org has a DCO check").
static EVERYWHERE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:in|across|for|on|to)\ (?:all|every|each|any)\ (?:of\ )?(?:my\ |our\ |the\ )?(?:projects?|repos?|repositories|codebases?|work)\b
      | \b(?:that'?s|this\ is|it'?s)\ (?:true|the\ case|the\ rule|how\ it\ is)\ everywhere\b
      | \beverywhere\ i\ (?:work|go|code)\b|\bwhatever\ the\ (?:project|repo)\b|\bglobally\b
      | \b(?:the|our|my)\ (?:org|organi[sz]ation|company|employer)\b|\b(?:org|company|organi[sz]ation)-wide\b
      | (?:^|[,;:(]\s*)(?:any|every|all)\ (?:of\ )?(?:my\ )?(?:projects?|repos?|repositories|codebases?)\s*(?:[:,;)]|$)
    ")
});
/// How the user wants the agent to work with them ("commands you hand me", "tell me before …").
static TO_AGENT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \byour\ (?:answers?|replies|responses|explanations|messages|summaries)\b
      | \b(?:you|u)\ (?:write|give|hand|show|tell|send|suggest|leave|generate|propose|output|produce|draft|reply|answer|explain|respond)\b
      | \b(?:tell|ask|show|give|hand|ping|warn|remind|check\ with)\ me\b|\byourself\b
    ")
});
/// A sentence about how things are in the code ("background work goes through Oban workers",
/// "errors in the public API are typed throws"): a subject, then a verb of how it is.
static DECLARATIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:the\ |our\ |all\ |every\ |each\ |any\ |new\ |most\ )?
        (?P<subject>[a-z0-9][\w./:@+\#-]*(?:\ [\w./:@+\#-]+){0,5}?)\ 
        (?:is|are|goes|go|lives|live|runs|run|uses|use|loads|load|builds|build|ships|ship|targets|target|needs
          |need|requires|require|comes|come|sits|sit|stays|stay|happens|happen|lands|land|belongs|belong|talks
          |talk|points|point|deploys|deploy|get|gets|follow|follows|contain|contains|include|includes|match|matches)
        # A folder named like a verb (`live/`, `build/`, `deploy/`) is none.
        (?:\s|$|[,;:!?]|\.(?:\s|$))
    ")
});
/// Words that cannot open the subject of a sentence about how things are.
const NOT_SUBJECTS: &[&str] = &[
    "never", "always", "please", "don't", "dont", "do", "can", "could", "would", "will", "you", "i", "we",
    "just", "also", "then", "to", "should", "must", "let's", "let", "make", "try", "pls", "only", "it",
    "this", "that", "there", "here", "what", "which", "who", "how", "why", "when", "where", "if", "so",
    "and", "but", "or",
];

/// Whether a clause says how things are in the code: a subject that names something, then a
/// verb of how it is.
fn declarative(clause: &str) -> bool {
    DECLARATIVE.captures(clause).is_some_and(|c| {
        let subject = &c["subject"];
        let first = subject.split_whitespace().next().unwrap_or_default();
        // A lone verb of work opens an imperative, not a sentence of how things are ("commit
        // messages follow …" is one).
        let lone_verb = !subject.contains(' ') && TASK_VERB.is_match(subject);
        !NOT_SUBJECTS.contains(&first) && !FACT_SUBJECT_EXCLUDED.is_match(subject) && !lone_verb
    })
}

/// How the user wants the agent to answer ("be brief", "keep your answers short", "no preamble").
static ANSWER_STYLE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:be\ (?:brief|concise|terse|direct|succinct|short|blunt)
          |keep\ (?:it|them|(?:your\ |the\ )?(?:answers?|replies|responses|explanations|messages|summaries))\ (?:short|brief|concise|tight|terse|under)
          |(?:answer|reply|respond|explain)\ (?:(?:things|everything|it\ all)\ )?(?:briefly|concisely|tersely|in\ (?:english|german|french|spanish|bullet|one|a\ few|short|(?:more\ )?detail|depth)|step\ by\ step|at\ length|like)
          |no\ (?:fluff|preamble|small\ talk|emojis|apologies|filler)
          |(?:give|show|send|hand)\ me\ (?:\w+\ ){0,3}?(?:at\ a\ time|one\ by\ one|up\ front|first))\b
    ")
});
/// A standing rule of which language to answer in, in the languages people most often write to
/// an agent in besides English: "contéstame siempre en inglés", "antworte mir immer auf
/// Englisch", "réponds-moi toujours en anglais", "responda sempre em inglês", "rispondimi sempre
/// in inglese", "always reply in German". It says always, or that it holds whatever language the
/// user writes in; once ("answer in English this time") is no rule.
static REPLY_LANGUAGE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:
            (?:contéstame|contestame|respóndeme|respondeme|escríbeme|escribeme|háblame|hablame|contesta|responde)
              (?:\ \w+){0,2}?\ siempre\ en\ (?:inglés|ingles|español|espanol|alemán|aleman|francés|frances)
          |(?:antworte|antworten\ sie|schreib|schreibe)(?:\ \w+){0,3}?\ immer\ auf\ (?:englisch|deutsch|spanisch|französisch)
          |(?:réponds|reponds|répondez|repondez|écris|ecris|écrivez|ecrivez)(?:-moi)?(?:\ \w+){0,2}?\ toujours\ en\ (?:anglais|français|francais|allemand|espagnol)
          |(?:responda|responde|escreva|fale)(?:-me)?(?:\ \w+){0,2}?\ sempre\ em\ (?:inglês|ingles|português|portugues)
          |(?:rispondimi|rispondi|scrivimi|scrivi)(?:\ \w+){0,2}?\ sempre\ in\ (?:inglese|italiano|tedesco|francese)
          |(?:always|only)\ (?:reply|answer|respond|write(?:\ back)?)(?:\ to\ me)?\ in\ (?:english|german|french|spanish|portuguese|italian|dutch)
          |(?:reply|answer|respond)(?:\ to\ me)?\ in\ (?:english|german|french|spanish|portuguese|italian|dutch)
              ,?\ (?:even|also)\ (?:if|when)
        )
    ")
});

/// Where a statement may start after a request in the same sentence ("add tests for X, i like
/// parametrized tests over copy-pasted ones").
static STATEMENT_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:and|but|also|btw|fyi|oh|plus)\s+)*(?:i|i'm|i'd|i've|we|we're|we've|we'd|our|my|never|always|don't|do not|please (?:always|never|don't)|when i say|by [\w' -]{1,20} i mean|nobody|no one|none of us|everyone|everybody)\b",
    )
});
/// "…, so" before a rule that follows from what was said first ("…, so prefer fakes").
static SO_RULE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:so|therefore|hence|which is why)\s+(?:please\s+)?(?:prefer|use|avoid|keep|stick|go with|always|never|don't|do not)\b",
    )
});
/// A clause that sets a condition for what follows.
static CONDITION_OPENER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:when|whenever|before|after|if|once|while|every time|each time|any time|for \w+ing)\b")
});
/// A clause about how the user and the agent work together ("just tell me the command and i'll run
/// it"): part of the rule it follows, not a request.
static ABOUT_US: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:me|i'll|i will|i can|i'd)\b"));
/// "the X should …" of one thing being built: a specification of work, not a rule.
static SPEC_SHOULD: LazyLock<Regex> =
    LazyLock::new(|| re(r"^the [\w.-]+(?: [\w.-]+)? (?:should|must|needs to|has to)\b"));
/// Words at the head of a clause that join it to the one before.
static JOINER: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:(?:and|so|then|also|pls|please|now|just|and then|but)\s+)+"));

/// Words that tie a condition to one piece of work rather than to every time it happens.
static CONDITION_SPECIFIC: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:the|this|that|these|those|it|its|my|our|your)\b"));
/// A request tacked onto a statement ("…, can you check the users endpoint?").
static TRAILING_REQUEST: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i),\s*(?:and\s+|so\s+)?(?:can|could|would|will)\s+(?:you|u)\b[^,]*\?\s*$"));
static WH_QUESTION: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:how|what|why|which|who|whose|any idea)\b|^(?:where|when)\b.*\?$"));
static QUESTION_START: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:is|are|was|were|does|did|can|could|would|will|should|shall|have|has|do you|do we|do i)\b")
});
static ADDS: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:also|too|as well|in addition|additionally)\b"));
/// Words right after a verb that make it an action, not a convention ("push to main").
const PREPOSITIONS: &[&str] =
    &["to", "into", "onto", "on", "in", "at", "for", "with", "and", "from", "up", "down", "over"];
static REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:can|could|would|will|wanna) (?:you|u)\b|(?:i need|i want|i'd like|i would like|i'd love) (?:you|u) to\b|let'?s\b|let us\b|go ahead\b|help me\b|try\b|time to\b|next,? |now,? |first,? |then,? )",
    )
});
static DISMISSIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:don't|do not|dont|never) (?:worry|mind|know|think|get|see|understand|care)\b|^(?:don't|do not|dont|never) bother(?:\s*[,.!;]|\s*$|\s+(?:i|we|it|that|this|i'll|we'll)\b)|^no (?:worries|problem|need|thanks|idea|luck|way|matter|rush|that|it|this|wait|i|you|we|not|more questions)\b|^never ?mind\b",
    )
});
static HABIT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:from\ now\ on|going\ forward|moving\ forward|in\ (?:the\ )?future|(?:the\ )?next\ time|every\ time\ you|each\ time\ you|whenever\ you|by\ default|as\ a\ rule|at\ all\ times|under\ no\ circumstances|no\ matter\ what|as\ a\ habit|in\ general|make\ (?:it\ )?a\ (?:habit|point|rule)\ (?:to|of)|get\ in(?:to)?\ the\ habit\ of)\b
      | ^(?:ask|check\ with|ping|tell)\ me\ (?:before|first|when|whenever|if)\b
      | ^(?:ask|check)\ (?:first\ )?before\ \w+ing\b
      | ^(?:show|warn|remind)\ me\ (?:\w+\ ){0,3}?(?:before|first|whenever|every\ time|each\ time)\b
      | (?:^|[,;:(]\s*|\b(?:you|we|i|please|to|and|but|then|should|must|so|also|just|really)\s+)(?:always|never)\b
      | \b(?:i|we)\ (?:usually|generally|normally|typically|mostly|mainly|tend\ to|always|never)\b
      | ^(?:make|be)\ sure\b.*\b(?:before|after|whenever|every|each)\b
      | ^(?:when|once|after|whenever)\ (?:you're|you\ are|you've|you\ have)\ (?:done|finished|through)\s*[,:]
      | \b(?:before|after)\ (?:you\ )?(?:tell|telling|show|showing|hand|handing)\ me\b|\bat\ the\ end\ of\ (?:each|every|a)\ (?:task|session|change)\b
      | ^let\ me\ (?:review|see|check|approve|look\ at|sign\ off\ on|okay|ok)\ (?:any|every|all|each)\b
    ")
});
/// Fillers that announce a fact ("heads up: the staging db is read-only").
static ANNOUNCED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:heads[ -]up|fyi|note|just so you know|for the record|for your information|(?:a )?(?:quick |friendly )?reminder(?: of (?:the|our|a|my) (?:house |team )?(?:rules?|conventions?)(?: (?:in|for|of) (?:this|the|our) \w+| here)?)?|(?:the |our |a |one )?(?:house|team) rules?(?: (?:in|for|of) (?:this|the|our) \w+| here)?|note to self(?: and you)?|for future (?:reference|sessions)|(?:a )?tip for (?:future|later|next) (?:sessions?|time|reference))\b[,:!]?\s+",
    )
});
/// Where things go ("tests go in __tests__ next to the component", "logs go to stderr").
static PLACEMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:the |all |our )?[\w./-]+(?: [\w./-]+){0,2} (?:(?:go|goes|belong|belongs|live|lives|sit|sits|are kept|is kept|are stored|is stored) (?:in|under|into|inside|next to|beside|alongside|with)|(?:go|goes|belong|belongs) to)\b",
    )
});
/// What a kind of thing needs or may go without, as a rule: "docs-only changes don't need a
/// version bump", "design reviews are required for any new public endpoint", "hotfixes need two
/// approvals", "native changes still need a store build".
static POLICY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:all\ |any\ |new\ |every\ )?(?:[\w-]+\ ){0,3}?[\w-]+s
         \ (?:still\ |also\ |now\ |always\ )?
         (?:(?:don't|do\ not)\ (?:need|require)|need|require|must(?:\ not)?|are\ (?:not\ )?required|aren't\ required
           |are\ (?:mandatory|optional|exempt))
         \ (?P<what>\S+)
    ")
});

/// Whether `rest` is a rule of what a kind of thing needs ([`POLICY`]), not a task on things at
/// hand ("the tests need fixing", "these files need a rewrite") nor someone's own ("my eyes need a
/// break").
fn policy(rest: &str) -> bool {
    let first_clause = rest.split([',', ';']).next().unwrap_or(rest);
    POLICY.captures(first_clause).is_some_and(|c| {
        !c["what"].ends_with("ing")
            && !first_clause.starts_with("the ")
            && !matches!(
                first_clause.split_whitespace().next(),
                Some(
                    "things"
                        | "stuff"
                        | "people"
                        | "folks"
                        | "guys"
                        | "eyes"
                        | "nerves"
                        | "hands"
                        | "my"
                        | "your"
                        | "his"
                        | "her"
                        | "their"
                )
            )
            && !specific(first_clause)
            && !trouble(rest)
    })
}

/// A choice of style said without a verb, with what it holds for: "two spaces for YAML", "single
/// quotes in the JS files", "snake_case for database columns", "British spelling in the docs",
/// "one component per file".
static STYLE_CHOICE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:[\w'-]+\ ){0,2}?
         (?:spaces|tabs|quotes|semicolons|commas|braces|brackets|parens|parentheses|[a-z]+[_-]case|camelcase|pascalcase
           |(?:snake|camel|kebab|pascal|title|sentence|lower|upper)\ case|spelling|indentation|line\ endings|commits
           |commit\ messages|imports|exports|naming|dates|timestamps|emojis|headings|docstrings|type\ hints|annotations)
         \ (?:for|in|on|across|throughout|inside|within|everywhere)\b
      | ^one\ [\w-]+(?:\ [\w-]+)?\ per\ [\w-]+
    ")
});
/// A change the user or the team made that holds from now on: "I upgraded to Ubuntu 24.04", "we
/// moved to pnpm", "I changed my editor to zed".
static CHANGED_TO: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:i|we)(?:'ve|\ have)?\ (?:just\ |recently\ |finally\ |since\ |now\ |fully\ )?
         (?:switched|moved|migrated|upgraded|changed|converted|transitioned)
         (?:\ (?:my|our)\ [\w-]+(?:\ [\w-]+)?)?\ (?:over\ |everything\ |all\ )?to\b
    ")
});
/// Where in the work one goes, not what one works with: "I switched to the other branch".
static WORK_POSITION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bto (?:the |a |an |my |our |this |that )?(?:other |next |previous |another |new |different |old |last |first )?(?:branch|file|ticket|task|step|tab|window|page|section|line|folder|directory|commit|issue|pr|worktree|terminal|screen|function|test|story|meeting|call|room)s?\b",
    )
});
/// A finite verb: a clause with one is not a choice said without a verb ("dates in the report
/// look off").
static FINITE_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:is|are|was|were|be|been|look|looks|looked|seem|seems|seemed|break|breaks|broke|fail|fails|failed|show|shows|showed|have|has|had|need|needs|get|gets|got|went|came|keep|keeps|kept|do|does|did|don't|doesn't|didn't|can|could|should|would|will|won't|might|must)\b",
    )
});

/// A choice of style said without a verb ([`STYLE_CHOICE`]).
fn style_choice(rest: &str) -> bool {
    let first_clause = rest.split([',', ';']).next().unwrap_or(rest);
    // A condition it holds under has verbs of its own ("one assertion per test where you can").
    let choice = WHEN_CLAUSE.split(first_clause).next().unwrap_or(first_clause);
    STYLE_CHOICE.is_match(rest) && !FINITE_VERB.is_match(choice) && !specific(first_clause)
}

/// How a thing goes amiss: "calls the api way too often", "reads the config twice".
static AMISS: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:too|twice|again|wrong|wrongly|weird|broken|randomly|sometimes|instead)\b"));
/// Where the condition of a habit starts.
static HABIT_CONDITION: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:before|after|when|whenever|once|until|unless)\b"));
/// Where a condition starts inside a clause.
static WHEN_CLAUSE: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:where|when|if|unless|wherever|whenever|as long as)\b"));
/// A rule said of things ("error messages should be lowercase").
static SHOULD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:the |all |our |every |each )?(?P<subject>[\w./-]+(?: [\w./-]+){0,3}?) (?:(?:should|must|need to|needs to|have to|has to|shall)(?: always| never| not| only)? (?:be|go|use|live|start|end|follow|have|stay|include|contain|match|come|get|run|say|tell|explain|show|mention|list|link|fit|carry|return|log|print|describe|name|read|state|point)|(?:should|must|shall)(?: always| never| not|n't) [a-z]+)\b",
    )
});
/// How a thing of the project fails unless something is done ("the build breaks if you don't run
/// codegen first", "the e2e suite hangs without a running emulator"): a fact of the project.
static QUIRK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:the |our |a |any )?[\w./@-]+(?: [\w./@-]+){0,3} (?:breaks|fails|hangs|crashes|times out|errors out|won't (?:start|build|run|compile|pass)|doesn't (?:start|build|run|compile|pass)) (?:\w+ )?(?:if (?:you|we|i) (?:don't|do not|forget|skip)|unless|without|(?:if|when|whenever) (?:the |a |an |your |our )?(?:[\w./@-]+ ){1,4}(?:is|are|isn't|aren't|gets|get) (?:missing|not set|unset|down|not running|stale|empty|expired|full|out of date))\b",
    )
});
/// Who owns or looks after a part of the project ("Sarah owns the billing module").
static OWNS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^[a-z][\w'-]*(?: [a-z][\w'-]*)? (?:owns|maintains|looks after|is responsible for|is the owner of) (?:the |our )?[\w./-]+",
    )
});
/// A habit of every thing of a kind ("every PR gets a changelog entry", "each service has its
/// own Dockerfile", "all endpoints return JSON").
static QUANTIFIED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:every|each|all|any) (?P<subject>[\w./-]+(?: [\w./-]+){0,4}?) (?:gets|get|has|have|needs|need|goes|go|lives|live|returns|return|uses|use|runs|run|takes|take|requires|require|carries|carry|ships|ship|starts|start|ends|end|follows|follow|includes|include|belongs|belong)\b",
    )
});
/// What users say of where they work ("I'm on a Mac").
static PERSONAL_SETUP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:i'?m (?:on|using|running|in|based in|located in|living in|working from)|i (?:work|develop|code|program) (?:on|from)) (?:a |an )?(?P<what>\w+)",
    )
});
/// Where a user says they are that says nothing lasting ("I'm in a hurry").
const PASSING_STATES: &[&str] = &[
    "it", "this", "that", "the", "my", "your", "hurry", "rush", "meeting", "middle", "call", "class",
    "train", "transit", "car", "bed", "office", "charge",
];
static PREFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \bi(?:'d|\ would|'m|\ am)?\ (?:(?:really|strongly|generally|usually|much|always|mostly|definitely|do|also|personally|still|just|absolutely|kind\ of|kinda)\ )*
          (?:like|love|prefer|want|hate|dislike|detest|loathe|enjoy|can't\ stand|cannot\ stand|don't\ like|do\ not\ like|don't\ want|do\ not\ want|rather|favou?r|use|used\ to|care\ (?:a\ lot\ |deeply\ |a\ great\ deal\ |most\ |more\ )?about|expect)\b
      | \bmy\ (?:preference|rule|convention|style|default|habit)\b
      | \bi'?m\ (?:not\ )?(?:a\ )?(?:big\ |huge\ )?fan\ of\b
      | \bi'?m\ not\ into\b
    ")
});
/// "I always …", "I never …": a habit of the user's own.
static HABIT_OF_MINE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\bi (?:always|never|usually|generally|normally|typically|mostly|mainly|tend to)\b")
});
/// A rule's reason that is the speaker's own ("since I'm colorblind", "…, I read git log all
/// day"), or a rule of what is made for them ("anything you build for me"): about the user.
static SPEAKER_REASON: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:since|because|cause|'cause|cuz|coz|as)\ i(?:'m|\ am|'ve|\ have|\ can't|\ cannot|\ don't|\ do\ not)\b
      | [,;(]\s*i(?:'m|\ am|\ read|\ live|\ work|\ review|\ skim|\ scan|\ look\ at|\ use)\b
      | \b(?:you|u)\ [a-z]+\b[^.;:]{0,30}\bfor\ me\b
    ")
});
/// A rule said without its verb: "commit subjects max 50 chars", "PRs always as drafts",
/// "function names never abbreviated": things of a kind (a plural), then how they always are.
static VERBLESS_RULE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?P<head>(?:[\w./-]+\ ){0,2}[\w./-]+)
        \ (?:always|never|only|max|maximum|at\ most|no\ more\ than|no\ longer\ than|capped\ at|limited\ to
          |(?:wrapped|capped|kept|sorted|named|prefixed|suffixed|written|squashed|signed|reviewed)\ (?:at|by|in|with|as|under|to)\b)
        \ (?:as\ |in\ |with\ |on\ |under\ )?(?P<next>[\w\d`<>-]+)
    ")
});

/// Which thing goes where, said without a verb, clause by clause: "nextest for everything here,
/// plain cargo test only for the doctests", "error types: thiserror enums in the library
/// modules, anyhow only in main.rs", "black for python, prettier only for the web bits".
fn by_place(rest: &str) -> bool {
    static LABEL: LazyLock<Regex> = LazyLock::new(|| re(r"^[a-z][\w -]{1,30}:\s+"));
    static ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?x)
            ^(?P<what>(?:[\w`.:/+<>-]+\ ){0,3}?[\w`.:/+<>-]+)
            \ (?P<only>only\ |just\ |always\ )?(?:for|in|on|inside|under)\ (?P<place>\S.*)$
        ")
    });
    let body = LABEL.replace(rest, "");
    let clauses: Vec<&str> =
        body.split(", ").map(|c| c.trim().trim_end_matches(['.', '!'])).filter(|c| !c.is_empty()).collect();
    let assigned: Vec<regex::Captures<'_>> = clauses.iter().filter_map(|c| ASSIGNED.captures(c)).collect();
    let thing = |what: &str| {
        let first = what.split(' ').next().unwrap_or(what);
        !TASK_VERB.is_match(what) && !bare_imperative(what) && !NOT_THINGS.contains(&first)
    };
    assigned.len() >= 2
        && assigned.len() == clauses.len()
        && assigned.iter().all(|c| thing(&c["what"]))
        // Of the work: a tool or a thing of code is named.
        && assigned.iter().any(|c| {
            let what = &c["what"];
            !search::tools(what).is_empty() || !search::concepts(what).is_empty() || VALUE.is_match(what)
        })
        && assigned.iter().any(|c| {
            c.name("only").is_some() || c["place"].starts_with("everything") || c["place"].starts_with("all ")
        })
        && !trouble(rest)
}

/// Words that open a sentence but name no thing: pronouns and pointers.
const NOT_THINGS: &[&str] = &[
    "i", "me", "we", "you", "they", "it", "he", "she", "this", "that", "these", "those", "there", "here",
    "my", "our",
];

/// Whether a sentence is a rule said without its verb ([`VERBLESS_RULE`]).
fn verbless_rule(rest: &str) -> bool {
    VERBLESS_RULE.captures(rest).is_some_and(|c| {
        let head = &c["head"];
        let noun = head.rsplit(' ').next().unwrap_or(head);
        let first = head.split(' ').next().unwrap_or(head);
        // "builds always fail on arm": how things go wrong, not how they are to be.
        let going_wrong = matches!(
            &c["next"],
            "fail" | "break" | "crash" | "hang" | "flake" | "die" | "time" | "timeout" | "explode" | "error"
        );
        // A verb ("the file is written …") is no plural.
        let verb = head.split(' ').any(|w| matches!(w, "is" | "was" | "has" | "does" | "gets" | "goes"));
        noun.ends_with('s') && !noun.ends_with("ss") && !NOT_THINGS.contains(&first) && !going_wrong && !verb
    }) && !trouble(rest)
}
/// A user introducing themselves ("I'm Sam, a backend dev").
static INTRODUCTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:i'?m|i am|my name is|me,?) [a-z][\w'-]*,? (?:and i'?m |i'?m )?(?:a|an|the) (?:[\w+#/-]+ ){0,3}(?:dev|developer|engineer|designer|sre|scientist|student|lead|manager|admin|architect|programmer|maintainer|founder|consultant)s?\b|^(?:i'?m|i am) (?:(?:more|kind|sort) of |very much |really )?(?:a|an) (?:[\w-]+ ){0,3}(?:learner|reader|thinker|typist|speaker|person|user|type)\b|^(?:i'?m|i am) (?:a|an|the) (?:[\w+#/-]+ ){0,3}(?:dev|developer|engineer|designer|sre|scientist|analyst|student|lead|manager|admin|architect|programmer|maintainer|founder|consultant|contractor|freelancer|intern|owner|cto)s?\b|^(?:i'?m|i am) (?:(?:fairly|pretty|quite|very|still|relatively|completely|totally) )?(?:new to|a beginner (?:in|with|at)|comfortable with|fluent in|experienced (?:in|with)|rusty (?:in|with|at)|not familiar with|unfamiliar with|an expert in|proficient in)\b",
    )
});
/// A preference verb that asks for work instead ("I want you to …", "I'd like to see …").
static PREFERENCE_ASKS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bi(?:'d| would)? (?:(?:really|just|also) )*(?:want|like|love|need|prefer) (?:you|u|to|it|them|this|that)\b",
    )
});
static NEGATIVE_START: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:don't|do not|dont|never|avoid|no more|refrain from|stop \w+ing|quit \w+ing|no \w+)\b")
});
/// A feeling about how a thing is ("I hate that the build takes forever", "I love how the API
/// reads"): a mood of the moment, not how the user wants things done ("I hate it when you …").
static FEELING_ABOUT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bi (?:really |just |so |kinda |kind of )?(?:hate|love|like|dislike|adore|enjoy|can't stand|cannot stand) (?:that|how) (?:the|our|this|these|those|it|it's|its|they|we|every|all|[\w.-]+ (?:is|are|was|were|keeps|always|never|still))\b",
    )
});
/// A habit of things said in the passive ("errors get wrapped with context", "migrations are
/// generated with alembic", "releases are always cut from main").
static PASSIVE_HABIT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?P<quantifier>(?:the|all|our|every|each|any|new) )?(?P<subject>[a-z][\w./-]*(?: [\w./-]+){0,3}?) (?P<verb>get|gets|are|is) (?P<adverb>(?:always|never|usually|only|automatically|normally|generally) )?(?:[a-z]+(?:ed|en|wn|lt|nt)|cut|put|set|run|kept|made|read|sent|held|split|spun|bound|found|done|shut) (?:with|by|using|via|through|in|into|as|before|after|on|from|to|per|at|under|against)\b",
    )
});
/// A fact announced as one ("fyi the test database resets every night"): what follows the
/// announcement says how a thing is, in the present.
static ANNOUNCED_FACT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:the|our|my|all|every|each) (?:[\w./:@-]+ ){0,4}?(?:always |never |only |still )?[a-z]+s\b")
});
/// A rule said to the agent with a modal ("you must not push to main", "you need to run codegen
/// after editing the protos"): a prohibition, or an obligation tied to when it holds.
static YOU_RULE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:you|u)\ (?:
            (?P<prohibition>must\ not|mustn't|should\ not|shouldn't|cannot|can't|can\ not|may\ not|are\ not\ allowed\ to
              |aren't\ allowed\ to|are\ not\ supposed\ to|aren't\ supposed\ to|'re\ not\ supposed\ to|are\ never\ to)
          | (?P<obligation>must|should|need\ to|have\ to|are\ supposed\ to|'re\ supposed\ to|ought\ to|always\ need\ to|always\ have\ to))
        \ (?:always\ |ever\ |first\ |also\ )?(?P<verb>[a-z-]+)\b
    ")
});
/// When an obligation holds: every time a kind of thing happens.
static WHEN_IT_HOLDS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:(?:after|before|when|whenever|while|once|each\ time|every\ time)\ (?:\w+ing|you|we|a|an|any|every|each)|unless|every\ time|each\ time)\b",
    )
});

/// Whether `rest` is a rule said to the agent with a modal.
fn you_rule(rest: &str) -> bool {
    YOU_RULE.captures(rest).is_some_and(|c| {
        let verb = &c["verb"];
        let first_clause = rest.split([',', ';']).next().unwrap_or(rest);
        let thinking =
            matches!(verb, "be" | "see" | "believe" | "imagine" | "know" | "tell" | "guess" | "feel");
        !thinking
            && !specific(first_clause)
            && !trouble(rest)
            && (c.name("prohibition").is_some() || WHEN_IT_HOLDS.is_match(rest))
    })
}

/// What the user says of themselves ("my editor is neovim").
static PERSONAL_FACT: LazyLock<Regex> = LazyLock::new(|| re(r"^my (?:\w+ ){0,2}?(?:is|are|uses|runs)\b"));
/// Whether `rest` says the speaker's way with things of theirs ([`MY_WAY`]), not a slip of the
/// moment ("i put my keys in the wrong place again").
fn my_way(rest: &str) -> bool {
    MY_WAY.is_match(rest) && !trouble(rest) && !rest.split_whitespace().any(|w| w.starts_with("again"))
}
/// How the speaker names, marks or keeps things of a kind of theirs ("i name mine sunniva/<topic>",
/// "I prefix my commits with the ticket id", "i keep all my dotfiles in ~/dots"): their way.
static MY_WAY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^i\ (?:name|call|prefix|suffix|tag|label|title|sign|keep|put|store|number|version|format)
        \ (?:mine|them\ all|all\ (?:of\ )?(?:mine|my\ [\w-]+s)|my\ (?:[\w-]+\ )?[\w-]+s)\b
        \ (?:[\w-]+\ ){0,3}?(?:\S*[/<`~_\d]\S*|after|with|like|as|in|under|by)\b?
    ")
});
static CONTRAST: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:instead of|rather than)\b|, (?:and )?(?:not|never|no) \S|\bnot \S+,? but\b"));
/// "No" in an idiom, which rules nothing out ("…, no idea why", "…, no rush").
static NO_IDIOM: LazyLock<Regex> = LazyLock::new(|| {
    re(r",\s+no\s+(?:idea|clue|worries|problem|rush|luck|biggie|pressure|hurry|kidding|joke)\b")
});
static CORRECTION: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:moved\ to|moving\ to|switched\ to|switch\ to|switched\ from|switching\ to|migrated\ to|migrating\ to|changed\ to|upgraded\ to|downgraded\ to|went\ to|replaced\ \S+\ with|no\ longer|any\ ?more|is\ now|are\ now|now\ (?:uses?|runs?|lives?|is|are|on|at|in|points)|ignore\ (?:the|all\ the|any)|forget\ (?:about\ )?the|(?:is|are)\ deprecated)\b
      | \b(?:bumped|raised|lowered|increased|decreased|upped)\ (?:\S+\ ){0,2}to\b
      | \b(?:upgraded|downgraded|migrated)\ (?:the\ |our\ |my\ )?(?:\S+\ ){1,2}?to\b
      | \bignore\ what\ (?:i|we)\ said\b
      | \b(?:has|have|had)?\ ?changed\ (?:when|after|because|since|to|from)\b
      | \bnow(?:[.!]*$|\s*[,;:])
      | \b(?:these\ days|nowadays)\b
    ")
});
/// A habit named without being said: "the way I usually do", "like we always do it", "as I
/// normally would".
static HABIT_BY_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:the (?:way|same way)|like|as|how) (?:i|we) (?:usually|generally|normally|typically|always|tend to)(?: (?:do|did|does|have|set|would|handle|go about))?(?: (?:it|them|things|this|that))?\b",
    )
});
/// Whether a text says a habit ("i always …", "from now on …"), not only points at one.
fn says_habit(text: &str) -> bool {
    HABIT.is_match(&HABIT_BY_REFERENCE.replace_all(text, ""))
}

static TEAM_START: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:we|we're|we are|we've|we have|we'd|our|ours)\b"));
static TEAM_TASK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:we|we're|we are|we've|we'd) (?:need|needs|should|must|have to|'ll|will|can|could|might|got|had|did|tried|saw|found|broke|lost|were|was|just|still need|are going to|'re going to|gotta|want|wanna|would like|would love|hope|plan|intend|aim|(?:are )?(?:hoping|planning|trying|looking|aiming|thinking))\b|^we'd (?:like|love)\b|^(?:we're|we are) (?:adding|building|fixing|implementing|refactoring|rewriting|shipping|launching|introducing|working on|about to|in the middle of|starting on|wiring|debugging|chasing)\b",
    )
});
/// Words that make what is said of one thing hold of all of its kind.
static QUANTIFIER: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:every|each|all|always|never|any|whenever)\b"));
/// One thing at hand that needs something ("the /v2/forecast response needs a timestamp"): the
/// work, not a rule of things of its kind ("every response needs a request id").
static THING_NEEDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"^the [\w./:-]+(?: [\w./:-]+){0,3}? needs (?:a|an|another|some|more|its|to be)\b"));
/// How a piece of work stands ("pr 88 is approved", "the build is green again"): news of the
/// moment, not how things are.
static WORK_STATUS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:the\ |my\ |our\ |this\ |that\ )?(?:prs?|mrs?|pull\ requests?|merge\ requests?|tickets?|builds?|pipelines?|ci|checks|deploys?|deployments?|releases?|branch(?:es)?|jobs?|runs?|tests?|suite)
        (?:\ [\w\#./-]+){0,2}\ (?:is|are|was|were|got|has\ been|have\ been)\ (?:now\ |finally\ |all\ |still\ )?
        (?:approved|merged|green|red|done|ready|passing|failing|broken|open|closed|blocked|deployed|live|out|in|through|up|reverted|rejected)\b
    ")
});
/// Signs that a sentence reports trouble rather than states how things are.
static TROUBLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:bugs?|problems?|issues?|crash(?:es|ed)?|regressions?|broken|broke|failing|fails|failed|flaky|typos?|wrong|weird|slow|stuck|hangs?|erroring|[45]\d\d(?:ing|s)|needs?\ more|takes?\ (?:forever|ages)|(?:is|are|went|turned|still|all|goes|go)\ red)\b",
    )
});
/// An issue as a ticket ("the linear issue id", "github issues", "issue numbers"), not trouble.
static TICKET: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:(?:github|gitlab|linear|jira|youtrack)\s+issues?|issues?\s+(?:ids?|numbers?|keys?|tracker|templates?|links?|titles?|labels?|refs?))\b",
    )
});

/// Whether a text reports trouble ([`TROUBLE`]), an issue as a ticket aside.
fn trouble(text: &str) -> bool {
    TROUBLE.is_match(&TICKET.replace_all(text, "ticket"))
}

static REMEMBER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:remember|keep in mind|note|bear in mind|never forget|(?:you can |you may |please )?assume)\b(?: that| to|:)?",
    )
});
static FACT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:the |our |my |every |each |all |any |new )?(?P<subject>[a-z0-9][\w./:@-]*(?: [\w./:@-]+){0,5}?) (?:is|are|has|have|runs|run|lives|live|sits|listens|uses|use|points|talks|deploys|deploy|goes|go|stays|stay|loads|load|builds|build|ships|ship|targets|target|needs|need|requires|require|expects|expect|accepts|accept|returns|return|serves|serve|speaks|speak|reads|read|writes|write|sends|send|calls|call|pulls|pull|takes|take|owns|own|maintains|maintain|follows|follow|is still|now runs|now lives|is called|are called|is named|are named|comes from|come from|(?:starts?|begins?|ends?) with|references?|mentions?|carr(?:y|ies)|(?:gets?|takes?|pulls?|loads?|reads?) (?:their|its|our|the) [\w-]+ (?:from|via|through|out of)|is read from|are read from|is set in|are set in|moved to|has moved to|moved over to|switched to|changed to|migrated to|(?:has |have )?(?:switched|moved|migrated|changed|gone|went|upgraded|downgraded) (?:over )?from) (?P<tail>\S.*)",
    )
});
static FACT_SUBJECT_EXCLUDED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:the|a|an|our|my|your|their|its|his|her|some|every|each|all|it|this|that|there|here|he|she|they|i|you|which|what|who|one|everything|something|nothing|the \w+ test|tests?|bugs?|errors?|issues?|problems?|fix|change|diff|output|results?|function|method|class|line|value|variable|failure|crash|log|logs|code|file|page|button|query|request|response|logic|implementation)$",
    )
});
static VALUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|sixty|hundred)\b|(?:^|\s)/[\w.-]|`|https?://|\b[a-z0-9]+_[a-z0-9_]+\b|(?:^|\s)--?[a-z]|\b[\w.-]+/[\w./-]*|\b[\w-]+\.(?:toml|json|ya?ml|env|ini|cfg|conf|lock|rs|py|ts|js|go|rb|sql|md|swift|kt|ex|exs)\b|\b[a-z][\w-]*\.[a-z][\w-]*\.[a-z][\w.-]*\b",
    )
});
/// Words after "is" that tell how a thing is, not what it is called.
const STATES: &[&str] = &[
    "a",
    "an",
    "the",
    "not",
    "no",
    "very",
    "too",
    "so",
    "really",
    "quite",
    "still",
    "now",
    "always",
    "never",
    "broken",
    "down",
    "up",
    "full",
    "empty",
    "green",
    "red",
    "slow",
    "fast",
    "stale",
    "ready",
    "done",
    "fine",
    "ok",
    "okay",
    "open",
    "closed",
    "merged",
    "deployed",
    "failing",
    "flaky",
    "behind",
    "ahead",
    "dirty",
    "clean",
    "locked",
    "busy",
    "offline",
    "online",
    "missing",
    "gone",
    "new",
    "old",
    "big",
    "small",
    "huge",
    "wrong",
    "right",
    "correct",
    "there",
    "here",
    "live",
    "back",
    "out",
    "in",
    "on",
    "off",
    "true",
    "false",
    "enabled",
    "disabled",
    "set",
    "unset",
    "private",
    "public",
    "protected",
    "backed",
    "stuck",
    "late",
    "early",
    "blocked",
    "pending",
    "weird",
    "odd",
    "fixed",
    "over",
];

/// Words that open a noun, not a state, after "is".
const ARTICLES: &[&str] =
    &["a", "an", "the", "not", "no", "now", "always", "never", "still", "very", "too", "so"];

/// Whether "the <thing of software work> is <a name>" names what the thing is ("the queue is
/// RabbitMQ", "the default branch is master"), not how it is ("the queue is full").
fn names_a_thing(subject: &str, tail: &str) -> bool {
    let tail = tail.trim_end_matches(['.', '!', ';']);
    let words: Vec<&str> = tail.split_whitespace().collect();
    !words.is_empty()
        && words.len() <= 4
        && !STATES.contains(&words[0])
        && !words.iter().any(|w| w.ends_with("ing") || w.ends_with("ed") || memory_core::search::when(w))
        && subject.split_whitespace().any(memory_core::search::software)
}

/// A fact's tail that names how a thing is made or run ("built with mkdocs", "hosted on Fly").
static TOOLED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:built|written|hosted|deployed|served|managed|generated|bundled|compiled|packaged|provisioned|orchestrated|scheduled|linted|formatted|type-?checked|versioned|released|published|stored|cached|kept) (?:with|in|on|by|via|through|using|to|as)\b",
    )
});
static CONVENTION_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?P<verb>use|prefer|indent|prefix|suffix|name|keep|put|place|stick|follow|wrap|sort|order|pin|capitali[sz]e|squash|rebase|sign|format|write|log|type|annotate|import|default|limit|cap|target|document|comment|structure|organi[sz]e|group|separate|mark|tag|label|commit|run|test|lint|return|raise|throw|validate|pass|prefer|favou?r|stay|go with|reach for|lean on|rely on|mock|start|end|begin|spell|quote|escape|split|bump|version|release|branch|merge|push|deploy|handle|check)\b (?P<object>\S+)",
    )
});
/// Verbs of how things look or are named.
static SHAPE_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:name|prefix|suffix|sort|order|capitali[sz]e|spell|quote|tag|label|indent|wrap|title|number|date)\b",
    )
});
static STRONG_CONVENTION_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:use|prefer|indent|keep|stick|follow|favou?r|stay|go with|reach for|pin|squash|sign|default to)\b",
    )
});
static MANNER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:with|in|as|using|via|through|under|over|behind|beside|alongside|into|often|early|frequently|regularly|sparingly|before|after|per|for|everywhere|throughout|across|when|whenever|unless|only|instead|rather|by|to|from|inside|outside|within|without|at|like)\b",
    )
});
static DEFINITE_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:a|an|the|this|that|these|those|my|your|his|her|it|them|some|one|up|out|on|off|going|working|me|us|him|there|here)$",
    )
});
/// A definite thing, anywhere in a clause.
static DEFINITE: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:the|this|that|these|those|it|them)\b"));
static SPECIFIC: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:it|them)\b
      | \b(?:this|that|these|those)\ (?:file|function|method|test|class|module|line|change|commit|bug|error|one|thing|part|component|endpoint|page|branch|pr|folder|directory|script|query|migration|table|column|field|view|screen)s?\b
      | \b(?:this|that)\s*[.,!;]?$
      | \b[\w-]+\.(?:rs|tsx?|jsx?|py|go|rb|java|kt|swift|md|json|toml|ya?ml|css|scss|html|sql|sh|c|cc|cpp|h|hpp|vue|svelte|lock)\b
    ")
});
/// Whether a text points at one thing at hand ([`SPECIFIC`]); "for one-offs like this" points at
/// things of a kind, not at this one.
fn specific(text: &str) -> bool {
    static OF_ITS_KIND: LazyLock<Regex> =
        LazyLock::new(|| re(r"\s+(?:like|such\s+as)\s+(?:this|that)(?:\s+one)?\b"));
    SPECIFIC.is_match(&OF_ITS_KIND.replace_all(text, ""))
}
static TASK_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:fix|add|implement|create|refactor|update|remove|delete|rename|move|debug|investigate|look|check out|build|make|change|help|explain|show|find|review|try|open|install|upgrade|migrate|revert|clean|generate|optimi[sz]e|convert|set|port|rewrite|replace|modify|edit|tell|give|list|summari[sz]e|read|analy[sz]e|benchmark|draft|design|extract|inline|support|allow|enable|disable|wire|hook|connect|call|pull|fetch|restart|kill|go|continue|finish|do|resolve|address|figure|get|see|take|print|dump|bisect|patch|tweak|adjust|improve|rework|simplify|reduce|increase|speed|profile|trace|reproduce|repro|scaffold|bootstrap|init|initiali[sz]e|configure|setup|undo|redo|drop|include|introduce|expose|stub|skip|retry|rerun|re-run|stop|write|document|run|test|commit|push|merge|deploy|split|format|lint|handle|check|bump|release|start|rebase|squash|name|log|type|import|sort|mock|version|comment|put|place|keep|tag|label|mark|group|separate|structure|organi[sz]e|return|raise|throw|validate|pass|escape|quote|spell|end|begin|branch|target|limit|cap|default|wrap|annotate|prefix|suffix|use)\b",
    )
});
/// A verb [`TASK_VERB`] does not know, in the imperative: a first word right before what it acts on
/// ("swap the logger in train.py", "vectorize the rolling window", "point the build at …").
fn bare_imperative(rest: &str) -> bool {
    static VERB_THEN_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?P<verb>[a-z]{3,})\ (?:the|a|an|this|that|these|those|its|their|my|our|your|it|them|everything)\b",
        )
    });
    // Words a sentence starts with before a noun that are no verbs.
    const NOT_VERBS: &[&str] = &[
        "for",
        "with",
        "from",
        "into",
        "onto",
        "after",
        "before",
        "during",
        "since",
        "until",
        "about",
        "across",
        "through",
        "under",
        "over",
        "behind",
        "below",
        "above",
        "between",
        "within",
        "without",
        "inside",
        "outside",
        "like",
        "unlike",
        "per",
        "via",
        "and",
        "but",
        "then",
        "also",
        "when",
        "whenever",
        "once",
        "while",
        "where",
        "because",
        "unless",
        "all",
        "both",
        "only",
        "even",
        "just",
        "not",
        "never",
        "always",
        "usually",
        "its",
        "off",
        "out",
        "near",
        "upon",
        "than",
        "what",
        "which",
        "whatever",
        "whichever",
        "whether",
        "how",
        "why",
        "who",
        "yes",
        "nope",
        "yeah",
        "sure",
        "thanks",
        "thank",
        "please",
        "pls",
        "same",
        "that",
        "this",
        "these",
        "those",
        "every",
        "each",
        "any",
        "some",
        "most",
        "many",
        "much",
        "few",
        "none",
        "either",
        "neither",
        "our",
        "their",
        "your",
        "his",
        "her",
        "new",
        "old",
        // Verbs of rules, not of work.
        "prefer",
        "avoid",
        "favor",
        "favour",
        "mind",
        "remember",
        "assume",
        "respect",
        "follow",
        "trust",
        "expect",
        "treat",
        "consider",
        "ask",
        "tell",
        "warn",
        "ping",
        "leave",
        // Verbs that take back what was said.
        "ignore",
        "forget",
        "disregard",
        "scratch",
        "scrap",
        "nix",
        "toss",
        "ditch",
    ];
    VERB_THEN_OBJECT.captures(rest).is_some_and(|c| {
        let verb = &c["verb"];
        !NOT_VERBS.contains(&verb) && !verb.ends_with('s') && !verb.ends_with("ed") && !verb.ends_with("ly")
    })
}
static LEAD_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^((please|always|never|don't|do not|dont|stop|avoid|prefer|i|really|from now on|actually|no|also),?\s+)+",
    )
});

/// Whether a text carries a credential with its value ("the wifi password is …"), or text already
/// redacted: such a text is never filed, nor quoted back.
pub fn carries_secret(text: &str) -> bool {
    mood::secret(&normalize(text))
}

/// A short remark on how things went, asking for nothing ("good", "thanks, that works", "it
/// renders, nice", "perfect").
static ACKNOWLEDGEMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:
            (?:
                good|great|nice|cool|perfect|awesome|excellent|lovely|neat|sweet|thanks|thank\ you|thx|ty
              | ok|okay|lgtm|yay|finally|yes|yep|sounds\ good|all\ good|good\ job|well\ done|nice\ work
              | (?:(?:it|that|this|everything|all|tests?|ci|the\ build)\ )?
                (?:works?|worked|renders?|passe[sd]|builds?|compiles?|is\ (?:good|fine|better|green)|fixed|done
                  |looks?\ (?:good|great|fine|right))
                (?:\ now)?(?:\ to\ me)?
            )
            [\s,!.]*
        )+$
    ")
});

/// What of a prompt is worth quoting back as what was asked: its sentences without the asides
/// around the work (a joke, a story of how things were, a credential, a thank-you or "looks
/// good"), without what held for that session alone ("for today only …") and without what it
/// stated to last (that is memory, given as notes), joined; `None` when nothing is left.
pub fn worth_quoting(prompt: &str) -> Option<String> {
    kept_sentences(prompt, |why, _| why.is_some_and(|why| ASIDES.contains(&why)))
}

/// What of a prompt says what the work was for: what is [`worth_quoting`], but for somebody
/// else's words, what was only imagined and questions that ask for no work ("bob from graphics
/// swears by …", "if we ever move to bun …", "just curious: would turbo still work on bun?"),
/// which name what the work was not. A question asking for work ("could you add …", "…, can you
/// do that?") says what it was for.
pub(crate) fn what_the_work_was_for(prompt: &str) -> Option<String> {
    kept_sentences(prompt, |why, lower| match why {
        Some(NotLasting::Reported | NotLasting::Hypothetical) => true,
        Some(NotLasting::Question) => !ASKS_FOR_WORK.is_match(lower),
        Some(why) => ASIDES.contains(&why),
        None => false,
    })
}

/// The moods of a sentence that is an aside around the work ([`worth_quoting`]).
const ASIDES: &[NotLasting] =
    &[NotLasting::Joke, NotLasting::Vent, NotLasting::Past, NotLasting::Secret, NotLasting::OneOff];

/// A question that asks for work: "could you add a size to Badge?", "…, can you do that?".
static ASKS_FOR_WORK: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?:can|could|would|will)\ you\b|\bplease\b|\bcan\ we\ (?:add|make|fix|change|move)\b")
});

/// The sentences of `prompt` that are no aside (`aside`, given why a sentence is not meant to
/// last and its lowercase text), no acknowledgement and no statement meant to last, joined;
/// `None` when nothing is left.
fn kept_sentences(prompt: &str, aside: impl Fn(Option<NotLasting>, &str) -> bool) -> Option<String> {
    let kept: Vec<String> = sentences(prompt)
        .into_iter()
        .filter_map(|sentence| {
            // Clauses after a comma are weighed too: "anyway, it renders, good".
            let spoken = LEAD_NOISE.replace(&sentence, "").trim().to_owned();
            let lower = normalize(&spoken);
            // An instruction for that session alone ("for today only use staging") would mislead
            // the next one.
            let aside = aside(not_meant_to_last(&spoken), &lower)
                || lower.is_empty()
                || ACKNOWLEDGEMENT.is_match(&lower)
                // What lasts (a preference, a convention, a correction) is kept as memory and
                // given with the notes; quoted again as the task it would say the same twice.
                || statement(&sentence).is_some();
            (!aside).then_some(spoken)
        })
        .collect();
    (!kept.is_empty()).then(|| kept.join(" "))
}

/// [`not_meant_to_last`] of a line as filed, its code spans not read for mood (`--since=today`):
/// what the notes of what was stated may not hold.
pub(crate) fn line_not_lasting(text: &str) -> Option<NotLasting> {
    let words: String = text.split('`').step_by(2).collect::<Vec<_>>().join("code");
    not_meant_to_last(&words)
}

/// Why a sentence, as said, is not meant to last, if it is not: its mood (a question, a
/// hypothetical, somebody else's words, a story of the past, a joke, a secret) or its reach in
/// time (a one-off). The one reading of a sentence's mood, for what users say and for what a
/// model proposes to file alike.
pub(crate) fn not_meant_to_last(sentence: &str) -> Option<NotLasting> {
    let spoken = LEAD_NOISE.replace(sentence.trim(), "");
    if mood::output(&spoken) {
        return Some(NotLasting::Output);
    }
    let lower = normalize(spoken.trim());
    mood::not_lasting(&lower)
        // "the job backend I told you about a while ago is gone": when it was said is no story.
        .filter(|why| *why != NotLasting::Past || reference::reference(&lower).is_none())
        .or_else(|| for_once(&lower).then_some(NotLasting::OneOff))
        .or_else(|| specifies_a_task(&lower).then_some(NotLasting::TaskRequirement))
        .or_else(|| TASK_LABEL.is_match(&lower).then_some(NotLasting::TaskRequirement))
}

/// A piece of work given under its label: "task: the node group goes from 3 to 4", "today's
/// job: carriers need a currency field", "the ask - export the invoices as csv".
static TASK_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:(?:now|ok|okay|so|and|anyway|anyways|then|next|also),?\s+)*
        (?:(?:the|my|our|today'?s|this|first|second|next|main|actual|real|one|quick|small|big|new|other)\s+)?
        (?:task|ask|job|todo|to-do|ticket|assignment|chore)s?(?:\s+(?:for\s+)?(?:today|now|at\s+hand|here))?
        \s*(?::|\s[-–—])\s+\S
    ")
});

/// The sentences of a prompt that state something durable, in order. A sentence that takes back
/// what was said before ("the old e2e tool is history.") may give its new value in the next one
/// ("e2e is Playwright now."), which is kept whatever its form, unless it asks for work.
pub(crate) fn statements(prompt: &str) -> Vec<Statement> {
    let mut out: Vec<Statement> = Vec::new();
    let mut after_retraction = false;
    // Context announced ahead ("a bit of context:", "a few house rules for this codebase:"):
    // the statements that follow are meant to be kept, whatever their form, until the prompt
    // turns to the work; `Some(Some(reach))` when the announcement says where they hold ("a few
    // rules for this repo:", "general rule, any repo:").
    let mut announced: Option<Option<Reach>> = None;
    // The sentence before, and whether it was kept.
    let mut previous: Option<(String, bool)> = None;
    for sentence in sentences(prompt) {
        // "that goes for every repo, not just this one": where the statement before holds. Said
        // of a sentence not kept, it makes that sentence a statement, whatever its form; alone it
        // says nothing.
        if SCOPE_OF_THE_LAST.is_match(&normalize(&sentence)) {
            let last = match previous.take() {
                Some((_, true)) => out.last_mut(),
                Some((before, false)) => match new_value(&before) {
                    Some(found) => {
                        out.push(found);
                        out.last_mut()
                    }
                    None => None,
                },
                None => None,
            };
            if let Some(last) = last {
                let lower = normalize(&sentence);
                if EVERYWHERE.is_match(&lower) || lower.contains("everywhere") || lower.contains("everything")
                {
                    last.reach = Reach::General;
                } else if project_worded(&lower) {
                    last.reach = Reach::Project;
                }
                last.text = format!("{} {}", last.text, sentence.trim());
            }
            continue;
        }
        let kept_before = out.len();
        // "house style for sql here: …" announces rules of a topic, which the rules keep.
        let topical = STYLE_AHEAD.find(&sentence).filter(|_| !CONTEXT_AHEAD.is_match(&sentence));
        let (lead, said) = match CONTEXT_AHEAD
            .find(&sentence)
            .or_else(|| FOR_EVERYWHERE_AHEAD.find(&sentence))
            .or(topical)
        {
            Some(m) => (Some(m.as_str()), sentence[m.end()..].trim()),
            None => (None, sentence.as_str()),
        };
        if let Some(lead) = lead {
            let lead = normalize(lead);
            // A house's or a team's rules are the project's.
            let said_where = if EVERYWHERE.is_match(&lead) || FOR_EVERYWHERE_AHEAD.is_match(&lead) {
                Some(Reach::General)
            } else {
                (project_worded(&lead) || HOUSE_RULES.is_match(&lead)).then_some(Reach::Project)
            };
            announced = Some(said_where.or(announced.flatten()));
            if said.split_whitespace().count() < 3 {
                continue;
            }
        }
        // "it has to sit behind a flag; in courier-api flags come from Unleash": a clause after a
        // semicolon stands on its own when what is before it is not kept, unless that asked for
        // the work the clause says more of ("add --dry-run; in dry run it must never …").
        let plain = statement(said).or_else(|| {
            // Work under its label is work to its end.
            if TASK_LABEL.is_match(&normalize(said)) {
                return None;
            }
            let (before, rest) = said.split_once("; ")?;
            let before = normalize(LEAD_NOISE.replace(before, "").trim());
            let before = SEQUENCE_LEAD.replace(&before, "");
            (!asks_for_work(before.trim()) && !OPENS_A_REQUEST.is_match(before.trim()))
                .then(|| statement(rest.trim()))
                .flatten()
        });
        let mut found = match announced {
            Some(lead_reach) if plain.as_ref().is_none_or(|s| s.reference.is_none()) => {
                announced_value(said, lead_reach)
                    .map(|mut found| {
                        if let Some(topic) = topical {
                            found.text = format!("{} {}", topic.as_str().trim(), found.text);
                        }
                        found
                    })
                    .or(plain)
            }
            _ => plain,
        }
        .or_else(|| after_retraction.then(|| new_value(said)).flatten());
        if found.is_none() {
            announced = None;
            found = named_thing(said);
        }
        // "general rule, any repo: …", "house rule too: …": what the announcement said of where,
        // unless the statement says it, or speaks of the user.
        if let (Some(Some(lead)), Some(found)) = (announced, found.as_mut())
            && found.reference.is_none()
            && !says_where(&found.text)
            && (lead == Reach::General
                || !filed(&found.text).is_some_and(|(_, why)| why == Why::AboutTheUser))
        {
            found.reach = lead;
        }
        if let Some(found) = found.as_mut() {
            found.follows_retraction = after_retraction && found.reference.is_none();
        }
        after_retraction = found.as_ref().is_some_and(|s| s.reference.is_some());
        // What is left of a sentence once its requests are cut must still say something ("now:
        // run the suite …" leaves "now").
        // "no partial functions. no head, no fromJust": a rule that names no place, right after one
        // of the project, goes on with it.
        if let Some(found) = found.as_mut()
            && found.reach == Reach::General
            && found.reference.is_none()
            && !matches!(announced, Some(Some(_)))
            && previous.as_ref().is_some_and(|(_, kept)| *kept)
            && out.last().is_some_and(|last| last.reach == Reach::Project)
            && filed(&found.text).is_some_and(|(_, why)| why == Why::NoPlaceNamed)
        {
            found.reach = Reach::Project;
        }
        if let Some(found) = found.as_mut()
            && found.reach == Reach::General
            && found.reference.is_none()
        {
            found.text = without_project_example(&found.text);
        }
        // "the job backend I told you about is gone. we're on Solid Queue now": the new value is
        // kept with what it replaces, one line that names its topic, when the retraction said no
        // value of its own.
        if let Some(found) = found.as_mut()
            && found.follows_retraction
            && previous.as_ref().is_some_and(|(_, kept)| *kept)
            && let Some(last) = out.last_mut()
            && says_no_value(last)
        {
            found.text = kept(&format!("{} {}", last.text, found.text));
            last.retracts_only = true;
        }
        // "commit that. format for subjects here: [component] lowercase summary": a rule said right
        // after the task it is about may leave out what it is about; it is filed under the task's
        // topic ("commits: format for subjects …"). Not a rule that names a topic of the task, one
        // said after a turn ("also, …", "btw …"), nor what the user says of themselves.
        if let Some(found) = found.as_mut()
            && found.reference.is_none()
            && let Some((before, false)) = previous.as_ref()
            && asks_for_work(before)
            && !FILLER.is_match(sentence.trim())
            && !speaks_of_oneself(&found.text)
        {
            let own = memory_core::search::topics(&found.text);
            let task = memory_core::search::topics(before);
            if let Some(topic) = task.first().filter(|_| !task.iter().any(|t| own.contains(t))) {
                let name = topic.split([',', ':']).next().unwrap_or(topic).trim();
                found.text = format!("{name}: {}", found.text);
            }
        }
        // As filed, a statement must still read as one meant to last: what is around it, cut or
        // joined, may change how it reads.
        out.extend(found.filter(|s| {
            s.retracts_only || (s.text.split_whitespace().count() >= 3 && line_not_lasting(&s.text).is_none())
        }));
        previous = Some((sentence, out.len() > kept_before));
    }
    out
}

/// Whether a statement takes something back and says nothing after what it points at ("the job
/// backend I told you about is gone.").
fn says_no_value(statement: &Statement) -> bool {
    let lower = normalize(&statement.text);
    statement.reference.is_some()
        && reference::reference(&lower)
            .is_some_and(|r| lower.get(r.end..).is_none_or(|after| after.split_whitespace().count() < 2))
}

/// A lead that announces what follows as context to keep: "a bit of context", "some background
/// first:", "a few house rules for this codebase:", "things you should know about this repo:";
/// at the head of a sentence, or closing one ("first time in this repo, so a bit of context.").
static CONTEXT_AHEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)
        ^(?:[^.:]*?(?:\b(?:so|and|but|first|then)|,)\s+)?
        (?:(?:a\s+|quick\s+|friendly\s+)*reminder\s+(?:of|about)\s+(?:the|our|a|my)\s+|here'?s\s+|here\ are\s+|some\s+|a\s+(?:bit|little|couple|few)(?:\s+of)?\s+|(?:a\s+)?few\s+|couple\s+of\s+|two\s+|three\s+)?
        (?:quick\s+|important\s+|useful\s+|general\s+|standing\s+|blanket\s+|global\s+)?
        (?:context|background|house\s+rules?|ground\s+rules?|team\s+rules?|rules?|rule\s+of\s+thumb|conventions|facts|(?:things|points|notes)(?:\s+(?:to\s+know|you\s+should\s+know|worth\s+knowing|about\s+(?:this|the|our|my)\s+[\w-]+))?)
        (?:\s+(?:first|up\s*front|before\s+(?:we|you)\s+(?:start|begin|dive\s+in)))?
        (?:,?\s+(?:btw|fyi|too|also|as\s+well))?
        (?:\s+(?:for|in|of|about|on)\s+(?:this|the|our|my)\s+[\w-]+|\s+here
          |,?\s+(?:(?:for|in|across|on)\s+)?(?:any|every|all)\s+(?:of\s+)?(?:my\s+)?(?:repos?|projects?|repositories|codebases?))?
        \s*(?:[:.!]+\s*|\s*$|\s+(?:-|—)\s+)
    ")
});

/// One thing announced as holding everywhere: "one thing for everywhere, not just here:", "this
/// one goes for all my repos -", "something for every project:".
static FOR_EVERYWHERE_AHEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:[^.:]*?(?:\b(?:so|and|but|oh|also|btw|then)|,)\s+)?
        (?:(?:one|another|a|this|the\ next)\s+)?(?:more\s+)?(?:thing|one|rule|point|note|something)(?:'s|\s+is)?
        \s+(?:that\s+)?(?:(?:goes|applies|holds|counts)\s+)?(?:for|to|in|across)\s+
        (?:everywhere|everything|(?:all|every|each|any)\s+(?:of\s+)?(?:my\s+|our\s+|the\s+)?(?:repos?|projects?|repositories|codebases?))
        (?:,?\s+not\s+(?:just|only)\s+(?:here|this\s+(?:one|repo|project|codebase)))?
        \s*(?:[:!]+\s*|\s+(?:-|—)\s+)
    ")
});

/// Rules of the house or the team, announced: the project's.
static HOUSE_RULES: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:house|team)\s+(?:rules?|style|conventions?)\b"));
/// A sentence saying where the one before holds: "that goes for every repo", "same in all my
/// projects", "this applies here only".
static SCOPE_OF_THE_LAST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:and\s+|oh\s+|btw,?\s+)?(?:(?:that|this|it|which)(?:'s|\s+is)?\s+(?:goes|applies|holds|counts|true|stands|is\s+true)\s+(?:for|to|in|across|everywhere|here|only)|(?:goes|applies|holds)\s+(?:for|to|in|across)\s+(?:everything|every|all|any)\b|(?:that|this|it)(?:'s|\s+is)\s+(?:for|across|in)\s+(?:all|every|each|any)\s|(?:the\s+)?same\s+(?:goes\s+)?(?:for|in|across)\s)",
    )
});

/// Rules of a topic announced ahead: "house style for sql here:", "sql style reminder:", "naming
/// conventions in this repo:".
static STYLE_AHEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)
        ^(?:[^.:]*?(?:(?:so|and|but|also|btw|oh)|,)\s+)?
        (?:[\w/-]+\s+){0,2}?
        (?:house\s+|code\s+|coding\s+|our\s+)?(?:style|conventions?|rules?|guidelines?|naming)
        (?:\s+reminder)?
        (?:\s+(?:for|in|of|on)\s+[\w/-]+)?
        (?:\s+(?:here|in\s+(?:this|the|our)\s+[\w-]+))?
        \s*:\s+
    ")
});

/// A sentence that turns to the work at hand ("now the task: …", "today's thing: …", "the ask:").
static WORK_AHEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:now|ok|okay|so|and|anyway|anyways),?\s+)*(?:(?:the|my|our|today'?s|this|first|main|actual|real|one)\s+)?(?:task|thing|ask|job|request|question|problem|work|plan|goal|todo|to-do)s?(?:\s+(?:for\s+)?(?:today|now|at hand))?\s*(?:[:.!-]|$)",
    )
});

/// A rule of the user's without the example of the project at hand it closes with ("never encode
/// status with colour alone: the badges in `ShipmentTable` need an icon too"): after a colon,
/// semicolon or dash, what names a thing only the project has goes, so that the rule can follow
/// the user into their other projects.
fn without_project_example(text: &str) -> String {
    static PARTS: LazyLock<Regex> = LazyLock::new(|| re(r":\s|;\s|\s[—–]\s|\s-\s"));
    static CAMEL: LazyLock<Regex> = LazyLock::new(|| re(r"\b[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+\b"));
    // A case of the rule, not a rule of its own: a thing pointed at, or an example.
    static EXAMPLE_START: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:(?:the|this|that|these|those|eg|for\ example|for\ instance|like|say|here|right\ now|today)\b|e\.g\.)",
        )
    });
    let Some(first) = PARTS.find(text) else { return text.to_owned() };
    if text[..first.start()].split_whitespace().count() < 4 {
        return text.to_owned();
    }
    let cuts: Vec<usize> = PARTS.find_iter(text).map(|m| m.start()).chain([text.len()]).collect();
    let end = cuts
        .windows(2)
        .find(|w| {
            let part = &text[w[0]..w[1]];
            let lower = normalize(part.trim_start_matches([':', ';', '—', '–', '-', ' ']));
            EXAMPLE_START.is_match(&lower) && (names_a_thing_of_the_project(&lower) || CAMEL.is_match(part))
        })
        .map_or(text.len(), |w| w[0]);
    text[..end].trim_end().to_owned()
}

/// What is said of the work at hand, not of how things are: "this one is tiny so go ahead",
/// "that change is fine, ship it".
static AT_HAND: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:but|and|so|ok|okay)\s+)?(?:this|that)\s+(?:one|change|task|pr|fix|bit|part|ticket|time|diff|commit)\b|\bgo\s+ahead\b",
    )
});

/// A sentence of announced context, read as a statement to keep when it is one: not a question,
/// no request for work, nothing else not meant to last. Filed where it says, else in the project
/// when the announcement spoke of it or the sentence tells how things are.
fn announced_value(sentence: &str, lead: Option<Reach>) -> Option<Statement> {
    // Once a sentence asks for work ("…, pls fix those too"), the context is over.
    // Trouble reported ("the build is broken on main") is no context to keep either.
    let lower = normalize(sentence);
    if WORK_AHEAD.is_match(&lower)
        || AT_HAND.is_match(&lower)
        || trouble(&lower)
        || without_tasks(sentence).trim() != sentence.trim()
    {
        return None;
    }
    let mut found = new_value(sentence)?;
    if !says_where(&found.text) && classify(&found.text).is_none() {
        let lower = normalize(&found.text);
        let personal = of_oneself(&lower);
        found.reach = if lead == Some(Reach::Project) && !personal {
            Reach::Project
        } else {
            reach_of(&lower, &lower, personal, declarative(&lower))
        };
    }
    Some(found)
}

/// What a thing of the speaker's or the team's is, said in passing by its name: "run it on tusk,
/// the 4090 box under my desk (ssh tusk)" keeps "tusk is the 4090 box under my desk (ssh tusk)";
/// "deploy to atlas, our staging cluster" keeps that atlas is the team's staging cluster.
fn named_thing(sentence: &str) -> Option<Statement> {
    static APPOSITIVE: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?x)
            \b(?:on|to|at|from|into|onto|via|through|with)\s+(?P<name>[a-z][\w.-]{2,30})\s*,\s+
            (?P<what>(?:(?:the|a|an)\s+[^,;()]{2,50}?\b(?P<whose>my|our)\b[^,;()]{0,30}?|(?:my|our)\s+[^,;()]{2,50}?))
            (?P<aside>\s*\([^()]{1,40}\))?
            \s*(?:[,.;!]|$|\s[-–—]\s)
        ")
    });
    const NOT_NAMES: &[&str] =
        &["the", "this", "that", "these", "those", "them", "it", "my", "our", "your", "top", "and"];
    let lower = normalize(sentence);
    let c = APPOSITIVE.captures(&lower)?;
    let (name, what) = (&c["name"], c["what"].trim());
    if NOT_NAMES.contains(&name) || trouble(what) || for_once(what) {
        return None;
    }
    let aside = c.name("aside").map_or("", |m| m.as_str());
    let text = kept(&format!("{name} is {what}{aside}"));
    let mine = what.starts_with("my ") || c.name("whose").is_some_and(|m| m.as_str() == "my");
    Some(Statement {
        text,
        reach: if mine { Reach::General } else { Reach::Project },
        reference: None,
        retracts_only: false,
        follows_retraction: false,
    })
}

/// A sentence read as the new value of what the sentence before it took back, when it is one: a
/// statement, not a question, a task or anything else not meant to last.
fn new_value(sentence: &str) -> Option<Statement> {
    let spoken = LEAD_NOISE.replace(sentence, "");
    let spoken = spoken.trim();
    if spoken.chars().count() > MAX_SENTENCE_CHARS
        || spoken.split_whitespace().count() < 3
        || spoken.ends_with('?')
        || not_meant_to_last(spoken).is_some()
    {
        return None;
    }
    let lower = normalize(spoken);
    if (asks_for_work(&lower) || OPENS_A_REQUEST.is_match(&lower)) && !said_as_a_rule(&lower) {
        return None;
    }
    // "then: the price cap ended up in a callback": what comes next in the work, not a value.
    if SEQUENCE_LEAD.is_match(&lower) {
        return None;
    }
    let text = kept(&without_tasks(spoken));
    let personal = of_oneself(&lower);
    let reach = classify(&text).unwrap_or_else(|| reach_of(&lower, &lower, personal, false));
    Some(Statement { text, reach, reference: None, retracts_only: false, follows_retraction: false })
}

/// A thing wanted built: "we need a worker Deployment in staging", "I'd like a dark mode toggle".
static WANTS_A_THING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:we|i)(?:\s+really|\s+also|\s+still|\s+now)?(?:\s+need|\s+want|'d\s+like|\s+would\s+like|\s+would\s+love|'d\s+love)\s+(?:a|an|the|some|this|that|another|one|two|three|new)\b",
    )
});

/// Words that move on to the next piece of work ("then:", "next,", "after that").
static SEQUENCE_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:and\s+)?(?:then|next|after\s+that|afterwards|once\s+(?:that's|that\s+is)\s+done|meanwhile|separately|unrelated(?:ly)?|other\s+thing|different\s+topic)\b\s*[:,-]?",
    )
});

/// The speaker's words for themselves.
static ME: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:i|i'm|i've|i'd|my|me|mine)\b"));

/// Whether a line has its speaker speak of themselves anywhere in it ("…, I'm rafa-ib on github").
pub(crate) fn speaks_of_oneself(text: &str) -> bool {
    ME.is_match(&normalize(text))
}

/// Whether a statement (lowercase) speaks of its speaker: "i …", "i'm …", "my …".
fn of_oneself(lower: &str) -> bool {
    lower.starts_with("i ") || lower.starts_with("i'") || lower.starts_with("my ")
}

/// Verbs that open a request for work besides [`TASK_VERB`]'s: "bring the db up and run the tests".
static OPENS_A_REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:and|then|now|so|also)\s+)?(?:bring|spin|get|put|take|go|let's|keep|do|ship|push|pull|merge|deploy|rebase|bump|port|copy|drop|write|run|start|stop|restart|kill|redo|rerun|retry|send|ping|post|commit|tag|cut|release|mirror|sync)\b",
    )
});

/// Whether a statement says where it holds: everywhere, or in this project.
pub(crate) fn says_where(text: &str) -> bool {
    let lower = normalize(text);
    EVERYWHERE.is_match(&lower) || project_worded(&lower)
}

/// What one sentence states, if it states something durable.
fn statement(sentence: &str) -> Option<Statement> {
    let sentence = match TRAILING_REQUEST.find(sentence) {
        Some(m) if sentence[..m.start()].split_whitespace().count() >= 3 => &sentence[..m.start()],
        _ => sentence,
    };
    let spoken = LEAD_NOISE.replace(sentence, "");
    let spoken = spoken.trim();
    if spoken.chars().count() > MAX_SENTENCE_CHARS || spoken.split_whitespace().count() < 3 {
        return None;
    }
    if not_meant_to_last(spoken).is_some() {
        return None;
    }
    let lower = normalize(spoken);
    if let Some(reference) = reference::reference(&lower) {
        // The new value is what the sentence says besides the clause that points back: after it
        // ("forget X, we use Y now") or before it ("we use Y now, the old X is gone").
        let before = lower[..reference.start.min(lower.len())].trim().trim_end_matches([',', ';', ':']);
        let after =
            lower[reference.end.min(lower.len())..].trim_start_matches([',', ';', ':', '.', ' ']).trim();
        let uses_after = after.split_whitespace().count() >= 2;
        let rest = if uses_after { after } else { before };
        let rest = JOINER.replace(rest, "");
        // "…, explain things in detail now": a way of working in the imperative is a value too.
        let gives_value = (rest.split_whitespace().count() >= 2
            && (!asks_for_work(&rest) || said_as_a_rule(&rest))
            && !reference::tells_what_became(&rest))
            || reference::sets_anew(&lower);
        // "this dependency is outdated, bump it": a thing of the work to change, not a note ("the
        // lint rule I gave you is outdated, drop it" is one).
        let clause = &lower[reference.start.min(lower.len())..reference.end.min(lower.len())];
        let reports_work =
            !gives_value && !after.is_empty() && asks_for_work(after) && !reference::points_back(clause);
        if !reports_work {
            let personal = of_oneself(&rest);
            let reach = classify(&rest).unwrap_or_else(|| reach_of(&lower, &rest, personal, false));
            let text = if gives_value {
                let whole = without_tasks(spoken);
                // "X from last time, throw that out: …": the clause that takes X back is no task
                // to cut the new value after.
                if normalize(&whole).trim_end().len() <= reference.end && uses_after {
                    let tail = spoken.to_lowercase().find(after).and_then(|at| spoken.get(at..));
                    kept(&without_tasks(tail.unwrap_or(after)))
                } else {
                    kept(&whole)
                }
            } else {
                kept(spoken)
            };
            // A rule that names what it ends ("no more X in this repo") is kept as the rule.
            let retracts_only = !gives_value
                && (classify(sentence).is_none()
                    || reference::tells_what_became(&rest)
                    || reference.withdrawn);
            return Some(Statement {
                text,
                reach,
                reference: Some(reference),
                retracts_only,
                follows_retraction: false,
            });
        }
    }
    // A statement after a request in the same sentence ("add tests for X, i like …").
    let starts = clause_starts(spoken);
    let after_request = || {
        starts.iter().skip(1).find_map(|&at| {
            let tail = spoken[at..].trim();
            // "mocks hide bugs, so prefer fakes": the rule, kept with the reason it gives.
            let reasoned = SO_RULE.is_match(&normalize(tail));
            let rule = match reasoned {
                true => JOINER.replace(tail, "").into_owned(),
                false => {
                    let lower = normalize(tail);
                    (STATEMENT_LEAD.is_match(&lower) || tool_does(&lower)).then_some(())?;
                    tail.to_owned()
                }
            };
            let reach = classify(&rule)?;
            let tail = LEAD_NOISE.replace(tail, "");
            let text = if reasoned { spoken } else { &tail };
            Some(Statement {
                text: kept(&without_tasks(text)),
                reach,
                reference: None,
                retracts_only: false,
                follows_retraction: false,
            })
        })
    };
    // "When it renders, push a branch and open the PR — I want PRs as drafts": a request after a
    // condition opens the sentence too.
    let conditioned = starts.get(1).is_some_and(|&at| CONDITION_OPENER.is_match(&normalize(&spoken[..at])));
    let opens_with_request = starts.get(1).is_some_and(|&at| asks_for_work(&spoken[..at]))
        || (conditioned
            && starts.get(2).is_some_and(|&at| asks_for_work(&normalize(&spoken[starts[1]..at]))));
    if opens_with_request && let Some(found) = after_request() {
        return Some(found);
    }
    if let Some(reach) = classify(sentence) {
        let text = kept(&without_tasks(spoken));
        return Some(Statement {
            text,
            reach,
            reference: None,
            retracts_only: false,
            follows_retraction: false,
        });
    }
    // "the parquet files under data/ — never git add those": a topic of the project, then the
    // rule of it, which points back at it.
    after_request().map(|mut found| {
        let topic = starts.get(1).map_or("", |&at| spoken[..at].trim());
        let lower = normalize(topic);
        if found.reach == Reach::General
            && !asks_for_work(&lower)
            && names_a_thing_of_the_project(&lower)
            && POINTS_AT_TOPIC.is_match(&normalize(&found.text))
        {
            found.reach = Reach::Project;
            found.text = kept(&without_tasks(LEAD_NOISE.replace(spoken, "").trim()));
        }
        found
    })
}

/// A pronoun that points at a thing named before ("never git add those").
static POINTS_AT_TOPIC: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:those|these|them|it|that one|they)\b"));

/// A rule of every thing of a kind, said of one: "every endpoint must validate its input", "each
/// handler should log its errors".
static EVERY_MODAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:every|each) [\w./-]+(?: [\w./-]+){0,3}? (?:(?:must|should|needs to|has to|shall)(?: (?:always|never|not|only))? [a-z]+|(?:gets|has|ships with|comes with|carries|needs|requires) (?:a|an|its|their|one|two|\d)\b)",
    )
});
/// What a piece of work asked for in the same sentence must do: "add --dry-run to `import`; in dry
/// run it must never touch the file", "implement the retry: it should never retry more than 3
/// times". The requirement is the task's, not a lasting rule.
static TASK_SPEC: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:(?:in|on|for|with|when|if|during|while|after|before)\ [^,;:]{1,30}?,?\s)?
         (?:it|they|this|that|these|those|each\ one|the\ (?:new\ )?(?:flag|option|endpoint|command|function|job|button|page|test|tests|script
           |field|method|class|component|handler|route|check|step|screen|query|migration|worker|task|feature|api|call|request|response|output))
         \ (?:must|should|has\ to|have\ to|needs?\ to|shall|will|can't|cannot|mustn't|shouldn't|may\ not)\b
    ")
});
/// Words that open a piece of work in a list of them ("then:", "next:", "task:").
static TASK_OPENER: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:(?:and\ )?then|next|now|task|todo|also|first|after\ that)\s*[:,]?\s+"));

/// Whether a sentence asks for a piece of work and then says what it must do ([`TASK_SPEC`]).
fn specifies_a_task(spoken: &str) -> bool {
    let lower = normalize(spoken);
    let lower = TASK_OPENER.replace(&lower, "");
    let mut code = false;
    for (at, c) in lower.char_indices() {
        match c {
            '`' => code = !code,
            ':' | ';' | ',' | '—' if !code => {
                let (head, tail) = (&lower[..at], lower[at + c.len_utf8()..].trim());
                return asks_for_work(head) && TASK_SPEC.is_match(tail);
            }
            _ => {}
        }
    }
    false
}

/// A statement's text as kept: trimmed to the longest length.
fn kept(text: &str) -> String {
    let text = text.trim().trim_end_matches([',', ';', ':']).trim();
    let mut kept: String = text.chars().take(MAX_STATEMENT_CHARS).collect();
    if kept.len() < text.len() {
        kept.push('…');
    }
    kept
}

/// Byte offsets where the clauses of a sentence start: the start, and after each `, ` or `; `
/// outside code spans and brackets.
fn clause_starts(sentence: &str) -> Vec<usize> {
    let mut out = vec![0];
    let mut depth = 0i32;
    let mut code = false;
    let bytes = sentence.as_bytes();
    for (at, c) in sentence.char_indices() {
        match c {
            '`' => code = !code,
            '(' | '[' | '{' | '<' if !code => depth += 1,
            ')' | ']' | '}' | '>' if !code => depth = (depth - 1).max(0),
            ',' | ';' if !code && depth == 0 && bytes.get(at + 1) == Some(&b' ') => out.push(at + 2),
            // A full stop standing alone between words (`… https://x.dev . update the config`).
            '.' if !code
                && depth == 0
                && at > 0
                && bytes[at - 1] == b' '
                && bytes.get(at + 1) == Some(&b' ') =>
            {
                out.push(at + 2)
            }
            // A dash standing between words sets a clause apart ("open the PR — I want PRs as
            // drafts").
            '—' | '–' if !code && depth == 0 && at > 0 && bytes[at - 1] == b' ' => {
                let next = at + c.len_utf8();
                if bytes.get(next) == Some(&b' ') {
                    out.push(next + 1);
                }
            }
            // After a colon, a clause that does something to one definite thing ("keep commits
            // clean: split the bump from the todo"); a list after a colon stays.
            ':' if !code
                && depth == 0
                && bytes.get(at + 1) == Some(&b' ')
                && DEFINITE.is_match(sentence[at + 2..].split([',', ';']).next().unwrap_or("")) =>
            {
                out.push(at + 2)
            }
            _ => {}
        }
    }
    out
}

/// Whether an imperative clause (lowercase) sets a way of working rather than asking for a piece
/// of work: a convention ("sort imports with isort") or how to answer ("explain things in detail").
fn said_as_a_rule(clause: &str) -> bool {
    let clause = JOINER.replace(clause.trim(), "");
    let clause = POLITE.replace(&clause, "");
    convention_imperative(&clause, &clause) || ANSWER_STYLE.is_match(&clause) || standing_condition(&clause)
}

/// Whether a clause asks for a piece of work rather than saying how things are done.
fn asks_for_work(clause: &str) -> bool {
    let clause = normalize(clause);
    let clause = JOINER.replace(clause.trim(), "");
    let clause = POLITE.replace(&clause, "");
    if ABOUT_US.is_match(&clause) {
        return false;
    }
    REQUEST.is_match(&clause)
        || ((TASK_VERB.is_match(&clause) || bare_imperative(&clause))
            && !declarative(&clause)
            && !NEGATIVE_START.is_match(&clause)
            && !says_habit(&clause)
            && !STRONG_CONVENTION_VERB.is_match(&clause)
            && !clause.starts_with("use ")
            && !clause.starts_with("assume "))
}

/// A statement without the requests for work that follow it in its sentence ("the staging db is
/// read-only, add a note to the README" → "the staging db is read-only").
fn without_tasks(sentence: &str) -> String {
    let starts = clause_starts(sentence);
    // After a condition ("when fixing a bug, write a failing test first"), the rule is the next
    // clause, in the imperative.
    let conditioned = starts.get(1).is_some_and(|&at| CONDITION_OPENER.is_match(&normalize(&sentence[..at])));
    // Examples ("e.g. feat: add x, fix: drop y") are part of what they illustrate.
    let lower = sentence.to_lowercase();
    let examples = ["e.g.", "i.e.", "for example", "such as", "for instance"]
        .iter()
        .filter_map(|marker| lower.find(marker))
        .min()
        .unwrap_or(usize::MAX);
    let cut = starts
        .iter()
        .skip(if conditioned { 2 } else { 1 })
        .take_while(|&&at| at < examples)
        .find(|&&at| {
            let clause = normalize(&sentence[at..]);
            asks_for_work(&clause) && !said_as_a_rule(&clause)
        })
        .copied();
    match cut {
        Some(at) => sentence[..at].trim_end().trim_end_matches([',', ';', '—', '–']).trim_end().to_owned(),
        None => sentence.to_owned(),
    }
}

/// Whether a text says it holds beyond the project ("in all my projects", "that's true
/// everywhere"): what it names of the project is then an example, not where it holds.
pub(crate) fn said_everywhere(text: &str) -> bool {
    EVERYWHERE.is_match(&normalize(text))
}

/// Whether a text names the project as where it applies ("here", "in this repo", "for this app").
pub(crate) fn project_worded(text: &str) -> bool {
    let lower = normalize(text);
    PROJECT_WORDING.find_iter(&lower).any(|m| !m.as_str().contains("here") || !HERE_POINTING.is_match(&lower))
}

/// Whose a correction is, read from how it speaks (the words that point back, "what I said", "I
/// gave you", aside): the project's when it names it or speaks for the team, the user's when it
/// speaks of the user or of everywhere, else undecided.
pub(crate) fn speaker(text: &str) -> Option<Reach> {
    // What points back at when it was said ("my earlier note", "from our first session").
    static POINTING: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\bmy (?:earlier|previous|old|last) (?:note|rule|comment)s?\b|\bfrom (?:our|the|my) (?:very )?first (?:session|chat|day)\b",
        )
    });
    let lower = normalize(text);
    let said = reference::without_saying(&lower);
    let said = POINTING.replace_all(&said, " ");
    if EVERYWHERE.is_match(&said) {
        Some(Reach::General)
    } else if project_worded(&said) || TEAM_WORDING.is_match(&said) {
        Some(Reach::Project)
    } else if ME.is_match(&said) {
        Some(Reach::General)
    } else {
        None
    }
}

/// Whether a text is said for one run only ("just for this run", "for now", "this time").
pub(crate) fn one_off(text: &str) -> bool {
    for_once(&normalize(text))
}

/// Whether a sentence (lowercase) is said for one run or one stretch of time, and not from then
/// on ("starting today, …", "as of this sprint, …" say when a rule begins).
fn for_once(lower: &str) -> bool {
    static BEGINS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\b(?:starting|from|as\ of|beginning|effective|since)\ (?:(?:this|next)\ \w+|today|tomorrow|tonight|now)\b|\b(?:from\ (?:today|now|this\ \w+)|today|now)\ on(?:wards?)?\b",
        )
    });
    // "never encode status by colour alone in anything you build for me": all that is done for
    // the user, not one thing.
    static ALL_FOR_ME: LazyLock<Regex> = LazyLock::new(|| {
        re(r"\b(?:anything|everything|whatever|all|any\ \w+|every\ \w+)\b[^.;:]{0,40}\bfor\ me[.!]*$")
    });
    // "one-off changes are hydra overrides": one-offs as a kind of thing a rule is about.
    static OF_A_KIND: LazyLock<Regex> = LazyLock::new(|| re(r"^\s+[\w-]+s\s+(?P<next>[a-z']+)"));
    // After the plural, a verb says what such things are or do; a word of place or time ties
    // them to the moment ("one-off fixes for the demo").
    let of_a_kind = |after: &str| {
        OF_A_KIND.captures(after).is_some_and(|c| {
            !matches!(
                &c["next"],
                "for"
                    | "in"
                    | "on"
                    | "to"
                    | "at"
                    | "the"
                    | "a"
                    | "an"
                    | "this"
                    | "that"
                    | "until"
                    | "till"
                    | "today"
                    | "tonight"
                    | "now"
                    | "only"
                    | "please"
                    | "and"
                    | "or"
                    | "with"
                    | "while"
            )
        })
    };
    ONE_OFF.find_iter(lower).any(|m| {
        let said = m.as_str();
        let all_for_me = said.starts_with("for me") && ALL_FOR_ME.is_match(lower);
        let a_kind = said.starts_with("one") && of_a_kind(&lower[m.end()..]);
        !all_for_me && !a_kind
    }) && !BEGINS.is_match(lower)
}

/// Lowercase with typographic quotes made plain, and a thing's "'s" before what it is read as
/// "is" ("the port's 9090 now" → "the port is 9090 now"; "it's", "that's" and possessives stay).
fn normalize(text: &str) -> String {
    static IS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\b(?P<thing>[a-z][\w.-]*)'s\s(?P<what>now\b|[\w./:-]+\snow\b|\d|on\s|at\s|in\s|an?\s|the\s|called\s|named\s|set\s|built\s|written\s|hosted\s|deployed\s|managed\s|still\s)",
        )
    });
    const PRONOUNS: &[&str] = &[
        "it",
        "that",
        "there",
        "here",
        "what",
        "who",
        "he",
        "she",
        "let",
        "where",
        "how",
        "everything",
        "nothing",
        "something",
        "this",
    ];
    let lower =
        text.to_lowercase().replace(['\u{2019}', '\u{2018}'], "'").replace(['\u{201c}', '\u{201d}'], "\"");
    if !lower.contains("'s ") {
        return lower;
    }
    IS.replace_all(&lower, |c: &regex::Captures<'_>| match PRONOUNS.contains(&&c["thing"]) {
        true => c[0].to_owned(),
        false => format!("{} is {}", &c["thing"], &c["what"]),
    })
    .into_owned()
}

/// What a sentence states, if it states something durable.
fn classify(sentence: &str) -> Option<Reach> {
    classify_why(sentence).map(|(reach, _)| reach)
}

/// [`classify`], with why it applies where it does.
fn classify_why(sentence: &str) -> Option<(Reach, Why)> {
    if sentence.chars().count() > MAX_SENTENCE_CHARS || sentence.split_whitespace().count() < 3 {
        return None;
    }
    let whole = normalize(sentence);
    // Which language to answer in is said in the user's own language as often as not.
    if REPLY_LANGUAGE.is_match(&whole) {
        return Some((Reach::General, Why::ToTheAgent));
    }
    let announced = ANNOUNCED.is_match(&whole);
    let mut s = FILLER.replace(&whole, "").into_owned();
    let corrected = CORRECTION_LEAD.is_match(&s);
    s = CORRECTION_LEAD.replace(&s, "").into_owned();
    s = FILLER.replace(&s, "").into_owned();
    s = POLITE.replace(&s, "").into_owned();
    s = BEGINNING.replace(&s, "").into_owned();
    let led_by_project = PROJECT_LEAD.is_match(&s) && !HERE_POINTING.is_match(&s);
    let rest = if led_by_project { PROJECT_LEAD.replace(&s, "").into_owned() } else { s.clone() };
    let rest = POLITE.replace(&rest, "").into_owned();
    let rest = rest.trim();
    // The shorter reading wins: "for searching code use rg, not grep" has its rule at "use".
    let lead = CONDITION_LEAD.find(rest).map(|m| (m.as_str(), m.end()));
    let bare =
        CONDITION_BARE.captures(rest).and_then(|c| c.name("rule")).map(|m| (&rest[..m.start()], m.start()));
    let condition = match (lead, bare) {
        (Some(lead), Some(bare)) => Some(if bare.1 < lead.1 { bare } else { lead }),
        (lead, bare) => lead.or(bare),
    }
    // "when the migration runs, …" is of one thing; "whenever a PR touches the public API, …" of
    // any thing of a kind, whatever it touches.
    .filter(|(text, _)| !CONDITION_SPECIFIC.is_match(text) || ANY_OF_A_KIND.is_match(text));
    let rest = match condition {
        Some((_, end)) => POLITE.replace(&rest[end..], "").into_owned(),
        None => rest.to_owned(),
    };
    let rest = rest.trim();
    let conditioned_rule = condition.is_some()
        && (TASK_VERB.is_match(rest) || NEGATIVE_START.is_match(rest) || CONVENTION_VERB.is_match(rest));
    // A request that points at a habit without saying it ("set it up the way I usually do")
    // states nothing to keep.
    let habit = says_habit(rest) || conditioned_rule || standing_condition(rest);
    // A habit asked for ("could you always run the tests before committing?"), not of one thing
    // at hand ("can you always close the handle in this function"); what the condition after it
    // speaks of ("… before telling me it's done") is no thing at hand.
    let habit_asked = habit && !specific(HABIT_CONDITION.split(rest).next().unwrap_or(rest));
    if for_once(&whole)
        || DISMISSIVE.is_match(rest)
        || (WANTS_A_THING.is_match(rest) && !habit)
        || WORK_STATUS.is_match(rest)
        || (THING_NEEDS.is_match(rest) && !QUANTIFIER.is_match(rest))
    {
        return None;
    }
    if (WH_QUESTION.is_match(rest) && !remedy(rest))
        || ((rest.ends_with('?') || QUESTION_START.is_match(rest) || REQUEST.is_match(rest)) && !habit_asked)
    {
        return None;
    }
    if SPEC_SHOULD.is_match(rest) && !SHOULD.captures(rest).is_some_and(|c| c["subject"].ends_with('s')) {
        return None;
    }
    let preference =
        PREFERENCE.is_match(rest) && !PREFERENCE_ASKS.is_match(rest) && !FEELING_ABOUT.is_match(rest);
    let first_clause = rest.split([',', ';', '(']).next().unwrap_or(rest);
    let negative = NEGATIVE_START.is_match(rest) && !specific(first_clause);
    // "X should be …" of things in general (plural: "error messages"), not of one thing being
    // built ("the modal should close on escape").
    // A subject that is often one thing being worked on ("the tests") is a kind of thing when
    // no article points at one ("tests must not hit the network").
    let should = SHOULD.captures(rest).is_some_and(|c| {
        let subject = c.name("subject").map_or("", |m| m.as_str());
        subject.ends_with('s') && (!FACT_SUBJECT_EXCLUDED.is_match(subject) || !rest.starts_with("the "))
    }) && !trouble(rest)
        && !specific(first_clause)
        // "every endpoint must validate its input": one of a kind stands for all of them.
        || EVERY_MODAL.is_match(rest);
    let quirk = QUIRK.is_match(rest) || OWNS.is_match(rest);
    let quantified = QUANTIFIED
        .captures(rest)
        .is_some_and(|c| !FACT_SUBJECT_EXCLUDED.is_match(&c["subject"]) && !c["subject"].starts_with("time"))
        && !trouble(rest);
    // "port is 9090 now", "build runs on CI": a noun that is also a verb of work, as a subject.
    let words: Vec<&str> = rest.split_whitespace().take(3).collect();
    let subject_verb = words.get(1).is_some_and(|w| {
        matches!(
            *w,
            "is" | "are" | "was" | "were" | "has" | "have" | "stays" | "lives" | "runs" | "uses" | "needs"
        )
    }) || (
        // "commit messages follow …", "test files live …": a plural noun after it.
        words.get(1).is_some_and(|w| w.ends_with('s') && !w.ends_with("ss"))
            && words.get(2).is_some_and(|w| {
                matches!(
                    *w,
                    "follow"
                        | "use"
                        | "go"
                        | "live"
                        | "run"
                        | "need"
                        | "require"
                        | "stay"
                        | "are"
                        | "must"
                        | "start"
                        | "begin"
                        | "end"
                        | "get"
                        | "carry"
                        | "reference"
                )
            })
    );
    let rule_of_a_kind = policy(rest) || verbless_rule(rest) || by_place(rest);
    let how = how_to(rest);
    let starts_with_task = (TASK_VERB.is_match(rest) || bare_imperative(rest))
        && !subject_verb
        && !NEGATIVE_START.is_match(rest)
        && !convention_imperative(rest, &whole)
        && !rule_of_a_kind
        && !ANSWER_STYLE.is_match(rest)
        && !should
        && !quantified
        && !quirk;
    let pronoun_start = rest.starts_with("it") || rest.starts_with("that") || rest.starts_with("this ");
    let contrast = CONTRAST.is_match(&NO_IDIOM.replace_all(rest, "")) && !starts_with_task && !pronoun_start;
    let team = (TEAM_START.is_match(rest)
        && !TEAM_TASK.is_match(rest)
        && !trouble(rest)
        && rest.strip_prefix("our ").is_none_or(declarative))
        || team_habit(rest);
    let fact = is_fact(rest, corrected, announced || project_worded(&whole))
        || tool_does(rest)
        || (announced && ANNOUNCED_FACT.is_match(rest) && !trouble(rest))
        || passive_habit(rest);
    let placed = PLACEMENT.is_match(rest) && !trouble(rest) && !specific(first_clause);
    let setup = PERSONAL_SETUP
        .captures(rest)
        .is_some_and(|c| !PASSING_STATES.contains(&c.name("what").map_or("", |m| m.as_str())))
        && !trouble(rest);
    let remembered = INTRODUCTION.is_match(rest)
        || REMEMBER.is_match(rest)
        || my_way(rest)
        || (PERSONAL_FACT.is_match(rest) && !trouble(rest));
    let led_declarative = led_by_project && !TASK_VERB.is_match(rest) && !trouble(rest);
    let convention = convention_imperative(rest, &whole);
    if starts_with_task && !habit {
        return None;
    }
    let style = ANSWER_STYLE.is_match(rest);
    let led_everywhere = EVERYWHERE.is_match(&whole) && !TASK_VERB.is_match(rest) && !trouble(rest);
    let durable = habit
        || style
        || led_everywhere
        || preference
        || negative
        || contrast
        || team
        || fact
        || remembered
        || led_declarative
        || convention
        || placed
        || should
        || quantified
        || quirk
        || setup
        || you_rule(rest)
        || style_choice(rest)
        || how
        || rule_of_a_kind
        || (CHANGED_TO.is_match(rest) && !WORK_POSITION.is_match(rest) && !trouble(rest))
        || remedy(rest)
        || (corrected && CORRECTION.is_match(rest) && !pronoun_start);
    if !durable {
        return None;
    }
    let personal = INTRODUCTION.is_match(rest)
        || rest.starts_with("my ")
        || rest.starts_with("i ")
        || rest.starts_with("i'")
        || preference
        || setup
        || HABIT_OF_MINE.is_match(rest)
        || my_way(rest)
        || SPEAKER_REASON.is_match(&whole);
    // A later clause that states a fact of the project ("…, mypy runs in CI with --strict").
    let fact_clause = rest.split([',', ';']).skip(1).any(|clause| is_fact(clause.trim(), false, false));
    Some(reach_why(
        &whole,
        rest,
        personal,
        fact || placed
            || quantified
            || quirk
            || fact_clause
            || declarative(rest)
            || remedy(rest)
            || how
            || rule_of_a_kind,
    ))
}

/// Where a statement applies: everywhere when it says so; the project when it names it, speaks
/// for the team or says how things are in the code; the user when it speaks of them or of how
/// the agent is to work with them; else (an instruction with no place named) the user.
fn reach_of(whole: &str, rest: &str, personal: bool, about_the_code: bool) -> Reach {
    reach_why(whole, rest, personal, about_the_code).0
}

/// [`reach_of`], with why.
fn reach_why(whole: &str, rest: &str, personal: bool, about_the_code: bool) -> (Reach, Why) {
    let first_clause = rest.split([',', ';']).next().unwrap_or(rest);
    if EVERYWHERE.is_match(whole) {
        (Reach::General, Why::SaysEverywhere)
    } else if project_worded(whole) {
        (Reach::Project, Why::NamesTheProject)
    } else if TEAM_WORDING.is_match(whole) || team_habit(rest) {
        (Reach::Project, Why::SpeaksForTheTeam)
    } else if personal {
        (Reach::General, Why::AboutTheUser)
    } else if names_a_thing_of_the_project(first_clause) || WORKPLACE_THING.is_match(first_clause) {
        (Reach::Project, Why::NamesAThingOfTheProject)
    } else if TO_AGENT.is_match(whole) {
        (Reach::General, Why::ToTheAgent)
    } else if about_the_code || declarative(rest) {
        (Reach::Project, Why::AboutTheCode)
    } else {
        (Reach::General, Why::NoPlaceNamed)
    }
}

/// Things of the place the work is done for, which another project does not share: a team of it
/// ("without telling the mobile team") and what it built for itself ("the internal http wrapper",
/// "our in-house feature flag service").
static WORKPLACE_THING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bthe\ (?:[\w-]+\ )?(?:team|squad|guild)\b|\b(?:qa|ops|sre|devops|security|design|platform|infra|data)\ (?:team|folks|people)\b|\b(?:internal|in-house|homegrown|home-grown)\ (?:[\w-]+\ ){0,2}?(?:tools?|services?|library|libraries|lib|wrapper|client|sdk|api|packages?|framework|registry|mirror|cli|platform|module|helpers?|proxy|gateway|dashboard|wiki|docs|components?|design\ system|logger|runner)\b",
    )
});
/// Things only a project has: a path below its root (`gen/`, `pkg/legacy`, `./scripts/x.sh`), a
/// file of it, a make target, a package script, a namespaced task (`db:reset`), an environment
/// variable or an identifier of its code (`api_client`).
static PROJECT_THING: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[\s`(])(?:\./)?(?P<path>[a-z_][\w.-]*/(?:[\w.-]+/?)*)
      | \b[\w-]+\.(?:toml|json|ya?ml|env|ini|cfg|conf|lock|rs|py|ts|tsx|js|jsx|go|rb|sql|swift|kt|ex|exs|sh|proto|tf|gradle|xml|properties|java|cs|php|vue|svelte)\b
      | \bmake\ (?P<target>[a-z][\w-]*)
      | \b(?:npm|yarn|pnpm|bun)\ run\ [\w:-]+
      | (?:^|[\s`])[a-z]+:[a-z][\w:-]*
      | \b[a-z][a-z0-9]*_[a-z0-9_]+\b
    ")
});
/// Words shaped like a thing of a project that are general ("and/or", "snake_case").
const GENERAL_SHAPES: &[&str] = &[
    "and/or",
    "i/o",
    "ci/cd",
    "tcp/ip",
    "async/await",
    "read/write",
    "on/off",
    "yes/no",
    "client/server",
    "pros/cons",
    "either/or",
    "input/output",
    "try/catch",
    "he/she",
    "s/he",
    "his/her",
    "snake_case",
    "kebab_case",
    "camel_case",
    "screaming_snake_case",
    "pascal_case",
    "lower_case",
    "upper_case",
    "w/o",
    "w/",
    "n/a",
    "24/7",
    "e.g",
    "i.e",
    "etc/",
    // Folders every project of an ecosystem has.
    "node_modules",
    "node_modules/",
    "__pycache__",
    "dist/",
    "build/",
    "target/",
    "vendor/",
    "venv/",
    "tmp/",
];
/// Words after "make" that are not a target ("make sure", "make it").
const NOT_TARGETS: &[&str] = &[
    "sure",
    "it",
    "them",
    "this",
    "that",
    "the",
    "a",
    "an",
    "every",
    "each",
    "all",
    "any",
    "new",
    "small",
    "one",
    "things",
    "changes",
    "commits",
    "your",
    "my",
    "our",
    "me",
    "us",
    "tests",
    "functions",
    "names",
    "code",
    "clear",
    "room",
    "use",
    "no",
    "some",
    "more",
    "fewer",
    "less",
    "smaller",
    "bigger",
];

/// Whether a text names a thing only its project has (a path, a script, a make target …); a
/// path of the user's home (`~/notes`) or of the system (`/etc/hosts`) is not one: a path is
/// only read where a token starts.
fn names_a_thing_of_the_project(text: &str) -> bool {
    PROJECT_THING.captures_iter(text).any(|c| {
        let whole = c[0].trim_start_matches([' ', '`', '(']);
        if let Some(target) = c.name("target") {
            return !NOT_TARGETS.contains(&target.as_str());
        }
        if let Some(path) = c.name("path") {
            let path = path.as_str().trim_end_matches(['.', ',']);
            return !GENERAL_SHAPES.contains(&path) && !path.starts_with("http") && path.len() > 2;
        }
        !GENERAL_SHAPES.iter().any(|g| whole.starts_with(g)) && !whole.starts_with("http")
    })
}

/// A declarative fact about a thing with a value, one said as a correction ("the dev server is
/// on 5173 now"), or one `vouched` for (announced, or worded for the project).
fn is_fact(rest: &str, corrected: bool, vouched: bool) -> bool {
    // An aside in brackets says which thing is meant, not what is said of it ("the integration
    // tests (the ones behind the build tag) get their postgres from dockertest").
    static ASIDE: LazyLock<Regex> = LazyLock::new(|| re(r"\s*\([^()]*\)"));
    let plain = ASIDE.replace_all(rest, "");
    let rest = if FACT.is_match(rest) { rest } else { plain.as_ref() };
    let Some(captures) = FACT.captures(rest) else { return false };
    if FEELING_ABOUT.is_match(rest) {
        return false;
    }
    let subject = captures.name("subject").map_or("", |m| m.as_str());
    let tail = captures.name("tail").map_or("", |m| m.as_str());
    // What happens otherwise ("…, or they hang", "…, otherwise it fails") is why the fact
    // matters, not trouble being reported.
    static OTHERWISE: LazyLock<Regex> = LazyLock::new(|| re(r",?\s+(?:or\ else|or|otherwise|else)\s+\S.*$"));
    // "the build is green now", "the cache is stale": how a thing is at the moment (after "is";
    // "runs on" is where a thing runs).
    let verb = match (captures.name("subject"), captures.name("tail")) {
        (Some(s), Some(t)) => rest[s.end()..t.start()].trim(),
        _ => "",
    };
    let copula = matches!(verb, "is" | "are" | "is still");
    // "deployed with Kamal" says how, not how it is at the moment.
    let state = copula
        && !TOOLED.is_match(tail.trim_start_matches("now "))
        && tail.trim_start_matches("now ").split_whitespace().next().is_some_and(|word| {
            STATES.contains(&word.trim_end_matches([',', '.', '!'])) && !ARTICLES.contains(&word)
        });
    // "the test suite needs docker running", "the monorepo uses turborepo for task caching": what
    // a thing of the work needs or uses, by name.
    let requirement = (matches!(verb, "needs" | "requires" | "expects" | "uses")
        || (matches!(verb, "need" | "require" | "expect" | "use") && subject.ends_with('s')))
        && !subject.split_whitespace().any(|w| {
            matches!(w, "always" | "never" | "sometimes" | "usually" | "rarely" | "please" | "just" | "also")
        })
        && !search::concepts(tail).is_empty();
    // "the mobile app talks to the api through the bff layer", "PR titles follow the ticket id":
    // how the parts of the work connect, or what a kind of thing follows.
    let linked = matches!(
        verb,
        "talks"
            | "talk"
            | "calls"
            | "call"
            | "reads"
            | "read"
            | "sends"
            | "send"
            | "pulls"
            | "pull"
            | "follows"
            | "follow"
    ) && subject.split_whitespace().any(memory_core::search::software)
        && !AMISS.is_match(tail);
    // "the config has lineWidth 80": what a thing holds, by its value; "the build has errors" is
    // how it is at the moment.
    // What it must do ("has to exclude …") or a piece of it ("has a nested if in #call") is the
    // work, not a setting.
    let holds = matches!(verb, "has" | "have");
    if holds
        && tail.split_whitespace().next().is_some_and(|w| {
            matches!(w, "to" | "a" | "an" | "the" | "some" | "no" | "many" | "lots" | "too" | "got")
        })
    {
        return false;
    }
    !FACT_SUBJECT_EXCLUDED.is_match(subject)
        && (!(state || holds) || VALUE.is_match(tail))
        && !trouble(&OTHERWISE.replace(rest, ""))
        && (VALUE.is_match(tail)
            || TOOLED.is_match(tail)
            || names_a_thing(subject, tail)
            || requirement
            || linked
            || corrected
            || vouched
            || CORRECTION.is_match(rest))
}

/// What a tool of the work does, by its name: "Argo CD syncs from main", "renovate opens the bump
/// PRs", "sentry catches the worker errors". A tool's name tells the work from talk.
fn tool_does(rest: &str) -> bool {
    static DOES: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:the\ )?(?P<subject>[\w.+-]+(?:\ [\w.+-]+)?)\ (?:now\ |also\ |only\ |just\ )?(?P<verb>[a-z]{3,}s)\ (?P<tail>\S.*)",
        )
    });
    DOES.captures(rest).is_some_and(|c| {
        let subject = &c["subject"];
        // A product, not a word of the work that names a kind of thing ("commit messages …").
        search::tools(subject)
            .iter()
            .any(|tool| (subject.ends_with(tool) || subject.starts_with(tool)) && !search::software(tool))
            && !matches!(&c["verb"], "was" | "has" | "does" | "says" | "seems" | "looks" | "keeps" | "needs")
            && !c["verb"].ends_with("ss")
            && c["tail"].split_whitespace().count() >= 2
            && !trouble(rest)
    })
}

/// What to do when a thing of the project goes wrong ("if the e2e tests hang, kill the stale
/// chromedriver first"), or what fixed it ("the fix for the flaky upload test was a 30s
/// timeout"): a fix of the project, kept with its trouble.
static REMEDY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:if|when|whenever|any\ time)\ (?:the\ |your\ |a\ |an\ |our\ )?(?:[\w./:@-]+\ ){0,4}?
         (?:hang|hangs|fail|fails|break|breaks|crash|crashes|times?\ out|errors?\ out|is\ slow|are\ slow|won't\ (?:start|build|run)
           |doesn't\ (?:start|build|run)|gets?\ stuck|complains|goes\ red|is\ red|is\ flaky|are\ flaky|acts\ up|act\ up|misbehaves)\b
         [^,]*,\s*(?:just\ |first\ |then\ |usually\ |simply\ )?
         (?P<verb>kill|restart|clear|delete|remove|rerun|re-run|run|wipe|reset|bump|nuke|rebuild|reinstall|retry|stop|check|use|set|pass|add|raise|increase|drop|purge|flush|prune|reboot|update|upgrade|downgrade|pin|unset|export|source|log\ in|re-login|login)\b
      | ^(?:the\ |our\ |a\ )?(?:fix|workaround|solution|cure|trick|remedy)\ (?:for|to)\ [^,]{3,80}?\ (?:was|is|turned\ out\ to\ be)\ (?P<how>[\w'-]+)
      | ^what\ (?:fixed|fixes|solved|solves)\ (?:it|this|that|the\ [\w\ -]{2,40}?)\ (?:was|is)\ (?P<what>[\w'-]+)
      | ^(?:the\ |our\ |a\ )?(?P<thing>[\w./:@-]+)\ (?:[\w./:@-]+\ ){0,3}?
         (?:passes|pass|works|work|builds|build|starts|start|runs|run|succeeds|succeed|goes\ green|go\ green|connects|connect)
         \ (?:again\ |fine\ |only\ )?(?:if|once|when|after)\ (?:you|we|i)\ (?:first\ |just\ )?
         (?:kill|restart|clear|delete|remove|rerun|re-run|run|wipe|reset|bump|rebuild|reinstall|set|pass|add|raise|increase|purge|flush|prune|update|upgrade|downgrade|pin|unset|export|source|log\ in|login|seed|start|stop)\b
    ")
});
/// How to get a thing of the work done: "to regenerate the graphql types run pnpm codegen", "to
/// get a shell in the db container, use docker compose exec db psql".
static HOW_TO: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^to\ (?P<goal>(?:[\w'./:@-]+\ ){1,8}?[\w'./:@-]+),?\ (?:just\ |first\ |you\ (?:can\ |need\ to\ |have\ to\ |should\ )?)?
         (?:run|use|call|type|invoke|execute|set|export|pass|add)\ \S
    ")
});

/// Whether `rest` says how to get a thing of the work done ([`HOW_TO`]), not a turn of speech ("to
/// be honest, …") nor a goal of one thing ("to fix this, …").
fn how_to(rest: &str) -> bool {
    HOW_TO.captures(rest).is_some_and(|c| {
        let goal = &c["goal"];
        !goal.starts_with("be ")
            && !goal.starts_with("me ")
            && !specific(goal)
            && !DEFINITE_ONE.is_match(goal)
    })
}

/// A goal about one thing at hand: "fix this", "get it working".
static DEFINITE_ONE: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:this|that|it|these|those)\b"));

/// Whether `rest` says what to do when a thing of the project goes wrong, or what fixed it (not
/// how the fix stands: "the fix for the login bug is in review").
fn remedy(rest: &str) -> bool {
    REMEDY.captures(rest).is_some_and(|c| {
        c.name("how").or_else(|| c.name("what")).is_none_or(|how| !STATES.contains(&how.as_str()))
            && c.name("thing")
                .is_none_or(|thing| !matches!(thing.as_str(), "it" | "this" | "that" | "everything"))
    })
}

/// When a way of working holds, said after it: every time a kind of thing happens ("… after
/// pulling", "… before pushing", "… without asking Dana").
static TRAILING_CONDITION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:(?:after|before|when|whenever|once|without)\ \w+ing|every\ time|each\ time|whenever\ (?:you|we|i)|(?:on|to|in|for|with)\ (?:whatever|whichever|any|every|each)\ (?:\w+\ ){0,2}?(?:you|we|i)\ \w+)\b",
    )
});

/// Whether `rest` is a way of working tied to when it holds ("run db:reset after pulling schema
/// changes", "don't touch config/prod.yaml without asking Dana"), not a piece of work to do
/// before another ("fix the typo before merging", "run the migration before deploying").
fn standing_condition(rest: &str) -> bool {
    let procedure = CONVENTION_VERB.captures(rest).filter(|c| {
        // One definite thing to do something to is a piece of work; "the tests" are every time.
        let after: Vec<&str> =
            rest[c.name("object").map_or(0, |m| m.start())..].split_whitespace().take(2).collect();
        !matches!(after.as_slice(), [article, noun]
            if matches!(*article, "the" | "this" | "that" | "my" | "your" | "our") && !noun.ends_with('s'))
            && !matches!(after.first(), Some(&"it" | &"them"))
    });
    (procedure.is_some() || NEGATIVE_START.is_match(rest))
        && TRAILING_CONDITION.is_match(rest)
        && !trouble(rest)
}

/// Whether `rest` says, in the passive, how things of a kind are always done ("errors get
/// wrapped with context", "migrations are generated with alembic"): of a kind, when the subject
/// is plural, counted or said with a habit ("the changelog is always generated by CI"); not of
/// one thing being worked on ("the file is written to disk") nor trouble.
fn passive_habit(rest: &str) -> bool {
    PASSIVE_HABIT.captures(rest).is_some_and(|c| {
        let subject = &c["subject"];
        let first = subject.split_whitespace().next().unwrap_or_default();
        let counted = c.name("quantifier").is_some_and(|q| q.as_str() != "the ");
        let of_a_kind =
            (subject.ends_with('s') && !subject.ends_with("ss")) || counted || c.name("adverb").is_some();
        // "gets" says a habit of one thing too ("the changelog gets regenerated on release").
        let habitual = c["verb"].starts_with("get") || of_a_kind;
        let one_thing = FACT_SUBJECT_EXCLUDED.is_match(subject) && rest.starts_with("the ");
        habitual
            && !one_thing
            && !NOT_SUBJECTS.contains(&first)
            && !trouble(rest)
            && !specific(rest.split([',', ';']).next().unwrap_or(rest))
    })
}

/// An imperative that sets a convention ("indent with tabs", "use pnpm, not npm", "keep functions
/// small") rather than asking for a piece of work ("use the helper in utils.rs").
fn convention_imperative(rest: &str, whole: &str) -> bool {
    let Some(captures) = CONVENTION_VERB.captures(rest) else { return false };
    let object =
        captures.name("object").map_or("", |m| m.as_str()).trim_matches(|c: char| !c.is_alphanumeric());
    let first_clause = rest.split([',', ';']).next().unwrap_or(rest);
    let scoped = project_worded(whole) || CONTRAST.is_match(rest) || says_habit(rest);
    let strong = STRONG_CONVENTION_VERB.is_match(rest);
    if (DEFINITE_OBJECT.is_match(object) || (PREPOSITIONS.contains(&object) && !strong)) && !scoped {
        return false;
    }
    if specific(first_clause) && !scoped {
        return false;
    }
    let after_verb = &rest[captures.name("object").map_or(0, |m| m.start())..];
    let short = rest.split_whitespace().count() <= 6;
    // "bump the version in the instance setup": a verb of work aimed at one definite thing;
    // "put new endpoints behind the v2 router" is aimed at every thing of a kind.
    // "name branches after the ticket": a verb of how things look or are named, aimed at a kind
    // of thing (a plural with no article), is said of every one of them.
    let of_a_kind = matches!(object, "new" | "all" | "every" | "each" | "any")
        || (SHAPE_VERB.is_match(rest) && object.ends_with('s') && !object.ends_with("ss"));
    let aimed = !strong && !of_a_kind && DEFINITE.is_match(after_verb);
    // "bump terraform to 1.10.3 there and re-plan staging": one piece of work after another.
    if !scoped && THEN_WORK.is_match(after_verb) {
        return false;
    }
    scoped || (MANNER.is_match(after_verb) && !aimed) || (short && strong)
}

/// A second piece of work joined to the first: "… and re-plan staging", "…, then open a PR".
static THEN_WORK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:\band|,)\s+(?:then\s+)?(?:re-?(?:plan|run|deploy|apply|build|test|start|generate)|fix|add|open|push|commit|merge|deploy|restart|rerun|apply|plan|ship|send|tell|show|update|remove|delete|rename|move|check|run|test|build|release|tag)\b\s+(?:it|that|them|this|the|a|an|my|our|\w+)",
    )
});

/// Splits text into trimmed sentences at line breaks and at `.`, `!`, `?` followed by a space.
/// Fenced code and quoted lines (`> …`) are left out: they are pasted, not said.
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced || trimmed.starts_with('>') || line.starts_with("    ") || line.starts_with('\t') {
            continue;
        }
        let mut current = String::new();
        let mut chars = line.char_indices().map(|(at, c)| (c, &line[at + c.len_utf8()..])).peekable();
        let mut in_code = false;
        while let Some((c, after)) = chars.next() {
            current.push(c);
            if c == '`' {
                in_code = !in_code;
            }
            // A mark closed by a bracket or quote ends the sentence too: "(… nobody noticed.) When".
            let closed = matches!(c, ')' | '"' | '”' | '\'')
                && current[..current.len() - c.len_utf8()].ends_with(['.', '!', '?'])
                && ends_sentence(&current[..current.len() - c.len_utf8()]);
            if !in_code
                && (matches!(c, '.' | '!' | '?') && (ends_sentence(&current) || list_closed(&current, after))
                    || closed)
                && chars.peek().is_none_or(|(n, _)| n.is_whitespace())
            {
                push_sentence(&mut out, &current);
                current.clear();
            }
        }
        push_sentence(&mut out, &current);
    }
    out
}

/// Whether the "etc." `text` ends with closes its sentence as well as its list: what follows
/// opens another, with a capital, a subject or a request ("no LazyLock etc. make me a branch").
fn list_closed(text: &str, after: &str) -> bool {
    static OPENS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:i|i'm|i've|we|we're|you|it|it's|this|that|that's|the|my|our|also|then|now|please|pls|and\s+then)\b",
        )
    });
    let next = after.trim_start();
    word_before_stop(text).eq_ignore_ascii_case("etc")
        && (next.starts_with(char::is_uppercase) || {
            let next = next.to_lowercase();
            OPENS.is_match(&next) || TASK_VERB.is_match(&next)
        })
}

/// Abbreviations whose full stop does not end a sentence.
const ABBREVIATIONS: &[&str] =
    &["e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "esp", "aka", "a.k.a", "w.r.t", "resp", "viz"];

/// Whether the `.`, `!` or `?` that `text` ends with ends a sentence: not one standing alone
/// (`git add .`), not an ellipsis, not an abbreviation's.
fn ends_sentence(text: &str) -> bool {
    let mut back = text.chars().rev();
    let mark = back.next();
    let before = back.next();
    if mark != Some('.') {
        return true;
    }
    if before.is_none_or(|c| c.is_whitespace() || c == '.') {
        return false;
    }
    !ABBREVIATIONS.contains(&word_before_stop(text).to_lowercase().as_str())
}

/// The word the mark `text` ends with closes ("etc" of "… LazyLock etc.").
fn word_before_stop(text: &str) -> &str {
    text[..text.len() - 1].rsplit(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("")
}

fn push_sentence(out: &mut Vec<String>, raw: &str) {
    let sentence = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = sentence.trim_start_matches(['-', '*', '+', ' ']).trim();
    if !sentence.is_empty() {
        out.push(sentence.to_owned());
    }
}

/// Words that carry no topic: function words, the vocabulary of rules and corrections.
const STOP_WORDS: &[&str] = &[
    "the",
    "a",
    "an",
    "and",
    "or",
    "but",
    "for",
    "with",
    "this",
    "that",
    "these",
    "those",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "to",
    "of",
    "in",
    "on",
    "at",
    "by",
    "from",
    "as",
    "it",
    "its",
    "we",
    "our",
    "us",
    "i",
    "my",
    "me",
    "you",
    "your",
    "now",
    "moved",
    "move",
    "moving",
    "switched",
    "switch",
    "switching",
    "migrated",
    "migrate",
    "migrating",
    "changed",
    "change",
    "upgraded",
    "downgraded",
    "ignore",
    "forget",
    "about",
    "stuff",
    "bits",
    "part",
    "parts",
    "use",
    "used",
    "using",
    "uses",
    "always",
    "never",
    "please",
    "here",
    "repo",
    "repository",
    "project",
    "codebase",
    "crate",
    "workspace",
    "instead",
    "rather",
    "than",
    "not",
    "no",
    "longer",
    "anymore",
    "any",
    "more",
    "actually",
    "do",
    "does",
    "did",
    "don",
    "dont",
    "doesn",
    "isn",
    "aren",
    "won",
    "didn",
    "can",
    "cannot",
    "should",
    "must",
    "run",
    "runs",
    "running",
    "lives",
    "live",
    "sits",
    "listens",
    "go",
    "goes",
    "via",
    "through",
    "over",
    "under",
    "so",
    "just",
    "also",
    "then",
    "when",
    "all",
    "every",
    "each",
    "one",
    "some",
    "only",
    "really",
    "prefer",
    "like",
    "want",
    "love",
    "hate",
    "re",
    "ve",
    "s",
    "t",
    "ll",
    "d",
    "m",
    "last",
    "week",
    "month",
    "new",
    "old",
    "version",
    "there",
    "they",
    "them",
    "up",
    "out",
    "into",
    "onto",
    "per",
    "too",
    "very",
    "still",
    "yet",
    "what",
    "which",
    "who",
    "will",
    "would",
    "could",
    "may",
    "might",
    "shall",
    "have",
    "has",
    "had",
    "get",
    "got",
    "make",
    "made",
    "ok",
    "okay",
    "yes",
    "nope",
    "localhost",
    "port",
    "ports",
    "server",
    "http",
    "https",
    "www",
    "com",
    "wait",
    "sorry",
    "fine",
    "thing",
    "things",
    "way",
    "time",
    "start",
];

/// What a statement asserts, for comparing it with others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Claim {
    key: String,
    negative: bool,
    subject: String,
    /// Topic words (no numbers, no function words).
    words: BTreeSet<String>,
    /// Every token (words and numbers), in order.
    tokens: Vec<String>,
    numbers: BTreeSet<String>,
    ports: BTreeSet<String>,
    /// What the statement names as replaced or ruled out: `Y` of "instead of Y", "X, not Y",
    /// "switched from Y", "ignore the Y stuff", "don't use Y any more".
    replaced: Vec<String>,
    /// Whether it is said as a correction ("now", "moved to", "actually", "no longer").
    corrects: bool,
    /// Whether it adds to what was said rather than replacing it ("also", "too").
    adds: bool,
    /// Ports it is about, when it speaks of the port generically ("the port is 5173 now").
    port_words: bool,
    /// A kind of tool it says another tool took over ("the container setup …, everything runs on
    /// podman now": `container`), with the tools of that kind it keeps: the others of the kind
    /// are replaced.
    replaced_kind: BTreeSet<String>,
    kind_kept: BTreeSet<String>,
}

/// Words saying one thing took another's place.
const SWITCH_WORDS: &[&str] =
    &["moved", "switched", "migrated", "changed", "upgraded", "converted", "replaced", "went"];

static REPLACED: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    const Y: &str = r"(?P<y>`[^`]+`|[\w.+#@/-]+(?: \d[\w.]*)?)";
    [
        format!(r"\b(?:instead of|rather than) {Y}"),
        format!(r", (?:and )?(?:not|never|no) (?:use |using |run |running |with )?{Y}"),
        format!(r"\b(?:use|prefer|want|pick|choose) \S+(?: \S+)? not {Y}"),
        format!(r"\bprefer\b.*\bover {Y}"),
        format!(
            r"\b(?:switched|switching|moved|moving|migrated|migrating|changed|went|upgraded|downgraded|converted) (?:over |everything |all )?(?:from|off) {Y}"
        ),
        format!(
            r"\bignore (?:the |all the |any |anything about )?{Y} (?:stuff|bits|parts?|setup|config|instructions|notes?|version|one|thing|things|info|references?)\b"
        ),
        format!(r"\bforget (?:about )?(?:the )?{Y} (?:stuff|bits|parts?|setup|config|version|one|thing)\b"),
        format!(
            r"\b(?:don't|do not|dont|never|no longer|stop|won't|doesn't|does not|aren't|isn't|not) (?:use|using|run|running|need|rely on|depend on|deploy to|deploy on|on|with) {Y}"
        ),
        format!(r"\bno longer (?:on |in |at |with )?{Y}"),
        format!(r"\bno more {Y}"),
        format!(r"\b(?:never|no) {Y} (?:here|in here|in this \w+|for this \w+|on this \w+)\b"),
        format!(r"\breplaced? {Y} with\b"),
        format!(r"^(?:please )?avoid {Y}"),
    ]
    .iter()
    .map(|p| re(p))
    .collect()
});
/// Words that are not a replaced value.
const NOT_VALUES: &[&str] = &[
    "the",
    "a",
    "an",
    "it",
    "that",
    "this",
    "them",
    "anything",
    "any",
    "everything",
    "something",
    "you",
    "me",
    "us",
    "one",
    "there",
    "here",
    "to",
    "be",
    "so",
    "just",
    "really",
    "even",
    "yet",
    "always",
    "now",
    // "never in the repo", "not on main": where, not what.
    "in",
    "on",
    "at",
    "into",
    "inside",
    "under",
    "with",
    "by",
    "for",
    "of",
];
/// Tokens that, just before a mention, say the mention is ruled out rather than asserted.
const NEGATING: &[&str] = &[
    "not", "no", "never", "don", "dont", "avoid", "stop", "instead", "rather", "ignore", "without", "from",
    "over", "longer", "isn", "aren", "doesn", "won", "didn", "t", "forget", "replaced", "replace", "off",
    "drop", "dropped",
];

/// Reads a statement.
pub(crate) fn claim(text: &str) -> Claim {
    let lower = normalize(text);
    let stripped = CORRECTION_LEAD.replace(FILLER.replace(&lower, "").trim(), "").into_owned();
    let negative = NEGATIVE_START.is_match(POLITE.replace(&stripped, "").trim());
    let subject: String = LEAD_WORDS
        .replace(&stripped, "")
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { ' ' })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let tokens = split_tokens(&lower);
    let numbers: BTreeSet<String> = tokens.iter().filter(|t| is_number(t)).cloned().collect();
    let words: BTreeSet<String> = tokens
        .iter()
        .filter(|t| !is_number(t) && !t.chars().any(|c| c.is_ascii_digit()))
        .filter(|t| t.len() >= 2 && !STOP_WORDS.contains(&t.as_str()))
        .cloned()
        .collect();
    let mut replaced = Vec::new();
    for pattern in REPLACED.iter() {
        for captures in pattern.captures_iter(&stripped) {
            let y = captures.name("y").expect("every pattern captures y");
            let value =
                y.as_str().trim_matches(|c: char| matches!(c, '.' | ',' | ';' | ':' | '!' | ')' | '('));
            let mut value = value.replace('`', "");
            // A program ruled out with its subcommand ("don't use git add .") rules out that
            // command, not every use of the program.
            if let Some(sub) = subcommand_after(&stripped[y.end()..])
                && y.as_str() == value
                && value.starts_with(|c: char| c.is_ascii_alphabetic())
            {
                value = format!("{value} {sub}");
            }
            if !value.is_empty() && !NOT_VALUES.contains(&value.as_str()) && !replaced.contains(&value) {
                replaced.push(value);
            }
        }
    }
    let ports: BTreeSet<String> = values::ports(&lower).into_iter().collect();
    let corrects = CORRECTION_LEAD.is_match(FILLER.replace(&lower, "").trim())
        || CORRECTION.is_match(&stripped)
        || CHANGED_TO.is_match(&stripped);
    let adds = ADDS.is_match(&lower);
    let port_words = tokens.iter().any(|t| t == "port" || t == "ports");
    Claim {
        key: lower,
        negative,
        subject,
        words,
        tokens,
        numbers,
        ports,
        replaced,
        corrects,
        adds,
        port_words,
        replaced_kind: BTreeSet::new(),
        kind_kept: BTreeSet::new(),
    }
}

/// Words after a ruled-out value that go on with the sentence rather than name a subcommand.
const NOT_SUBCOMMANDS: &[&str] = &[
    "or",
    "and",
    "for",
    "in",
    "with",
    "to",
    "anything",
    "anymore",
    "any",
    "here",
    "there",
    "at",
    "on",
    "please",
    "pls",
    "ever",
    "again",
    "now",
    "the",
    "a",
    "an",
    "instead",
    "either",
    "because",
    "since",
    "so",
    "but",
    "when",
    "if",
    "unless",
    "except",
    "directly",
    "by",
    "from",
    "as",
    "is",
    "are",
    "was",
    "it",
    "this",
    "that",
    "either",
    "anywhere",
    "too",
    "yourself",
    "without",
    "over",
    "than",
    "until",
    "stuff",
    "bits",
    "bit",
    "part",
    "parts",
    "setup",
    "config",
    "instructions",
    "notes",
    "note",
    "version",
    "one",
    "thing",
    "things",
    "info",
    "reference",
    "references",
    "anymore",
    "style",
    "way",
    "approach",
];

/// The subcommand right after a ruled-out program (`git add` in "don't use git add . here").
fn subcommand_after(rest: &str) -> Option<&str> {
    let rest = rest.strip_prefix(' ')?;
    let word = rest.split([' ', ',', ';', '.', ':', '!', '?', ')']).next()?;
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    (plain && !NOT_SUBCOMMANDS.contains(&word)).then_some(word)
}

fn split_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in values::tokens(text) {
        // `postgres14`, `node20`, `v16`: a name and its version.
        let digits = token.find(|c: char| c.is_ascii_digit());
        match digits {
            Some(at) if at > 0 && token[at..].chars().all(|c| c.is_ascii_digit() || c == '.') => {
                let name = &token[..at];
                if name != "v" {
                    out.push(name.to_owned());
                }
                out.push(token[at..].trim_end_matches('.').to_owned());
            }
            _ => out.push(token),
        }
    }
    out
}

/// Whether `tokens` name the tool of `value` (a name and a version: `gcc`, `12`) at that version,
/// by its name or another of the same kind (`g++-12`, `gcc-12`, `gcc12`) that the statement
/// (`said`) does not name itself ("from npm 9 to pnpm 9" keeps `pnpm@9`).
fn same_tool_at_version(value: &[String], tokens: &[String], said: &[String]) -> bool {
    let [name, version] = value else { return false };
    if !is_number(version) || is_number(name) {
        return false;
    }
    let kind = |name: &str| {
        let name = name.trim_end_matches(['-', '_', '.', '@', ':']);
        (name.to_owned(), search::concepts(name))
    };
    let (name, concepts) = kind(name);
    tokens.windows(2).any(|pair| {
        if pair[1] != *version || is_number(&pair[0]) {
            return false;
        }
        let (other, other_concepts) = kind(&pair[0]);
        other == name
            || (!concepts.is_empty()
                && concepts == other_concepts
                && !said.iter().any(|t| t.trim_end_matches(['-', '_', '.', '@', ':']) == other))
    })
}

fn is_number(token: &str) -> bool {
    token.starts_with(|c: char| c.is_ascii_digit()) && token.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// Topic words with a number at most three tokens after them ("msrv here is 1.75").
fn numbered_words(tokens: &[String]) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    for (at, token) in tokens.iter().enumerate() {
        if is_number(token) {
            for word in &tokens[at.saturating_sub(3)..at] {
                if word.len() >= 2 && !is_number(word) && !STOP_WORDS.contains(&word.as_str()) {
                    out.insert(word.as_str());
                    // A compound names what its parts name: `rust-version` and "rust version".
                    out.extend(
                        word.split(['-', '_']).filter(|part| part.len() >= 2 && *part != word.as_str()),
                    );
                }
            }
        }
    }
    out
}

fn position_of(haystack: &[String], needle: &[String]) -> Vec<usize> {
    if needle.is_empty() || needle.len() > haystack.len() {
        return Vec::new();
    }
    (0..=haystack.len() - needle.len()).filter(|&i| haystack[i..i + needle.len()] == *needle).collect()
}

/// Whether `tokens` assert `value` somewhere: they mention it, and not right after a word that
/// rules it out ("not npm", "instead of jest", "from yarn").
fn asserts(tokens: &[String], value: &[String]) -> bool {
    position_of(tokens, value)
        .into_iter()
        .any(|at| !tokens[at.saturating_sub(3)..at].iter().any(|t| NEGATING.contains(&t.as_str())))
}

impl Claim {
    /// Whether this statement and an earlier one both give numbers ("we're ios 16 / macos 13
    /// now" after "we support ios 15 and macos 12"): a new number may replace the old whatever
    /// the words around it.
    pub(crate) fn numbers_beside(&self, earlier: &str) -> bool {
        !self.numbers.is_empty() && !claim(earlier).numbers.is_empty()
    }

    /// Whether this (later) statement supersedes an earlier one: it reverses it ("always X" after
    /// "never X"), rules out what the earlier one asserts ("not npm", "ignore the 14 stuff"), or
    /// gives the same thing a new value ("the dev server is on 5173 now" after "… runs on
    /// localhost:3000").
    pub(crate) fn supersedes(&self, earlier: &str) -> bool {
        let old = claim(earlier);
        if old.key == self.key {
            return false;
        }
        if old.negative != self.negative && !self.subject.is_empty() && old.subject == self.subject {
            return true;
        }
        if self.rules_out(&old) {
            return true;
        }
        if self.adds {
            return false;
        }
        let shared = self.words.intersection(&old.words).count();
        if !self.numbers.is_empty() && !old.numbers.is_empty() && self.numbers.is_disjoint(&old.numbers) {
            let frame = |tokens: &[String]| -> Vec<String> {
                tokens.iter().map(|t| if is_number(t) { "#".to_owned() } else { t.clone() }).collect()
            };
            let same_frame = frame(&self.tokens) == frame(&old.tokens);
            if same_frame || (!self.words.is_empty() && self.words == old.words) {
                return true;
            }
            let enough = if self.words.len() == 1 { shared == 1 } else { shared >= 2 };
            if self.corrects && enough {
                return true;
            }
            // A correction giving a new number to the word an earlier statement gave one to
            // ("MSRV here is 1.75", then "we bumped the MSRV to 1.82").
            if self.corrects && !numbered_words(&self.tokens).is_disjoint(&numbered_words(&old.tokens)) {
                return true;
            }
        }
        if self.corrects
            && !self.ports.is_empty()
            && !old.ports.is_empty()
            && self.ports.is_disjoint(&old.ports)
        {
            let generic = self.port_words && self.words.is_empty();
            if generic || shared >= 1 {
                return true;
            }
        }
        if self.corrects && old.negative == self.negative && self.replaces_a_tool_of_its_kind(&old, shared) {
            return true;
        }
        if self.corrects && old.negative == self.negative && self.numbers.is_empty() {
            let added = self.words.difference(&old.words).count();
            let dropped = old.words.difference(&self.words).count();
            if (1..=2).contains(&added) && (1..=2).contains(&dropped) && shared >= added.max(dropped) {
                return true;
            }
        }
        false
    }

    /// Whether this correction names a tool of a kind an earlier statement named another tool
    /// of ("I changed my editor to zed" after "my editor is vscode", "we moved to pnpm" after "we
    /// use npm here"): sharing a word with it, or a switch said by the same voice ("I" after
    /// "I", "we" after "we"). A tool both name is not replaced; "I'm on zsh these days" leaves
    /// "I use tmux all day".
    fn replaces_a_tool_of_its_kind(&self, old: &Claim, shared: usize) -> bool {
        let voice = |tokens: &[String]| match tokens.first().map(String::as_str) {
            Some("i" | "i'm" | "i've" | "my") => Some("user"),
            Some("we" | "we're" | "we've" | "our") => Some("team"),
            _ => None,
        };
        let same_voice = voice(&self.tokens).is_some() && voice(&self.tokens) == voice(&old.tokens);
        let switched = self.tokens.iter().any(|t| SWITCH_WORDS.contains(&t.as_str()));
        let kinds = |tokens: &[String], other: &[String]| -> BTreeSet<&'static str> {
            tokens
                .iter()
                .filter(|t| t.len() >= 2 && !other.contains(t) && !STOP_WORDS.contains(&t.as_str()))
                .flat_map(|t| search::concepts(t))
                .collect()
        };
        let shared_kinds: BTreeSet<&str> = kinds(&self.tokens, &old.tokens)
            .intersection(&kinds(&old.tokens, &self.tokens))
            .copied()
            .collect();
        // "my shell is bash", then "I'm on zsh these days": the earlier statement names the kind
        // itself, and the later one says it holds now.
        let names_the_kind = self.corrects
            && shared_kinds.iter().any(|kind| {
                search::words(kind).iter().any(|word| word.len() >= 4 && old.tokens.contains(word))
            });
        if shared == 0 && !(same_voice && (switched || names_the_kind)) {
            return false;
        }
        !shared_kinds.is_empty()
    }

    /// Whether an earlier statement asserts what this one names as replaced.
    fn rules_out(&self, old: &Claim) -> bool {
        self.replaced.iter().any(|value| {
            let value = split_tokens(value);
            if value.is_empty() || !asserts(&old.tokens, &value) {
                return false;
            }
            // A bare number ("the 14 stuff") needs the topic too ("Postgres 14").
            !value.iter().all(|t| is_number(t)) || !self.words.is_disjoint(&old.words)
        })
    }

    /// Adds values this statement rules out beyond those it names ("we dropped celery" rules out
    /// `celery`; a retired item's `g++-13` goes with it).
    pub(crate) fn rule_out(&mut self, values: impl IntoIterator<Item = String>) {
        for value in values {
            if !value.is_empty() && !self.replaced.contains(&value) {
                self.replaced.push(value);
            }
        }
    }

    /// Whether an earlier line of a note asserts what this statement names as replaced: the one
    /// supersession a reader can check without knowing how the line was meant.
    pub(crate) fn rules_out_line(&self, line: &str) -> bool {
        let old = claim(line);
        old.key != self.key && self.rules_out(&old)
    }

    /// What this statement names as replaced, for messages.
    pub(crate) fn replaced(&self) -> &[String] {
        &self.replaced
    }

    /// Whether a command the agent ran depends on what this statement rules out or corrects: the
    /// program or command it names as replaced (`npm`, `` `npm test` ``), a replaced value on the
    /// statement's topic (`postgres:14`), or another port than the one it gives.
    pub(crate) fn retires_command(&self, command: &str) -> bool {
        if self.names_replaced(command) {
            return true;
        }
        let tokens = split_tokens(command);
        if self.corrects && !self.ports.is_empty() {
            let used: BTreeSet<String> = values::ports(command).into_iter().collect();
            if !used.is_empty() && used.is_disjoint(&self.ports) {
                return true;
            }
        }
        if self.corrects && !self.numbers.is_empty() {
            return tokens.windows(2).any(|pair| {
                self.words.contains(&pair[0]) && is_number(&pair[1]) && !self.numbers.contains(&pair[1])
            });
        }
        false
    }

    /// Whether a command or a line about one names what this statement names as replaced: the
    /// program or command (`npm`, `` `npm test` ``), a value with a shape of its own
    /// (`europe-west1`), a tool at the replaced version however spelt (`g++-12` for "gcc 12"),
    /// or a replaced number on the statement's topic (`postgres:14`).
    pub(crate) fn names_replaced(&self, command: &str) -> bool {
        let tokens = split_tokens(command);
        let invocations: Vec<shell::Invocation> =
            shell::simple_commands(command).iter().filter_map(|w| shell::invocation(w)).collect();
        if invocations.iter().any(|i| self.of_replaced_kind(&i.program)) {
            return true;
        }
        self.replaced.iter().any(|value| {
            let value_tokens = split_tokens(value);
            let lower = value.to_lowercase();
            if invocations
                .iter()
                .any(|i| i.program == lower || i.family() == lower || i.runners.contains(&lower))
            {
                return true;
            }
            if value_tokens.iter().all(|t| is_number(t)) {
                let on_topic = tokens.iter().any(|t| self.words.contains(t));
                return on_topic && !position_of(&tokens, &value_tokens).is_empty();
            }
            ((value_tokens.len() > 1 || value.contains(['-', '.', '/', '+', '_']))
                && !position_of(&tokens, &value_tokens).is_empty())
                || same_tool_at_version(&value_tokens, &tokens, &self.tokens)
        })
    }

    /// Whether the statement names `tool` (a program) as replaced ("use pnpm, not npm"), or as
    /// one of a kind another tool took over.
    pub(crate) fn rules_out_tool(&self, tool: &str) -> bool {
        self.replaced.iter().any(|value| value.eq_ignore_ascii_case(tool)) || self.of_replaced_kind(tool)
    }

    /// Rules out every tool of a kind but those it keeps: the tools of the kind `topics` name,
    /// when a tool it names is of that kind ("the container setup from last time, throw that
    /// out: everything runs on podman now").
    pub(crate) fn replace_kind(&mut self, topics: &BTreeSet<String>, named: &[&str]) {
        let kinds: BTreeSet<String> = named
            .iter()
            .flat_map(|tool| concept_words(tool))
            .filter(|topic| topics.contains(topic))
            .collect();
        if !kinds.is_empty() {
            self.kind_kept.extend(named.iter().map(|tool| tool.to_lowercase()));
            self.replaced_kind.extend(kinds);
        }
    }

    fn of_replaced_kind(&self, tool: &str) -> bool {
        let tool = tool.to_lowercase();
        !self.replaced_kind.is_empty()
            && !self.kind_kept.contains(&tool)
            && search::tools(&tool).contains(&tool.as_str())
            && !concept_words(&tool).is_disjoint(&self.replaced_kind)
    }
}

#[cfg(test)]
mod tests;
