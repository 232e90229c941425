//! Corrections that point at what was said before instead of restating it: "scratch what I said
//! about my shell", "forget the minSdk number I told you", "the region thing from before is
//! outdated", "that vulkan note is outdated", "not anymore re the compiler", "we dropped the e2
//! machines". What they point at is read as topic words; the items of the user's notes that
//! speak of that topic most are the ones the correction retires.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::re;
use memory_core::search;

/// What a correction points at.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Reference {
    /// The referent's topic words, stemmed ("the image library" → `image`, `library`).
    pub(crate) words: BTreeSet<String>,
    /// The words of a topic named ahead of the pointer ("e2e: the framework I named before …"),
    /// stemmed: what the referent is of.
    pub(crate) topic: BTreeSet<String>,
    /// The referent's words as said, for matching the programs and tools it names (`celery`).
    pub(crate) names: Vec<String>,
    /// The referent as said, without the words that point back ("how often we ship"): what is
    /// read by meaning when no word of it names a line.
    pub(crate) said: String,
    /// Where the pointing clause starts and ends in the sentence: what is around it is the new
    /// value, if any.
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// Whether it withdraws a plan said before ([`WITHDRAWN`]): it takes back, whatever else its
    /// words would be read as ("not doing …" is no rule of not doing it).
    pub(crate) withdrawn: bool,
}

/// "scratch/forget/ignore … X": a retraction, which must point back ("what I said about", "from
/// before", "the … rule") so that a request like "ignore the warnings" is not one.
static RETRACT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[,;:]\s*|\b(?:and|so|also|oh|btw|pls|please|ok|okay)\s+)
        (?:you\ can\ |just\ |please\ |i\ |i'll\ |let\ me\ )?
        (?P<verb>scratch|forget(?:\ about)?|ignore|disregard|drop|scrap|strike|nix|toss|ditch|bin|never\ ?mind|throw\ out|undo|cancel|take\ back
          |(?:i've\ |i\ have\ |i\ )?changed\ my\ mind\ (?:on|about|re|regarding))
        \s+(?P<x>[^,.;:!?()—–]+?)(?:\s+-\s|\s*[—–]|$|[,.;:!?()])
    ")
});
/// "not the lib I said earlier, it's hedgehog now": what was said, denied by pointing back at it.
static NOT_WHAT_I_SAID: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[,;:—–]\s*|\s-\s)not\s+
        (?P<x>(?:the|that|my|our)\s[^,.;:!?()]{1,40}?\s(?:i|we)\s(?:said|told\s+you(?:\s+about)?|gave\s+you|mentioned|picked|named)
          (?:\s+(?:earlier|before|last\s+time|back\s+then))?)\s*(?:[,;:—–]|\s-\s|$)
    ")
});
/// "re: X, I changed my mind, …", "about X: I've changed my mind": the topic named ahead of a
/// changed mind.
static MIND_CHANGED_ON: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:re:?|regarding|about|as\ for|on)\s+(?P<x>[^,.;:!?()]{2,40}?)\s*[,:;-]\s*
         (?:i've\ |i\ have\ |i\ )?changed\ my\ mind\b
    ")
});
/// "X from last time, throw that out", "the linter thing from before? forget it": what was said
/// named first, then taken back with a pronoun.
static RETRACT_THAT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?P<x>[^,;:!?()]{3,60}?)\s*[,:;?!–—-]+\s*(?:so\ |just\ |please\ |you\ can\ )?
        (?:throw\ (?:that|it|those)\ (?:out|away)|(?:scrap|scratch|forget|ignore|disregard|drop|ditch|bin|nix|toss)\ (?:that|it|those)\b)
    ")
});
/// "actually scratch mocha, …": a tool taken back by its name alone, which the table of tools
/// knows (`search::concepts`), with the correction's new value after it.
static RETRACT_TOOL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[,;:]\s*|\b(?:actually|oh|wait|no|so|and)\s+)(?:scratch|scrap|forget(?:\ about)?|nix|ditch)\s+
        (?P<x>[\w.+\#/-]+(?:\ [\w.+\#/-]+)?)\s*[,;:–—-]\s*\S
    ")
});
/// "re indentation: it's two spaces now", "about the API host, it's api.internal now": a topic
/// named ahead of its new value.
static TOPIC_NOW: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:re:?|regarding|about|as\ for|wrt)\s+(?P<x>[^,.;:!?()]{2,30}?)\s*[,:;–—-]\s*
         (?:it's|it\ is|we're|we\ are|we|they're|it|its|that's|now)\b(?:[^.!?]|\.\S)*\bnow\b
    ")
});
/// "the reviewer rule for billing I gave you: he left the company", "that port from earlier — we
/// moved off it": a thing said before, named at the head of a sentence, then what became of it.
static POINTED_TOPIC: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?P<x>(?:the|that|those|this|my|our)\s[^,.;:!?()]{2,60}?\s
          (?:(?:i|we)\s(?:gave\s+you|told\s+you(?:\s+about)?|mentioned|said|set|described|wrote\s+down|picked)
            |from\s+(?:before|earlier|last\s+time|the\s+other\s+day|last\s+week)))
        (?:\s+(?:earlier|before|back\s+then|last\s+time|a\s+while\s+(?:ago|back)))?
        (?P<sep>\s*(?::|\s[–—-]))\s+(?P<next>[\w']+)
    ")
});
/// What became of a thing pointed back at, told as an event ("he left the company last friday",
/// "we moved off it"): no new value.
static BECAME_OF: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:he|she|they|it|we|that|this|the\ \w+)\ (?:just\ |finally\ |already\ )?
        (?:left|quit|moved\ (?:on|off|away)|went\ away|died|retired|stopped|dropped|ditched|lost|got\ (?:dropped|removed|killed|replaced|fired)
          |was\ (?:dropped|removed|killed|replaced|moved)|were\ (?:dropped|removed|killed|replaced|moved)|has\ left|have\ left)\b
    ")
});
/// Whether what follows a pointer back tells what became of the thing, not its new value.
pub(crate) fn tells_what_became(rest: &str) -> bool {
    // "he left, Ayaan owns billing now": a new value after the event.
    let rest = rest.trim();
    BECAME_OF.is_match(rest)
        && !rest.contains([',', ';', ':'])
        && !rest.split_whitespace().any(|w| w == "now")
}
/// Words after [`POINTED_TOPIC`] that keep what was said, or add to it.
const KEEPING: &[&str] = &["still", "also", "and", "keep", "follow", "stick", "remember", "plus", "same"];
/// A topic named at the head of a sentence ("re styling: …", "logging: …"): what a correction
/// after it points back at is of that topic.
static TOPIC_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:(?:re:?|regarding|about|as\ for|wrt|correction\ (?:on|re|about|to|for)|update\ on)\s+(?P<a>[^,.;:!?()]{2,30}?)\s*[,:;–—-]
          |(?P<b>[a-z][\w-]*(?:\ [a-z][\w-]*)?):)\s
    ")
});
/// "Priya left the team, reviews go to Tomasz now": a person gone, and what was said of them.
static PERSON_LEFT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[,;]\s*)(?P<x>[a-z][a-z'-]{1,20})\ (?:has\ |just\ )?(?:left|quit|moved\ on|is\ no\ longer\ (?:here|with\ us|on\ the\ team))
        (?:\ (?:the\ |our\ )?(?:team|company|org|project|group))?(?:\s*[,.;:!—–-]|$|\ (?:last|this|a\ while|so|and)\b)
    ")
});
/// "switched editors", "we changed shells": the tool of a kind the user used, replaced.
static KIND_SWITCHED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[,;]\s*|\b(?:i|we|i've|we've|i\ have|we\ have)\s+)(?:just\ |finally\ )?(?:switched|changed|swapped)\s+
        (?P<x>(?:editors|shells|terminals|browsers|linters|formatters|package\ managers|test\ runners|bundlers|databases|registries|ci\ providers|clouds|hosts|providers|runtimes|frameworks))\b
    ")
});

