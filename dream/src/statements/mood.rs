//! A sentence's mood and reach: whether it is said to last, or is a question, a hypothetical,
//! someone else's opinion, a story about the past, a joke, or carries a secret. None of those is
//! a rule, whatever words of rules ("always", "never", "don't") it holds.
//!
//! Every check reads a normalised sentence (lowercase, plain quotes) with its leading fillers
//! removed.

use std::sync::LazyLock;

use regex::Regex;

use super::re;

/// Why a sentence is not a lasting statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotLasting {
    /// Asked, with or without a question mark ("should we always squash?", "I wonder if …").
    Question,
    /// Only imagined or guessed ("if we ever …", "what if …", "my guess is …").
    Hypothetical,
    /// Somebody else's words ("my lead says …", "the docs claim …").
    Reported,
    /// How things were ("last year we always used Jenkins", "at my old job we never …").
    Past,
    /// Said in jest ("… lol", "tempted to …", "love that for me").
    Joke,
    /// A complaint of the moment ("ugh, we always forget the changelog").
    Vent,
    /// A password, token or other credential, or text already redacted.
    Secret,
    /// Said for one run only ("just for today", "for now", "this time").
    OneOff,
    /// What a piece of work asked for in the same sentence must do ("add --dry-run; in dry run it
    /// must never touch the file").
    TaskRequirement,
    /// Something going wrong now, told as the work at hand ("my runs don't show up in the
    /// dashboard", "the worker is in CrashLoopBackOff").
    Trouble,
    /// A line pasted from a tool's output ("error: linking with `cc` failed", "WARNING: REMOTE
    /// HOST IDENTIFICATION HAS CHANGED").
    Output,
}

impl NotLasting {
    /// What the sentence is, for a message: "a question", "a one-off".
    pub(crate) fn what(self) -> &'static str {
        match self {
            Self::Question => "a question, not a statement",
            Self::Hypothetical => "a hypothetical or a guess, not how things are",
            Self::Reported => "somebody else's words, not the user's",
            Self::Past => "a story of how things were",
            Self::Joke => "said in jest",
            Self::Vent => "a complaint of the moment, not a rule",
            Self::Secret => "a credential or a redaction marker",
            Self::OneOff => "a one-off, said for one run only",
            Self::TaskRequirement => "what a requested piece of work must do, not a lasting rule",
            Self::Trouble => "a report of something going wrong now, not how things are",
            Self::Output => "a line of a tool's output, not something the user says",
        }
    }
}