/// "bump that timeout I told you about to 60s", "change the port I gave you to 8081": a thing
/// said before, given a new value.
static SET_ANEW: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:please\ )?(?:bump|change|set|raise|lower|make|update|switch|move)\ (?:that|the)\ (?P<x>[\w\ -]{2,40}?)
         \ (?:i|we)\ (?:told\ you\ about|mentioned|gave\ you|said|set|picked)\ (?:to|at)\ (?P<new>\S+)
    ")
});
/// Whether a sentence gives a thing said before a new value ([`SET_ANEW`]).
pub(crate) fn sets_anew(sentence: &str) -> bool {
    SET_ANEW.is_match(sentence)
}

/// What marks a retraction's object as something said before.
static POINTS_BACK: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \bwhat\ (?:i|we)\ (?:said|told|wrote|mentioned|asked|gave)
      | \b(?:i|we)\ (?:said|told\ you|gave\ you|mentioned|wrote|set|asked\ for|gave)\b
      | \bfrom\ (?:before|earlier|last\ time|the\ other\ day|yesterday|last\ week)\b
      | \b(?:earlier|before|previous|previously|old)\b
      | \b(?:rule|note|advice|instruction|instructions|thing|bit|stuff|remarks?|suggestions?|preferences?
          |tips?|guidance|directive|policy)\b
      | \bpoint\ (?:about|re|regarding|on)\b
      | \b(?:i|we)\ (?:named|picked|suggested|described|explained|showed\ you|had\ you)\b
      | \b(?:back\ then|a\ while\ (?:ago|back)|on\ day\ one|last\ time|the\ other\ day)\b
      | \bat\ the\ (?:very\ )?(?:beginning|start)\b
      | \bfirst\ (?:session|chat|day|week)\b
    ")
});
/// What says a thing said before no longer holds: "outdated", "out of date", "no longer true".
const STALE: &str = r"(?:outdated|out[\ -]of[\ -]date|stale|obsolete|old\ news|wrong\ now
  |no\ longer\ (?:true|valid|right|correct|accurate|the\ case|a\ thing|current)
  |not\ (?:true|right|valid|accurate|correct|current|the\ case)\ any\ ?more)";
/// Whether a clause marks what it speaks of as something said before ("the rule I gave you", "my
/// earlier note", "from before").
pub(crate) fn points_back(clause: &str) -> bool {
    POINTS_BACK.is_match(clause)
}