/// A question asked without a question mark, by how it opens.
static ASKS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:do\ you\ think|d'you\ think|you\ think|what\ do\ you\ think|do\ we\ (?:want|need)\ to
          |should\ (?:we|i|it|they)|shall\ we|ought\ we
          |i\ (?:was\ )?wonder(?:ing)?|wondering|i'm\ wondering|(?:i'm\ |i\ am\ )?curious\ (?:if|whether|to\ (?:know|hear|see))
          |(?:(?:can|could|would|will)\ (?:you|u)\ )?(?:please\ )?(?:go\ )?(?:check|see|verify|confirm|find\ out|figure\ out|work\ out
             |double[-\ ]check|look\ into|investigate|test|ask\ \w+|tell\ me)\ (?:if|whether)
          |would\ it|would\ an?\ |would\ that|would\ this|is\ it\ (?:worth|better|ok|okay|fine|a\ good\ idea|wise|bad)
          |does\ it\ make\ sense|does\ that\ make\ sense|any\ (?:thoughts|opinion|idea)s?|thoughts\ on
          |(?:i'm\ )?not\ sure\ (?:if|whether)|i\ can't\ decide|maybe\ we\ should|perhaps\ we\ should
          |how\ about|what\ about|why\ not
          |is\ there\ (?:any|a|some)\ (?:reason|point|need|benefit|downside|harm|case)|any\ reason\ (?:not\ )?to
          |(?:i\ was|i'm|i\ am|we\ were)\ thinking\ (?:maybe|perhaps|we\ could|we\ should|of|about|that\ maybe)
          |(?:i|we)\ (?:\w+\ ){0,2}?(?:know|remember|forget|forgetting|recall|sure|certain|wonder)
             \ (?:whether|if)\b)\b
      | (?:,|\s-)\s*(?:what\ do\ you\ (?:reckon|think|say)|wdyt|thoughts|any\ thoughts|right|no|or\ not|yes\ or\ no)\s*[.!]*$
      | [,;:]\s*(?:so\ |and\ |but\ )?(?:how\ (?:do|can|should|would|could)\ (?:i|we|you)|how\ come|what\ (?:do|should|can)\ (?:i|we)
          |what(?:'s|\ is)\ (?:the\ )?(?:fix|cause|problem|way|best\ way)|why\ (?:is|does|do|are|did|would)\b|where\ (?:do|can|should)\ (?:i|we)
          |can\ (?:i|we)|is\ there\ (?:a|any)\ way|any\ ideas?\b|ideas\b|what\ now)
    ")
});
/// Something going wrong now, as the work at hand is told: a thing that does not work, show up or
/// start, keeps crashing, is down or in a crash loop, fails on the speaker's own work. Said under
/// a condition or with its cause ("… when the cache is cold", "… because of the date picker") it
/// can be how things are, and is not read as trouble.
static TROUBLE_NOW: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|\s)(?P<subject>[\w.-]+)\s(?P<negated>(?:doesn't|don't|does\ not|do\ not|isn't|aren't|won't|wont|can't|cannot)
             \ (?:show\ up|showing\ up|work|working|load|loading|start|starting|build|compile|compiling|run|running
                |connect|boot|open|appear|render|deploy|sync|resolve)\b)
          |\b(?:(?:stopped|stops)\ (?:working|compiling|building|loading|starting|syncing|responding)
          |keeps?\ (?:crashing|failing|restarting|dying|timing\ out|hanging|erroring)
          |(?:is|are)\ (?:in\ crashloopbackoff|crashlooping|down|broken|failing|erroring|timing\ out|hanging|stuck)
          |(?:fails|failed|broke)\ (?:on|for|in)\ (?:my|our|this)\b
          |(?:were|was|is|are)\ (?:blank|empty)\ (?:today|again|now|this\ morning)
          |throws?\ (?:an?\ )?\w*(?:error|exception)
          |returns?\ (?:an?\ )?(?:500|502|503|504)\b)
    ")
});
/// What makes a report of going wrong a statement of how things are: a condition, a cause, when
/// it recurs, a rule.
static HOLDS_WHEN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:if|when|whenever|unless|because|since|every\ (?:day|night|morning|week|month|release|time)|on\ weekends|(?:mon|tues|wednes|thurs|fri|satur|sun)days|always|never|must|should|make\ sure|remember)\b",
    )
});

/// Whether a sentence tells of trouble at hand ([`TROUBLE_NOW`]) and not of when it happens. A
/// thing that does not work is trouble; a person who does not do a thing ("we don't deploy by
/// hand", "don't run migrations yourself") is a habit or a rule.
fn trouble_now(sentence: &str) -> bool {
    let person =
        |word: &str| matches!(word, "i" | "we" | "you" | "u" | "they" | "please" | "just" | "and" | "so");
    TROUBLE_NOW
        .captures_iter(sentence)
        .any(|c| c.name("negated").is_none() || c.name("subject").is_some_and(|w| !person(w.as_str())))
        && !HOLDS_WHEN.is_match(sentence)
}

/// A line of a tool's output, by how it opens: a severity or an error's name, then a colon
/// (`error:`, `ERROR:`, `warning[E0425]:`, `panic:`, `Traceback`, `TypeError:`, `NotCapable:`,
/// `Bullet::Notification::UnoptimizedQueryError:`), or a command, an arrow and such a label
/// (`dvc pull -> ERROR: …`). Read on the sentence as typed: case tells an error's name from
/// speech.
static OUTPUT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:(?i:error|warning|warn|fatal|panic|exception|traceback|caused\ by|e\d{3,5})(?:\[[^\]]*\])?\s*:\s
          |[A-Z][A-Za-z0-9]*(?:::[A-Z][A-Za-z0-9]*)*[a-z][A-Z][A-Za-z0-9]*:\s
          |[A-Z][A-Za-z0-9]*(?:::[A-Z][A-Za-z0-9]*)+:\s
          |(?i:traceback\ \(most\ recent))
        | \s(?:->|=>|>)\s*(?i:error|fatal|warning)\s*:
    ")
});

/// Whether `sentence`, as typed, is a line of a tool's output ([`OUTPUT`]) with no word of a
/// rule ([`SAID_AS_A_RULE`]) in it.
pub(crate) fn output(sentence: &str) -> bool {
    OUTPUT.is_match(sentence.trim()) && !SAID_AS_A_RULE.is_match(&sentence.to_lowercase())
}

/// Words a rule of the user's is said with, which a tool's output does not use to the user.
static SAID_AS_A_RULE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?:always|must|should|please|make\ sure|remember|don't|do\ not|from\ now\ on)\b")
});