/// "X (I gave you / from before) is outdated", "what I said about X is no longer true".
static OUTDATED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[,;:]\s*|\b(?:and|so|also|oh|btw)\s+)
        (?P<x>(?:the|that|this|those|these|my|our|what\ (?:i|we)\ (?:said|told\ you|wrote|mentioned|gave\ you))\s[^,.;:!?()]{1,60}?)\s
        (?:(?:is|are|was|were)\s(?:now\s|totally\s|completely\s|kind\ of\s|a\ bit\s)?
        (?:outdated|out[\ -]of[\ -]date|dead|wrong|gone|stale|obsolete|deprecated|old\ news|history
          |no\ longer\ (?:true|valid|right|correct|accurate|a\ thing|needed|the\ case|used)
          |not\ (?:true|right|valid|accurate|correct|used)\ any\ ?more|not\ a\ thing\ any\ ?more
          |(?P<judged>too\ (?:strict|loose|lax|long|short|tight|low|high|much|little|aggressive|conservative|big|small)|overkill|a\ bit\ much))
        |(?:no\ longer\ applies|no\ longer\ apply|doesn't\ apply\ any\ ?more|don't\ apply\ any\ ?more|does\ not\ apply\ any\ ?more)
        |(?:doesn't|does\ not|don't|do\ not)\ (?:hold|apply|exist|stand|count|work)(?:\ (?:to|for|in|on)\ [\w\ ]{1,25}?)?\ any\ ?more
        |no\ longer\ (?:holds?|applies|exists?|stands?|counts?)
        |(?:got|has\ been|have\ been|was|were)\ (?:just\ |finally\ )?(?:replaced|dropped|removed|retired|ditched|ripped\ out|torn\ out|scrapped|archived|deprecated|decommissioned|swapped(?:\ out)?|switched(?:\ out)?|changed|migrated|killed|sunset(?:ted)?|stolen|sold|returned)
        |(?:has\ |have\ )?died)
        (?:\s*(?:[,.;:!—–(-]|$)|\s(?:now|btw|anyway|since|because|so|and|as|last|this|a\ while|weeks?|months?|yesterday)\b)
    ")
});
/// "X: that's outdated", "re X, that's no longer true", "that's out of date about X": the topic
/// named beside a "that" which points back at it.
static THAT_IS_STALE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?x)
        ^(?:re\ |regarding\ |about\ |as\ for\ |on\ )?(?P<a>[^,.;:!?()\-–—]{{2,60}}?)\s*(?:[,:;]|\s[-–—])\s*
         (?:that's|that\ is|this\ is|it's|it\ is|that|this)\s+(?:now\s+|totally\s+|completely\s+|all\s+)?{STALE}\b
      | \b(?:that's|that\ is|this\ is|it's|it\ is)\s+(?:now\s+|totally\s+|all\s+)?{STALE}
         \s+(?:re|regarding|about|on|for|wrt|when\ it\ comes\ to)\s+(?P<b>[^,.;:!?()]+)
    "
    ))
});
/// "not anymore re X", "X: not anymore", "not using X anymore", "X is gone", "X -> Y now".
static NOT_ANYMORE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \bnot\ any\ ?more\s(?:re|regarding|about|on|for|with|wrt)\s(?P<x>[^,.;:!?()]+)
      | ^(?P<y>[^,.;:!?()]{2,40}?):?\s+not\ any\ ?more\b
      | \bnot\ (?:using|on|with|running|deploying\ to|deploying\ on)\ (?P<z>[^,.;:!?()]{2,40}?)\ any\ ?more\b
      | (?:^|[,;]\s+)(?P<w>[\w.+\#-]+(?:\ [\w.+\#-]+)?)
        (?:(?:'s|\ is|\ are)(?:\ (?:now|finally|officially|completely|totally))?\ (?:gone|dead(?:\ to\ us)?|history|outdated|deprecated|obsolete|out|retired|done\ for|no\ more|toast|decommissioned|sunset(?:ted)?)
          |\ (?:got|has\ been|have\ been|was|were)(?:\ (?:now|finally|officially|completely|just))?\ (?:retired|ripped\ out|torn\ out|archived|decommissioned|sunset(?:ted)?|dropped|scrapped|removed|replaced|killed\ off))
        (?:\s*(?:[,.;:!—–(-]|$)|\s(?:now|btw|anyway|since|because|so|and|as|everything|it's|for\ us|here|in\ this\ \w+|last|this|a\ while|weeks?|months?|yesterday|ages)\b)
      | \b(?:don't|do\ not|doesn't|does\ not)\ (?:use|run|deploy|host|build|ship|need|have|do|write|support|rely\ on|bother\ with|go\ through)(?:\ (?:with|on|to|in|via|through))?
        \ (?P<u>(?:(?:that|the|this|those|these|our|my)\ )?[\w.+\#/-]+(?:\ [\w.+\#/-]+){0,3}?)\ any\ ?more\b
    ")
});
/// "not doing the kv cache after all", "we're not going with graphql after all", "the redis
/// queue idea is off the table": a plan said before, withdrawn. What follows to take back the
/// saying ("pretend I never said it", "forget I said it") is part of the withdrawal.
static WITHDRAWN: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:
          (?:^|[,;:]\s*|\b(?:so|and|ok|okay|actually|oh)\s+)
          (?:we're\ |we\ are\ |i'm\ |i\ am\ |we'll\ be\ |)not\ (?:doing|going\ with|going\ for|adding|building|using|pursuing|bothering\ with)
          \ (?P<x>[^,.;:!?()]{2,40}?)\ after\ all\b
        | (?:^|[,;:]\s*)(?:(?:ok|okay|so|and|actually|oh),?\ )*(?:the|that|this|our|my)\ (?P<y>[^,.;:!?()]{2,40}?)
          (?:\ (?:idea|plan|thing))?(?:\ is|\ are|'s)\ off\ the\ table\b
        )
        (?:\s*[,;—–-]?\s*(?:so\ |just\ )?(?:pretend|forget|act\ like|assume)\ (?:that\ )?(?:i|we)\ (?:never\ said|said|mentioned|brought\ up)\ (?:it|that|this|anything)(?:\ at\ all)?)?
    ")
});
/// "X changed to Y", "X has moved to Y": a thing said before, given a new value. X names a
/// setting in two words or more ("the API base URL", "the staging host"): "the API moved to 8081"
/// is too vague to point at one line, and its number corrects the line that gave another.
static CHANGED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?P<x>[\w.+\#/-]+(?:\ [\w.+\#/-]+){1,4}?)
        \ (?:has\ |have\ )?(?:changed|moved|switched)
        (?:\ (?:over\ )?to\ (?P<new>[^\s,.;:!?]+)
          |\s*[,;:]\s*(?:now\ )?(?:it's|it\ is|it's\ now|it\ is\ now|now\ it's|now
            |(?:it|they)(?:\ now)?\ (?:lives?|sits?|runs?|is|are|'s)\ (?:at|on|in|under)|it's\ (?:at|on|in|under))\ (?P<said>[^\s,;!?]+[^\s,.;:!?]))
    ")
});
/// "X → Y", "X got replaced by Y", "X was renamed to Y": the old thing and its new value, said
/// in one clause that is the whole of the new value.
static REPLACED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:the\ |our\ |my\ )?(?P<x>[\w.+\#/-]+(?:\ [\w.+\#/-]+)?)\s*(?:->|→|=>|⇒)\s*(?P<new>[\w.+\#/-]+)
      | ^(?:the\ |our\ |my\ )?(?P<y>[\w.+\#/-]+(?:\ [\w.+\#/-]+){0,2}?)\ (?:got|was|were|has\ been|have\ been|is|are|is\ being|just\ got)
        \ (?:replaced|swapped\ out|superseded|renamed|swapped)\ (?:by|with|for|to|in\ favou?r\ of)\ (?:the\ )?(?P<new2>[\w.+\#/-]+)
    ")
});
/// "it's Y now, not X": a new value said of what was being spoken of, and the old one it replaces.
static NOW_NOT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:it's\ |it\ is\ |that's\ |that\ is\ )?(?P<new>[\w.+\#/-]+)(?:\ [\w.+\#/-]+){0,3}\ now,?\ not\ (?:the\ )?
        (?P<x>[\w.+\#/-]+(?:\ [\w.+\#/-]+)?)\s*[.!]*$
    ")
});
/// "we dropped / moved off / got rid of X".
static DROPPED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:we|i|they|the\ team|the\ org|product|we've|we\ have|i've|i\ have)\s
        (?:\w+\s)?
        (?:dropped|ditched|removed|got\ rid\ of|retired|killed|stopped\ using|moved\ off|moved\ away\ from
          |switched\ away\ from|migrated\ off|migrated\ away\ from|abandoned|sunset|no\ longer\ use
          |switched\ from|moved\ from|migrated\ from|went\ from|changed\ from|renamed)
        \s(?P<x>[^,.;:!?()]+)
    ")
});
/// "not X anymore", "it's not X anymore", "no more X", "no longer X": a thing named as gone, with
/// nothing but a pronoun before it (what a person is, "I'm not hungry anymore", is not a thing
/// of the project).
static BARE_GONE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[,;:]\s*|\b(?:it's|it\ is|that's|that\ is|we're|we\ are|so|and)\s+)
        not\ (?:a\ |an\ |the\ )?(?P<x>[\w.+\#/-]+(?:\ [\w.+\#/-]+)?)\ any\ ?more\b
      | (?:^|[,;:]\s*)(?:it's\ |it\ is\ )?no\ (?:more|longer)\ (?P<y>[\w.+\#/-]+(?:\ [\w.+\#/-]+){0,2}?)
        (?:\s*(?:[,.;:!]|$)|\ (?:here|now|either|anywhere|in\ this\ \w+|for\ this\ \w+)\b)
    ")
});
/// "X isn't a thing here anymore", "X is not used anymore", "X is no longer a thing".
static NOT_A_THING: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:the\ |our\ )?(?P<x>[\w.+\#/-]+(?:\ [\w.+\#/-]+){0,2}?)\ 
        (?:(?:isn't|is\ not|aren't|are\ not)\ (?P<what>a\ thing|used|needed|around|in\ use|in\ the\ picture
              |part\ of\ (?:the\ |our\ )?(?:stack|setup|build|project|toolchain|pipeline))
            (?:\ here|\ in\ this\ \w+|\ for\ us)?\ any\ ?more
          | (?:is|are)\ no\ longer\ (?:a\ thing|used|needed|around|in\ use|in\ the\ picture
              |part\ of\ (?:the\ |our\ )?(?:stack|setup|build|project|toolchain|pipeline)))\b
    ")
});
/// What follows "not … anymore" or "no more" when it tells how somebody or something is, or asks
/// for nothing more, rather than naming a thing that is gone.
static NOT_A_REFERENT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:true|right|valid|accurate|correct|current|needed|required|relevant|used|working|broken|flaky
          |failing|slow|fast|sure|happy|hungry|tired|busy|blocked|stuck|done|ready|available|free|possible
          |allowed|supported|an?\ (?:issue|problem|option|thing)|the\ case|worth\ it|than|questions|excuses
          |worries|changes|talk|chatter|problems|issues|errors|bugs|surprises|fun|time|need|reason|idea
          |sure\ \w+|going|coming|there|here|yet|so|as|too|a|an|the|it|that|this|really|quite|exactly|much|longer|more)\b
    ")
});
/// Who may stand for the thing said to be no longer used: not a person or a pronoun.
const NOT_THINGS: &[&str] = &["it", "this", "that", "he", "she", "they", "i", "you", "we", "there", "what"];
/// Words around a referent that say it was said before, not what it is about.
static FRAME: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:about\ |re\ |regarding\ )?
        (?:what\ (?:i|we)\ (?:said|told\ you|wrote|mentioned|asked\ for|gave\ you)(?:\ earlier|\ before)?\ (?:about|re|regarding|on|for)\ )?
        (?:(?:my|our|the|that|this|those|these|any|all\ the|all)\ (?:(?:earlier|previous|old|last|other|first|whole)\ )?
           (?:notes?|rules?|comments?|instructions?|advice|info|bits?|things?|stuff|remarks?|suggestions?|preferences?
             |tips?|guidance|point|policy)\ (?:about|re|regarding|on|for)\ )?
        (?:everything\ (?:i\ said\ )?about\ )?
    ")
});
static FRAME_TAIL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:\s(?:i|we)\ (?:gave|told|mentioned|said|set|wrote|asked\ for|named|picked|suggested|described|explained|showed
            |had\ you\ (?:follow|use|run|do|write|try))(?:\ you)?(?:\ about)?(?:\ earlier|\ before)?
          |\s(?:you\ have|you've\ got|you\ know|you\ remember|you\ use|in\ your\ (?:head|notes|memory)))?
        (?:\s(?:rule|thing|stuff|bit|note|one|part|info|advice|business|remark|suggestion|preference|tip|guidance|policy))?
        (?:\s(?:from\ (?:before|earlier|last\ time|the\ other\ day|yesterday|last\ week|(?:our|the|my)\ (?:very\ )?first\ (?:session|chat|day)(?:\ here)?)
            |earlier|before|back\ then|a\ while\ (?:ago|back)|on\ day\ one|at\ the\ (?:very\ )?(?:beginning|start)|last\ time|the\ other\ day
            |in\ (?:our|the|my)\ first\ (?:session|chat)(?:\ here)?))*
        \s*$
    ")
});
/// Words that say nothing of the topic of a referent.
const GENERIC: &[&str] = &[
    "the",
    "a",
    "an",
    "my",
    "our",
    "that",
    "this",
    "those",
    "these",
    "what",
    "i",
    "we",
    "you",
    "said",
    "told",
    "gave",
    "about",
    "re",
    "rule",
    "rules",
    "thing",
    "things",
    "stuff",
    "bit",
    "bits",
    "note",
    "notes",
    "part",
    "one",
    "info",
    "advice",
    "instruction",
    "instructions",
    "earlier",
    "before",
    "previous",
    "old",
    "whole",
    "entire",
    "number",
    "value",
    "external",
    "from",
    "all",
    "any",
    "to",
    "of",
    "for",
    "in",
    "on",
    "with",
    "last",
    "first",
    "other",
    "it",
    "is",
    "are",
    "was",
    "were",
    "and",
    "or",
    "new",
    "current",
    "business",
    "remark",
    "remarks",
    "suggestion",
    "suggestions",
    "preference",
    "preferences",
    "tip",
    "tips",
    "guidance",
    "policy",
    "point",
    "setup",
    "off",
    "by",
    "month",
    "week",
    "year",
    "sprint",
    "day",
    "today",
    "yesterday",
    "ago",
    "since",
    "now",
];