/// A polite request for a habit, said as a question ("can you always run clippy first?").
static HABIT_REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?(?:always|never|stop|remember|make sure|from now on)\b",
    )
});
static HYPOTHETICAL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:what\ if|suppose|supposing|imagine|hypothetically|in\ theory|theoretically|say\ we|let's\ say
          |one\ day|someday|some\ day|eventually|in\ an\ ideal\ world|ideally\ we'd|in\ a\ perfect\ world)\b
      | \bif\ (?:we|i|you|they|it)\ (?:ever|one\ day|someday|eventually)\b
      | \bif\ ever\b|\bin\ case\ we\ ever\b
      | ^(?:if|assuming|provided|providing|say|in\ case|once)\b[^,]*,\s*(?:then\ )?(?:we|i|you|it|that|this|they)(?:'d|\ would|\ could|\ might)\b
      | ^(?:assuming|provided\ that|providing\ that|on\ the\ off\ chance)\b
      | (?:^|,\s*(?:but|and|so)\s+)(?:we|i)\ (?:could|might)\b
      | (?:^|,\s*(?:but|and|so)\s+)(?:we|i)\ may\ (?:\w+\ )?(?:try|move|switch|want|need|go|end\ up|consider|look|use|drop|add|have|migrate|change|replace)\b
    ")
});
/// A guess about how things are, not a statement of them ("my guess is …", "I suspect …").
static GUESS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:my\ (?:guess|hunch|bet)\ is|i\ (?:guess|suspect|bet|imagine|reckon)|i'd\ (?:guess|bet|imagine)
          |i'm\ guessing|i\ have\ a\ (?:feeling|hunch)|probably|presumably|maybe|perhaps|possibly|most\ likely|likely
          |(?:i'm\ |we're\ )?(?:not\ (?:sure|certain|decided)|undecided)\ yet|(?:still\ )?(?:tbd|undecided)\b)\b
    ")
});
/// Doubt the speaker adds after saying a thing ("the flaky one is the upload test, not sure";
/// "…, but I could be wrong"; "… (don't quote me)").
static UNSURE_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:,|;|\(|\bbut|\s-+)\s*
        (?:(?:i'm\ |i\ am\ )?not\ (?:100%\ |entirely\ |totally\ |completely\ |quite\ )?(?:sure|certain)
          |i\ (?:could|might|may)\ be\ wrong|(?:please\ )?don't\ quote\ me(?:\ on\ (?:that|it))?)
        \s*\)?\s*[.!?]*$
    ")
});
/// Somebody other than the user (or the team speaking as "we") said it.
static REPORTED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?P<who>(?:[\w'-]+\s+){1,6}?)
         (?:says|say|said|swears|swear|swore|insists|insist|insisted|claims|claim|claimed|reckons|reckon|believes
           |believe|argues|argue|argued|suggests|suggest|suggested|keeps\ saying|kept\ saying|keeps\ bringing|keeps\ telling|told\ me|tells\ me|told\ us
           |tells\ us|mentioned|recommends|recommended|wants\ us\ to|is\ convinced|thinks|thought|maintains\ that
           |preaches|swear\ by|swears\ by|is\ adamant|was\ adamant|pushes\ for|pushed\ for
           |(?:complains|complained|warns|warned|reports|reported|flags|flagged|shows|showed|prints|printed|outputs|noted|notes|points\ out|pointed\ out)\ that)\b
      | \baccording\ to\b|^(?:apparently|supposedly|allegedly|reportedly)\b|^(?:as\ )?per\ (?:the|their|his|her)\b
      | ^(?P<asker>(?:[\w'-]+\s+){1,4}?)(?:asked|asks|wondered|wonders|wanted\ to\ know|wants\ to\ know)\ (?:me\ |us\ )?(?:if|whether|why)\b
      | \b(?:i|i've|we've)\ (?:read|heard|seen)\ (?:somewhere|online|on\ \w+|that|people|it\ said)\b
      | \b(?:sounds\ wrong|not\ convinced|i'm\ not\ convinced|i\ disagree|i\ doubt\ it|i'm\ not\ sure\ (?:about\ that|i\ agree)|i've\ heard\ both)\b
      | ^(?P<writer>(?:[\w'-]+\s+){1,4}?)(?:left|wrote|posted|dropped|added)\ (?:a\ |this\ |the\ )?(?:comment|note|review|message|remark)\b
      | ^(?:[\w'-]+\s+){0,3}?[\w-]+'s\ (?:(?:review|pr|code\ review|latest|last)\ )?(?:comment|note|feedback|review|remark|message|take|opinion)s?\b[^.]*?\b(?:was|were|is|said|says|reads|read)\b
    ")
});
/// Words said and then disowned as nobody's rule here ("… — that's her taste, not our rule";
/// "…, just his personal crusade, not team policy").
static DISOWNED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:that's|that\ is|it's|it\ is|just|only|purely)\ (?:just\ |only\ |purely\ )?(?:his|her|their|[\w-]+'s)\ (?:own\ |personal\ )?
          (?:taste|thing|opinion|preference|crusade|pet\ peeve|pet\ rule|hobby\ ?horse|view|take|style|call|habit|quirk)\b
      | \bnot\ (?:our|a|the\ team's|a\ team|team|an\ official|the\ official|the\ house)\ (?:rule|policy|convention|standard|requirement)\b
    ")
});
/// Where words come from that are nobody's here, whoever found them ("the blog post I read says
/// …", "a talk we watched argued …", "some answer I found claims …").
static SOURCE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:blog|post|article|docs|documentation|readme|video|talk|tweet|thread|book|answer|podcast|course
          |tutorial|website|site|paper|reddit|comment|forum|newsletter|guide|conference|speaker|youtuber
          |stack\ ?overflow|chatgpt|someone|somebody|colleague|coworker|co-worker|friend|manager|boss|lead
          |cto|ceo|interviewer|consultant|vendor|book)s?\b
    ")
});
/// Who may speak for the user in a sentence that reports words.
static OWN_VOICE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:i|i'm|i've|i'd|we|we've|we're|you|it|this|that|the\ (?:team|user))\s"));
static PAST: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:last\ (?:year|job|company|team)|years\ ago|a\ while\ ago|back\ (?:then|in\ the\ day|in\ \d{4}|at|when|in\ my)
          |at\ my\ (?:old|previous|last|former|first)\ (?:job|company|team|gig|place|work|employer|startup)
          |in\ my\ (?:old|previous|last|former)\ (?:job|company|team|role)|when\ i\ was\ (?:at|in|working)
          |(?:we|i|they)\ used\ to|used\ to\ be|in\ the\ old\ days|once\ upon\ a\ time|at\ the\ time
          |in\ (?:19|20)\d\d\ (?:we|i|they)|when\ i\ (?:started|joined|first\ started)(?:\ here|\ at|\ on)?
          |in\ the\ (?:old|previous|original|former)\ (?:codebase|code|system|repo|app|version|stack|setup|monolith|days)
          |(?:we|i|they)\ (?:always|never|usually|often)\ (?:had|did|went|wrote|ran|made|got|kept|knew|thought|understood|saw|\w+ed)
          |for\ (?:its|their|our|my|the|his|her)\ first\ (?:\w+\ )?(?:years?|months?|weeks?|days?|releases?)
          |(?:nobody|no\ one|everyone|everybody|somebody|someone)\ (?:ever\ )?(?:noticed|knew|cared|realized|realised|complained))\b
    ")
});
/// What turns a story about the past into a correction ("we used to use yarn, now it's pnpm").
static NOW: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:now|these\ days|nowadays|today\ we|anymore|any\ more|no\ longer|since\ then|from\ now\ on|going\ forward)\b",
    )
});
static JOKE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:lol|lmao|lmfao|rofl|haha\w*|hehe\w*|jk|just\ kidding|kidding|joking|love\ that\ for\ me
          |what\ could\ (?:possibly\ )?go\ wrong|(?:i'm\ |half\ |so\ )?tempted\ to|i\ wish|in\ my\ dreams|yeah\ right
          |because\ why\ not|what\ a\ time\ to\ be\ alive|(?:running|inside|standing|old)\ joke|(?:it's|as)\ a\ joke
          |half[-\ ](?:joking|serious)|not\ (?:even\ )?serious(?:ly)?|funnily\ enough|ironically)\b
      | \b(?:is|are|'s)\ (?:basically|just|essentially|literally|pretty\ much|kinda|kind\ of|sort\ of)\ (?:a\ |an\ )?[\w.+\#-]+(?:\ [\w.+\#-]+)?
        \ (?:with\ (?:better|worse|extra|more|fewer|less|nicer|uglier|prettier)\b|in\ a\ (?:trench\ ?coat|hat|costume|suit)\b|but\ (?:worse|slower|uglier|louder|with)\b)
      | ^\(?funny,
      | (?:^|\s)/s\b
      | [\u{1F602}\u{1F923}\u{1F605}\u{1F643}\u{1F480}\u{1F644}]
    ")
});
/// A credential said with its value ("the wifi password is hunter2", "my token: ghp_…").
static VENT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:ugh+|argh+|sigh|smh|ffs|wtf|omfg|grr+|meh)\b
      | ^(?:it's\ )?(?:always|never)\ the\ same\b|^(?:it's\ )?always\ something\b
      | \bliterally\ (?:always|never|every\ time)\b|\b(?:it's|it\ is|that's|that\ is)\ (?:a\ |such\ a\ )?(?:curse|nightmare|pain|mess)\b
      | \bdrives?\ me\ (?:nuts|crazy|insane|mad|up\ the\ wall)\b|\bthe\ bane\ of\b
      | \b(?:i'm|i\ am)\ (?:so\ (?:done|over)\ with|sick\ (?:and\ tired\ )?of|(?:so\ )?tired\ of|(?:so\ )?fed\ up\ with)\b
      | \bshould(?:n't|\ not)?\ (?:never\ |ever\ )?have\ (?:\w+ed|been|done|written|gone|taken|made|built|chosen|bought|begun|gotten|put|let|set|split|picked)\b
      | \b(?:nobody|no\ one)\ should\ (?:ever\ )?have\ to\b
    ")
});
static SECRET: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:password|passwd|passphrase|pass\ ?code|passcode|pin|pin\ code|token|api[\ _-]?key|access[\ _-]?key
          |secret|secret[\ _-]?key|client[\ _-]?secret|wifi|wi-fi|wlan|ssid|credentials?|login|private[\ _-]?key)
        (?:\ (?:for|of|to|on)\ (?:the\ |our\ |my\ )?[\w.-]+(?:\ [\w.-]+)?){0,2}
        (?:\ (?:here|there|now|currently|today|still|again|atm|these\ days|at\ (?:the\ )?(?:office|home|work)|in\ the\ office)){0,2}
        \s*(?:is|are|=|:|was|reads)\s+
        (?P<value>[^\s,;]+)
    ")
});
/// What follows "the password is" when it says where a secret lives, not what it is.
const NOT_A_SECRET_VALUE: &[&str] = &[
    "in",
    "on",
    "at",
    "from",
    "stored",
    "kept",
    "managed",
    "read",
    "set",
    "the",
    "a",
    "an",
    "rotated",
    "required",
    "needed",
    "missing",
    "wrong",
    "expired",
    "not",
    "never",
    "always",
    "only",
    "handled",
    "loaded",
    "injected",
    "passed",
    "provided",
    "pulled",
    "fetched",
    "saved",
    "encrypted",
    "under",
    "via",
    "through",
    "per",
    "and",
    "or",
    "taken",
    "generated",
    "created",
    "invalid",
    "empty",
    "optional",
    "mandatory",
    "shared",
    "same",
    "valid",
    "good",
    "short-lived",
    "long-lived",
    "sent",
    "attached",
    "added",
    "checked",
    "verified",
    "cached",
    "refreshed",
    "signed",
    "scoped",
    "used",
    "ignored",
    "hashed",
    "too",
    "still",
    "to",
    "that",
    "what",
    "where",
    "how",
    "why",
    "configured",
    "defined",
    "documented",
    "listed",
    "described",
    "explained",
    "per-user",
];