/// The correction by reference a sentence (normalised) makes, if it makes one.
pub(crate) fn reference(sentence: &str) -> Option<Reference> {
    /// Where the pointing clause starts and ends, and where its referent starts and ends.
    fn pick(c: regex::Captures<'_>, names: &[&str]) -> Option<(usize, usize, usize, usize)> {
        let whole = c.get(0).expect("a match has its whole");
        names.iter().find_map(|n| c.name(n)).map(|x| (whole.start(), whole.end(), x.start(), x.end()))
    }
    // A question is not a correction, whatever it asks about ("is this outdated?").
    if sentence.trim_end().ends_with('?') {
        return None;
    }
    let bare = |c: &regex::Captures<'_>| {
        let x = c.name("x").or_else(|| c.name("y")).map_or("", |m| m.as_str());
        !NOT_A_REFERENT.is_match(x)
    };
    let mut replaced_at = None;
    let mut withdrawn = false;
    let (start, clause_end, from, to) = RETRACT
        .captures_iter(sentence)
        .filter(|c| {
            POINTS_BACK.is_match(&c["x"])
                || c["verb"].starts_with("forget about")
                || c["verb"].contains("my mind")
        })
        .find_map(|c| pick(c, &["x"]))
        .or_else(|| {
            RETRACT_THAT
                .captures(sentence)
                .filter(|c| POINTS_BACK.is_match(&c["x"]))
                .and_then(|c| pick(c, &["x"]))
        })
        .or_else(|| {
            RETRACT_TOOL
                .captures(sentence)
                .filter(|c| !search::concepts(&c["x"]).is_empty())
                .and_then(|c| pick(c, &["x"]))
                .map(|(start, _, from, to)| (start, to, from, to))
        })
        // "the sync retry is too aggressive" judges a thing of the work; "the cap I gave you was
        // too strict" what was said.
        .or_else(|| {
            OUTDATED
                .captures(sentence)
                .filter(|c| {
                    let x = &c["x"];
                    c.name("judged").is_none()
                        || POINTS_BACK.is_match(x)
                        || ["that ", "those ", "my "].iter().any(|d| x.starts_with(d))
                })
                .and_then(|c| pick(c, &["x"]))
        })
        .or_else(|| NOT_WHAT_I_SAID.captures(sentence).and_then(|c| pick(c, &["x"])))
        .or_else(|| {
            POINTED_TOPIC.captures(sentence).filter(|c| !KEEPING.contains(&&c["next"])).map(|c| {
                let (x, sep) = (&c.name("x").expect("a referent"), c.name("sep").expect("a separator"));
                (x.start(), sep.end(), x.start(), x.end())
            })
        })
        .or_else(|| MIND_CHANGED_ON.captures(sentence).and_then(|c| pick(c, &["x"])))
        .or_else(|| {
            TOPIC_NOW.captures(sentence).and_then(|c| pick(c, &["x"])).map(|(start, _, from, to)| {
                // What follows the topic is its new value.
                replaced_at = Some(to);
                (start, to, from, to)
            })
        })
        .or_else(|| {
            PERSON_LEFT
                .captures(sentence)
                .filter(|c| !NOT_THINGS.contains(&&c["x"]) && !NOT_A_REFERENT.is_match(&c["x"]))
                .and_then(|c| pick(c, &["x"]))
        })
        .or_else(|| KIND_SWITCHED.captures(sentence).and_then(|c| pick(c, &["x"])))
        .or_else(|| {
            let found = WITHDRAWN.captures(sentence).and_then(|c| pick(c, &["x", "y"]));
            withdrawn = found.is_some();
            found
        })
        .or_else(|| THAT_IS_STALE.captures(sentence).and_then(|c| pick(c, &["a", "b"])))
        .or_else(|| NOT_ANYMORE.captures(sentence).and_then(|c| pick(c, &["x", "y", "z", "w", "u"])))
        .or_else(|| {
            DROPPED.captures(sentence).and_then(|c| pick(c, &["x"])).map(|(start, _, from, to)| {
                // What was dropped ends where what replaced it starts ("we dropped gcc 12 for
                // clang 17", "I switched from vim to helix").
                let to = REPLACED_BY.find(&sentence[from..to]).map_or(to, |m| from + m.start());
                replaced_at = Some(to);
                (start, to, from, to)
            })
        })
        .or_else(|| {
            // The whole sentence is the new value, naming the old one ("it's Y now, not X", "the API
            // base URL changed to Y"); "the build moved to green" says how a thing is, not a value.
            let value = |c: &regex::Captures<'_>| {
                !super::STATES.contains(&c.name("new").or_else(|| c.name("said")).map_or("", |m| m.as_str()))
            };
            let now_not =
                || NOW_NOT.captures(sentence).filter(|c| value(c) && !NOT_A_REFERENT.is_match(&c["x"]));
            let changed = || {
                CHANGED.captures(sentence).filter(|c| {
                    let named = c["x"]
                        .trim_start_matches("the ")
                        .trim_start_matches("our ")
                        .trim_start_matches("my ");
                    value(c)
                        && named.split(' ').count() >= 2
                        && !NOT_THINGS.contains(&named.split(' ').next().unwrap_or_default())
                })
            };
            let replaced = || {
                REPLACED.captures(sentence).filter(|c| {
                    let new = c.name("new").or_else(|| c.name("new2")).map_or("", |m| m.as_str());
                    let old = c.name("x").or_else(|| c.name("y")).map_or("", |m| m.as_str());
                    !super::STATES.contains(&new)
                        && !NOT_THINGS.contains(&old.split(' ').next().unwrap_or_default())
                        && !NOT_A_REFERENT.is_match(old)
                })
            };
            let set_anew = || SET_ANEW.captures(sentence).filter(value);
            now_not()
                .or_else(changed)
                .or_else(replaced)
                .or_else(set_anew)
                .and_then(|c| pick(c, &["x", "y"]))
                .map(|(start, _, from, to)| {
                    replaced_at = Some(start);
                    (start, to, from, to)
                })
        })
        .or_else(|| {
            NOT_A_THING
                .captures(sentence)
                .filter(|c| !NOT_THINGS.contains(&c["x"].split(' ').next().unwrap_or_default()))
                .and_then(|c| pick(c, &["x"]))
        })
        .or_else(|| BARE_GONE.captures_iter(sentence).filter(bare).find_map(|c| pick(c, &["x", "y"])))?;
    let phrase = FRAME.replace(sentence[from..to].trim(), "");
    let phrase = FRAME_TAIL.replace(phrase.trim(), "");
    let mut words = topic_words(&phrase);
    // A topic named ahead of the pointer ("re styling: the approach I gave you is outdated").
    let mut topic = BTreeSet::new();
    if let Some(named) = TOPIC_LEAD.captures(sentence).and_then(|c| c.name("a").or_else(|| c.name("b")))
        && named.end() <= from
    {
        topic = topic_words(named.as_str());
        words.extend(topic.iter().cloned());
    }
    if words.is_empty() {
        return None;
    }
    let mut names: Vec<String> = phrase
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_owned())
        .filter(|w| w.len() >= 2 && !GENERIC.contains(&w.as_str()))
        .collect();
    // A tool and its version named apart ("gcc 12") are one value too: what commands spell
    // `g++-12` or `gcc-12`.
    let versioned: Vec<String> = names
        .windows(2)
        .filter(|pair| {
            pair[0].starts_with(|c: char| c.is_ascii_alphabetic())
                && pair[1].starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|pair| pair.join(" "))
        .collect();
    names.extend(versioned);
    // What replaced it is the new value, said in the same clause.
    let end = match replaced_at {
        Some(at) if at < sentence.len() => at,
        _ => {
            let tail = &sentence[to..];
            tail.char_indices()
                .find(|&(at, c)| {
                    matches!(c, ',' | ';' | ':' | '.' | '—' | '–')
                        || (c == '-' && tail[..at].ends_with(' ') && tail[at + 1..].starts_with(' '))
                })
                .map_or(sentence.len(), |(at, c)| to + at + c.len_utf8())
                .max(clause_end)
        }
    };
    Some(Reference { words, topic, names, said: phrase.trim().to_owned(), start, end, withdrawn })
}

/// Where a dropped thing's name ends and what replaced it starts.
static REPLACED_BY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\s(?:for|in favou?r of|to|and|now|because|since|so|with|last|this|a while|months?|weeks?|years?)\b")
});

/// A word reduced to what its inflections share, so that both forms meet ("images" and "image",
/// "libraries" and "library", "signed" and "sign").
pub(crate) fn stem(word: &str) -> String {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    let mut base = w.to_owned();
    // A two-letter abbreviation's plural (`prs`, `vms`, `ids`).
    if let Some(one) = search::abbreviation_singular(w) {
        return one.to_owned();
    }
    for suffix in ["ings", "ing", "ies", "es", "ed", "s"] {
        if suffix == "s" && w.ends_with("ss") {
            break;
        }
        if let Some(b) = w.strip_suffix(suffix)
            && b.len() >= 3
        {
            base = if suffix == "ies" { format!("{b}i") } else { b.to_owned() };
            // A consonant doubled before the ending: `logging` → `log`, `committed` → `commit`.
            if matches!(suffix, "ings" | "ing" | "ed") {
                let bytes = base.as_bytes();
                let n = bytes.len();
                if n >= 4 && bytes[n - 1] == bytes[n - 2] && b"bdgmnprt".contains(&bytes[n - 1]) {
                    base.pop();
                }
            }
            break;
        }
    }
    if let Some(b) = base.strip_suffix('y').filter(|b| b.len() >= 3) {
        base = format!("{b}i");
    }
    if let Some(b) = base.strip_suffix('e').filter(|b| b.len() >= 3) {
        base = b.to_owned();
    }
    base
}