/// Why a sentence (normalised, fillers removed) is not a lasting statement, if it is not.
pub(crate) fn not_lasting(sentence: &str) -> Option<NotLasting> {
    let s = sentence.trim();
    if secret(s) {
        return Some(NotLasting::Secret);
    }
    if (s.ends_with('?') && !HABIT_REQUEST.is_match(s)) || ASKS.is_match(s) {
        return Some(NotLasting::Question);
    }
    if HYPOTHETICAL.is_match(s) || GUESS.is_match(s) || UNSURE_AFTER.is_match(s) {
        return Some(NotLasting::Hypothetical);
    }
    if REPORTED.captures(s).is_some_and(|c| {
        c.name("who").is_none_or(|who| {
            let who = who.as_str();
            // "error messages should say …": what a thing is to say, not words reported.
            let modal = who.split_whitespace().next_back().is_some_and(|w| {
                matches!(
                    w,
                    "should"
                        | "must"
                        | "shall"
                        | "to"
                        | "always"
                        | "never"
                        | "can"
                        | "could"
                        | "would"
                        | "will"
                )
            });
            if modal {
                return false;
            }
            let own = OWN_VOICE.is_match(who)
                || who.split_whitespace().any(|w| matches!(w, "i" | "we" | "you" | "i've" | "we've"));
            // "the docs tool I mentioned": the speaker said it, of a thing named before.
            let said_by_me = matches!(who.split_whitespace().last(), Some("i" | "we" | "i've" | "we've"));
            !said_by_me && (!own || (SOURCE.is_match(who) && !OWN_VOICE.is_match(who)))
        })
    }) {
        return Some(NotLasting::Reported);
    }
    if DISOWNED.is_match(s) {
        return Some(NotLasting::Reported);
    }
    if PAST.is_match(s) && !NOW.is_match(s) {
        return Some(NotLasting::Past);
    }
    if JOKE.is_match(s) {
        return Some(NotLasting::Joke);
    }
    if trouble_now(s) {
        return Some(NotLasting::Trouble);
    }
    if VENT.is_match(s) {
        return Some(NotLasting::Vent);
    }
    None
}