/// The stemmed topic words of a text, compound tokens also split at `-`, `_`, `.` and `/`
/// (`e2-standard-4` → `e2`, `standard`), plus the topics of the tools it names.
pub(crate) fn topic_words(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for token in text
        .to_lowercase()
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '`' | '"' | '\''))
    {
        let token = token.trim_matches(|c: char| !c.is_alphanumeric());
        if token.is_empty() {
            continue;
        }
        let parts: Vec<&str> =
            token.split(['-', '_', '.', '/', ':', '=', '+']).filter(|p| !p.is_empty()).collect();
        for part in std::iter::once(token).chain(parts) {
            if part.chars().all(|c| c.is_ascii_digit() || c == '.')
                || GENERIC.contains(&part)
                || part.len() < 2
            {
                continue;
            }
            out.insert(stem(part));
        }
    }
    out
}

/// The topics (as stemmed words) of the tools a text names: `gcc` → compiler, `glide` → image.
pub(crate) fn concept_words(text: &str) -> BTreeSet<String> {
    search::concepts(text).into_iter().flat_map(topic_words).collect()
}

/// [`concept_words`] of a line read as it means them: "no exceptions" and "without exception"
/// say always, not anything of exception handling.
fn meant_concept_words(text: &str) -> BTreeSet<String> {
    static ALWAYS: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)\b(?:(?:with\s+)?no\s+exceptions?|without\s+(?:any\s+)?exceptions?)\b"));
    concept_words(&ALWAYS.replace_all(text, " "))
}

/// The tools an item a correction by reference retired names that the correction replaces: of the
/// topic it points at ("the linter" and `rubocop`), or of the kind of a tool the correction names
/// (`cypress` when it names playwright), and not named again by the correction unless the
/// correction names a new tool of its kind beside it ("docker desktop licences got pulled, so
/// everything runs on podman now"). The commands and tool notes that name them go with the item.
pub(crate) fn replaced_tools(reference: &Reference, retired: &str, correction: &str) -> Vec<String> {
    let named_again = search::tools(correction);
    let old = search::tools(retired);
    let mut topics = concept_words(correction);
    topics.extend(reference.words.iter().cloned());
    let succeeded = |tool: &str| {
        let kind = concept_words(tool);
        named_again.iter().any(|new| !old.contains(new) && !concept_words(new).is_disjoint(&kind))
    };
    old.iter()
        .copied()
        .filter(|tool| !named_again.contains(tool) || succeeded(tool))
        .filter(|tool| !concept_words(tool).is_disjoint(&topics))
        .map(str::to_owned)
        .collect()
}

/// A line a correction retires, split into what the correction takes back and the clauses that
/// speak of something else and state it on their own ("background jobs run on Sidekiq" of
/// "background jobs run on Sidekiq, and we lint with RuboCop" when the linter is corrected),
/// joined; `None` for the second when every clause goes.
pub(crate) fn split_by_reference(reference: &Reference, line: &str) -> (String, Option<String>) {
    match unrelated_clauses(reference, line) {
        Some(kept) => {
            let mut taken = line.to_owned();
            for clause in kept.trim_end_matches('.').split("; ") {
                taken = taken.replace(clause, "");
            }
            (taken, Some(kept))
        }
        None => (line.to_owned(), None),
    }
}

fn unrelated_clauses(reference: &Reference, line: &str) -> Option<String> {
    let clauses: Vec<&str> = line
        .split(", and ")
        .flat_map(|c| c.split("; "))
        .flat_map(|c| c.split(" — "))
        .map(|c| c.trim().trim_end_matches(['.', ',']))
        .filter(|c| !c.is_empty())
        .collect();
    if clauses.len() < 2 {
        return None;
    }
    let kept: Vec<&str> = clauses
        .into_iter()
        .filter(|clause| {
            affinity(reference, clause) == 0
                && clause.split_whitespace().count() >= 4
                && crate::statements::filed(clause).is_some()
        })
        .collect();
    (!kept.is_empty()).then(|| format!("{}.", kept.join("; ")))
}

/// How strongly an item speaks of what a reference points at: its topic words shared, and the
/// topics of the tools it names.
/// Whether a line speaks of what a pointer back names: of at least half of its words, by name or
/// by what they are ("where the integration tests get their database" is no line about
/// dependencies that shares one word with it).
pub(crate) fn speaks_of(reference: &Reference, text: &str) -> bool {
    let has = named_in(text);
    let met = reference.words.iter().filter(|w| has(w)).count();
    affinity(reference, text) > 0
        && met * 2 >= reference.words.len()
        && (reference.topic.is_empty() || reference.topic.iter().any(&has))
}

/// Whether a line is of the topic a pointer names ahead, if it names one: "e2e: the framework I
/// named before" is no line about a framework of something else.
pub(crate) fn of_its_topic(reference: &Reference, text: &str) -> bool {
    reference.topic.is_empty() || reference.topic.iter().any(named_in(text))
}

/// A text without what it says of its own saying ("the framework I named before is gone" speaks
/// of no naming; "what I told you about my editor" names no speaker): the words a pointer back
/// may meet in it, and whose it is.
pub(crate) fn without_saying(text: &str) -> std::borrow::Cow<'_, str> {
    static SAYING: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?ix)
            \b(?:what\ )?(?:i|we)\ (?:said|told|gave|mentioned|wrote|set|named|picked|suggested|described|explained|showed\ you|had\ you\ \w+)
            (?:\ you)?(?:\ (?:before|earlier|about|re))?\b
        ")
    });
    SAYING.replace_all(text, " ")
}

/// Whether a (stemmed) word is one a line names, by its words or by what they are.
fn named_in(text: &str) -> impl Fn(&String) -> bool {
    let text = without_saying(text);
    let (words, topics) = (topic_words(&text), meant_concept_words(&text));
    move |w| words.contains(w) || topics.contains(w)
}

pub(crate) fn affinity(reference: &Reference, item: &str) -> usize {
    let item = without_saying(item);
    let item = item.as_ref();
    let words = topic_words(item);
    let direct = reference.words.intersection(&words).count();
    let topical = reference.words.intersection(&meant_concept_words(item)).count();
    direct * 2 + topical
}

/// Values with a shape of their own (`europe-west3`, `America/Vancouver`, `g++-13`,
/// `https://…`): the characters' classes, runs collapsed. Plain words have none.
pub(crate) fn shapes(text: &str) -> BTreeSet<(String, String)> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '`' | '"' | '\''))
        .map(|t| t.trim_end_matches(['.', ':', '!', '?']))
        .filter(|t| t.len() >= 4 && t.chars().any(char::is_alphabetic))
        .filter(|t| {
            t.chars().any(|c| matches!(c, '/' | '-' | '.' | '_' | ':' | '+'))
                || t.chars().any(|c| c.is_ascii_digit())
        })
        .filter_map(|t| {
            let mut shape = String::new();
            for c in t.chars() {
                let class = if c.is_ascii_uppercase() {
                    'A'
                } else if c.is_alphabetic() {
                    'a'
                } else if c.is_ascii_digit() {
                    '9'
                } else {
                    c
                };
                if !shape.ends_with(class) || !matches!(class, 'A' | 'a' | '9') {
                    shape.push(class);
                }
            }
            let shape = if t.contains("://") { "url".to_owned() } else { shape };
            // A shape that is only letters and digits ("v2", "e2") says too little.
            shape.chars().any(|c| !matches!(c, 'A' | 'a' | '9')).then(|| (shape, t.to_lowercase()))
        })
        .collect()
}

/// The values with a shape of their own in `retired` that `correction` does not repeat: what
/// commands depending on the retired item name (`g++-13`, `europe-west1`).
pub(crate) fn shaped_values(retired: &str, correction: &str) -> Vec<String> {
    let kept: BTreeSet<String> = shapes(correction).into_iter().map(|(_, v)| v).collect();
    shapes(retired)
        .into_iter()
        .map(|(_, v)| v)
        // A file the retired line names (`Cargo.toml`) is where the value was, not the value.
        .filter(|v| !kept.contains(v) && !memory_core::shell::is_file_name(v))
        .collect()
}

/// What `retired` runs a program on that `correction` runs it on otherwise: `ssh tusk` when the
/// correction says "ssh walrus": a program the search's table knows, then a word that is no flag.
/// The commands that ran the old one go with the retired item.
pub(crate) fn other_targets(retired: &str, correction: &str) -> Vec<String> {
    // A program, then what it acts on.
    let runs = |text: &str| -> Vec<(String, String)> {
        let tokens: Vec<String> = text
            .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '`' | ',' | ';' | '"'))
            .map(|t| t.trim_end_matches(['.', ':', '!', '?']).to_lowercase())
            .filter(|t| !t.is_empty())
            .collect();
        tokens
            .windows(2)
            .filter(|pair| {
                memory_core::search::tools(&pair[0]).contains(&pair[0].as_str())
                    && !pair[1].starts_with('-')
                    && pair[1].chars().any(char::is_alphanumeric)
            })
            .map(|pair| (pair[0].clone(), pair[1].clone()))
            .collect()
    };
    let new = runs(correction);
    runs(retired)
        .into_iter()
        .filter(|(program, target)| {
            new.iter().any(|(p, t)| p == program && t != target) && !new.iter().any(|(_, t)| t == target)
        })
        .map(|(program, target)| format!("{program} {target}"))
        .collect()
}