/// What marks text already redacted or withheld, lowercase: a secret's marker, a private region's
/// (both as the redactor writes them, and a `<private>` tag not yet redacted), and the note the
/// redactor leaves for what it left out.
static REDACTION_MARKERS: LazyLock<[String; 4]> = LazyLock::new(|| {
    [
        memory_redact::MARKER_PREFIX.to_lowercase(),
        memory_redact::PRIVATE_MARKER.to_lowercase(),
        "<private>".to_owned(),
        "[agent-memory:".to_owned(),
    ]
});

/// Whether a text (lowercase) carries a credential with its value, or text already redacted or
/// withheld.
pub(crate) fn secret(text: &str) -> bool {
    REDACTION_MARKERS.iter().any(|marker| text.contains(marker.as_str()))
        || SECRET.captures_iter(text).any(|c| {
            c.name("value").is_none_or(|value| {
                let value = value.as_str().trim_matches(|c: char| !c.is_alphanumeric());
                !value.is_empty() && !NOT_A_SECRET_VALUE.contains(&value)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::{NotLasting, not_lasting};

    fn mood(sentence: &str) -> Option<NotLasting> {
        not_lasting(&sentence.to_lowercase())
    }

    #[test]
    fn questions_with_or_without_a_question_mark_are_asked() {
        for sentence in [
            "should we always rebase before merging?",
            "do you think we should never use mocks in the service tests",
            "i wonder if it's better to always pin exact versions",
            "is it worth forbidding default exports across the board, or is that overkill",
            "would a rule like 'never call the api from components' make sense",
            "maybe we should always run the e2e suite on merge",
        ] {
            assert_eq!(mood(sentence), Some(NotLasting::Question), "{sentence}");
        }
        assert_eq!(mood("can you always run the formatter before you commit?"), None);
    }

    #[test]
    fn hypotheticals_are_only_imagined() {
        for sentence in [
            "if we ever move to kubernetes we'd need helm charts for everything",
            "what if we always deployed on fridays",
            "someday we could switch the whole thing to bun",
            "if the budget allows, we would put the cache in redis",
        ] {
            assert_eq!(mood(sentence), Some(NotLasting::Hypothetical), "{sentence}");
        }
        assert_eq!(mood("if you add a dependency, ask me first"), None);
    }

    #[test]
    fn reported_speech_is_somebody_elses() {
        for sentence in [
            "my lead says you should never use an orm here",
            "the docs claim you must always call close() on the client",
            "a colleague swears we should never rebase, is that true",
            "our architect insists every service needs its own database",
            "according to the style guide, imports are sorted alphabetically",
        ] {
            assert_eq!(mood(sentence), Some(NotLasting::Reported), "{sentence}");
        }
        assert_eq!(mood("we always squash-merge feature branches"), None);
    }

    #[test]
    fn stories_about_the_past_are_not_rules_unless_they_say_what_holds_now() {
        for sentence in [
            "last year we always used jenkins for deploys, what a pain",
            "at my previous company we never wrote integration tests",
            "we used to keep the configs in a shared drive, long story",
            "back when i was at the agency we always deployed by hand",
        ] {
            assert_eq!(mood(sentence), Some(NotLasting::Past), "{sentence}");
        }
        assert_eq!(mood("we used to use yarn, now everything goes through pnpm"), None);
    }

    #[test]
    fn jokes_and_exaggeration_are_not_meant() {
        for sentence in [
            "let's just delete the test suite and ship it lol",
            "honestly i'm tempted to rewrite it all in assembly",
            "another flaky ci run, love that for me",
            "sure, deploy on friday at 5pm, what could possibly go wrong",
        ] {
            assert_eq!(mood(sentence), Some(NotLasting::Joke), "{sentence}");
        }
    }

    #[test]
    fn credentials_and_redacted_text_are_secret() {
        for sentence in [
            "the office wifi is correcthorse99",
            "my token is [redacted:github-token]",
            "the staging db password: hunter2, don't share it",
            "the api key for the maps service is ak_live_3f9d",
            "the admin login is admin/letmein",
        ] {
            assert_eq!(mood(sentence), Some(NotLasting::Secret), "{sentence}");
        }
        for sentence in [
            "the api key is stored in vault, never in the repo",
            "secrets live in sops encrypted files",
            "the password is read from the environment at startup",
        ] {
            assert_eq!(mood(sentence), None, "{sentence}");
        }
    }
}