/// The values with a shape of their own in `text` (a command the agent ran, a fix) that carry a
/// word the pointer names and that `correction` does not repeat: `https://wren-staging.vercel.app`
/// after "the vercel url is dead".
pub(crate) fn values_pointed_at(reference: &Reference, text: &str, correction: &str) -> Vec<String> {
    let kept: BTreeSet<String> = shapes(correction).into_iter().map(|(_, v)| v).collect();
    let named: Vec<String> = reference
        .names
        .iter()
        .map(|n| n.to_lowercase())
        .filter(|n| n.len() >= 4 && !n.contains(' '))
        .collect();
    // A word of the value, not a part of one: "http" is no word of `https://getoban.pro`.
    let carries =
        |value: &str| value.split(|c: char| !c.is_alphanumeric()).any(|part| named.iter().any(|n| n == part));
    shapes(text)
        .into_iter()
        .map(|(_, v)| v)
        .filter(|v| !kept.contains(v) && carries(v))
        .filter(|v| !memory_core::shell::is_file_name(v))
        .collect()
}

/// Whether an item holds a value of the same shape as one the correction gives, but another
/// value: "europe-west1" when the correction says "europe-west3".
pub(crate) fn same_shape_other_value(correction: &str, item: &str) -> bool {
    // A value's shape tells it apart only with digits (`europe-west3`, `g++-13`, a port) or
    // capitals (`Asia/Tokyo`) in it, or as an address: "company-wide" and "courier-api",
    // `bin/kamal` and `bin/standardrb`, are merely words and paths.
    let new: BTreeSet<(String, String)> = shapes(correction)
        .into_iter()
        .filter(|(s, _)| s.contains('9') || s.contains('A') || s == "url")
        .collect();
    let old = shapes(item);
    old.iter().any(|(shape, value)| {
        new.iter().any(|(s, v)| s == shape && v != value) && !new.iter().any(|(_, v)| v == value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(sentence: &str) -> BTreeSet<String> {
        reference(&sentence.to_lowercase()).map(|r| r.words).unwrap_or_default()
    }

    fn topic(text: &str) -> BTreeSet<String> {
        topic_words(text)
    }

    #[test]
    fn retractions_point_back_at_a_topic() {
        assert_eq!(
            words("scratch what I said about the package manager, we're on bun now"),
            topic("package manager")
        );
        assert_eq!(words("ok forget the port number I gave you earlier"), topic("port"));
        assert_eq!(words("please ignore my earlier note about the CI provider"), topic("ci provider"));
        assert_eq!(
            words("drop the changelog rule from before, release-please writes it now"),
            topic("changelog")
        );
        // Requests that ignore or drop something of the work are not corrections.
        assert!(words("ignore the deprecation warnings for now").is_empty());
        assert!(words("drop the users table in the test database").is_empty());
    }

    #[test]
    fn outdated_and_no_longer_point_at_a_topic() {
        assert_eq!(
            words("the deploy target I gave you is outdated, we ship to render now"),
            topic("deploy target")
        );
        assert_eq!(words("that node version note is stale. we're on 22"), topic("node version"));
        assert_eq!(words("the linter thing from before is wrong, we use biome"), topic("linter"));
        assert_eq!(words("not anymore re the formatter: everything goes through dprint"), topic("formatter"));
        assert!(words("the build is dead slow today").is_empty());
    }

    #[test]
    fn dropping_a_thing_points_at_it() {
        assert_eq!(words("we dropped redux, state lives in zustand stores"), topic("redux"));
        assert_eq!(words("we got rid of the t3 instances last month"), topic("t3 instances"));
        assert_eq!(words("the team moved off jenkins, pipelines are in github actions"), topic("jenkins"));
    }

    #[test]
    fn gone_no_longer_and_arrows_point_at_what_was() {
        assert_eq!(words("mysql is gone, everything is on postgres"), topic("mysql"));
        assert_eq!(words("not using docker compose anymore, it's all tilt"), topic("docker compose"));
        assert_eq!(words("python 3.11 -> 3.12 now"), topic("python"));
        assert_eq!(words("forget about the staging db, we share the qa one now"), topic("staging db"));
        assert!(words("the build is dead slow today").is_empty());
    }

    #[test]
    fn the_new_value_follows_the_pointing_clause() {
        let sentence = "scratch what i said about my editor, i'm on helix now";
        let found = reference(sentence).expect("a reference");
        assert_eq!(sentence[found.end..].trim(), "i'm on helix now");
    }

    #[test]
    fn a_file_a_retired_line_names_is_no_value_it_held() {
        assert_eq!(
            shaped_values(
                "the minimum rust version is 1.74 (rust-version in Cargo.toml)",
                "we bumped it to 1.80"
            ),
            ["rust-version"]
        );
        assert!(shaped_values("the config lives in config/app.yaml", "it's in settings now").is_empty());
        assert_eq!(
            shaped_values("we deploy to europe-west1 from deploy.sh", "europe-west3 now"),
            ["europe-west1"]
        );
    }

    #[test]
    fn values_of_one_shape_replace_each_other() {
        assert!(same_shape_other_value("new buckets go in us-east2 now", "everything runs in us-west1"));
        assert!(same_shape_other_value("use Asia/Tokyo for times", "assume Europe/Berlin for cron"));
        assert!(!same_shape_other_value("new buckets go in us-east2 now", "tests run with pytest -q"));
        assert!(!same_shape_other_value("use us-east2", "everything runs in us-east2"));
    }

    #[test]
    fn stems_join_inflections() {
        for (a, b) in [
            ("images", "image"),
            ("signed", "sign"),
            ("libraries", "library"),
            ("caches", "cache"),
            ("boxes", "box"),
            ("classes", "class"),
            ("tests", "testing"),
            ("logging", "logs"),
            ("committed", "commit"),
            ("shipped", "ships"),
            ("prs", "pr"),
            ("installing", "install"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        assert_ne!(stem("class"), stem("clap"));
    }
}
