//! The figures: what the injections of one system (the product or the baseline) show, judged
//! against the planted facts.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::facts::{FACTS, ONE_OFFS};
use crate::harness::Harness;
use crate::judge::{Part, is_left_off, judged, parts, shown_by, shows};

/// What kind of prompt a probe is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Lexical,
    Paraphrased,
    Short,
    Irrelevant,
}

impl Kind {
    pub(crate) const ASKING: [Kind; 3] = [Kind::Lexical, Kind::Paraphrased, Kind::Short];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Lexical => "lexical",
            Kind::Paraphrased => "paraphrased",
            Kind::Short => "short",
            Kind::Irrelevant => "irrelevant",
        }
    }
}

/// A prompt sent in a fresh session after the dream.
#[derive(Debug, Clone)]
pub(crate) struct Probe {
    pub(crate) kind: Kind,
    pub(crate) text: &'static str,
    pub(crate) fact: Option<usize>,
    pub(crate) repo: usize,
    pub(crate) harness: Harness,
}

/// Where a fact was stated (or its fix run).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Origin {
    pub(crate) harness: Harness,
    pub(crate) repo: usize,
}

/// Everything the judging needs to know about the scenario.
#[derive(Debug)]
pub(crate) struct Scenario {
    pub(crate) repos: Vec<&'static str>,
    pub(crate) origins: Vec<Origin>,
    pub(crate) probes: Vec<Probe>,
    /// (scope, path) of every imported distractor note.
    pub(crate) distractors: BTreeSet<(String, String)>,
}

impl Scenario {
    /// The repository index of a fact's project (`None` for facts about the user).
    pub(crate) fn fact_repo(&self, fact: usize) -> Option<usize> {
        FACTS[fact].project.map(|p| self.repos.iter().position(|r| *r == p).expect("a known project"))
    }

    /// Facts that hold in a repository: its own and the user's.
    fn facts_of(&self, repo: usize) -> impl Iterator<Item = usize> + '_ {
        (0..FACTS.len()).filter(move |&f| self.fact_repo(f).is_none_or(|r| r == repo))
    }
}

/// What one system injected: at each session start (per repository and harness) and for each
/// probe (in the order of [`Scenario::probes`]).
#[derive(Debug, Default)]
pub(crate) struct Observed {
    pub(crate) starts: BTreeMap<(usize, Harness), String>,
    pub(crate) prompts: Vec<String>,
}

/// `hit` of `of`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Ratio {
    pub(crate) hit: usize,
    pub(crate) of: usize,
}

impl Ratio {
    fn add(&mut self, hit: bool) {
        self.of += 1;
        self.hit += usize::from(hit);
    }

    pub(crate) fn value(self) -> Option<f64> {
        (self.of > 0).then(|| self.hit as f64 / self.of as f64)
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value() {
            Some(v) => write!(f, "{v:.2} ({}/{})", self.hit, self.of),
            None => write!(f, "n/a (0/0)"),
        }
    }
}

/// A finding, for the lists under the table: what, where, through which note.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Finding {
    pub(crate) what: String,
    pub(crate) place: String,
    pub(crate) via: String,
}

/// A probe that asked for a fact and did not get it: its index and the notes it was given.
pub(crate) type Miss = (usize, Vec<String>);

/// The figures of one system.
#[derive(Debug, Default)]
pub(crate) struct Scores {
    pub(crate) start_user: Ratio,
    pub(crate) start_project: Ratio,
    pub(crate) transfer: Ratio,
    pub(crate) isolation: Vec<Finding>,
    pub(crate) correction: Ratio,
    pub(crate) stale: Vec<Finding>,
    pub(crate) stale_injections: Ratio,
    pub(crate) recall: [Ratio; 3],
    pub(crate) noise: Ratio,
    pub(crate) noise_examples: Vec<Finding>,
    pub(crate) start_chars: f64,
    pub(crate) prompt_chars: f64,
    pub(crate) one_offs: Vec<Finding>,
    pub(crate) misses: Vec<Miss>,
    /// Session-start misses: (fact, repo, harness).
    pub(crate) start_misses: Vec<(usize, usize, Harness)>,
}

impl Scores {
    pub(crate) fn start_recall(&self) -> Ratio {
        Ratio {
            hit: self.start_user.hit + self.start_project.hit,
            of: self.start_user.of + self.start_project.of,
        }
    }

    pub(crate) fn recall_all(&self) -> Ratio {
        let mut all = Ratio::default();
        for r in self.recall {
            all.hit += r.hit;
            all.of += r.of;
        }
        all
    }
}

fn via(part: Option<&Part>) -> String {
    part.and_then(|p| p.note.as_ref()).map_or_else(|| "header".to_owned(), |(s, p)| format!("{s} {p}"))
}

/// Judges one system's injections.
pub(crate) fn score(scenario: &Scenario, observed: &Observed) -> Scores {
    let mut s = Scores::default();
    let parted = |text: &str| parts(text);
    let starts: BTreeMap<(usize, Harness), Vec<Part>> =
        observed.starts.iter().map(|(k, t)| (*k, parted(t))).collect();
    let prompts: Vec<Vec<Part>> = observed.prompts.iter().map(|t| parted(t)).collect();
    // The probes that were asked: all of them, or none when only session starts were observed.
    let probes = &scenario.probes[..prompts.len().min(scenario.probes.len())];
    let d = &scenario.distractors;

    // Session starts: recall of the facts that hold there, in harnesses other than the one that
    // heard them; transfer from the harness that heard them to the others.
    for (&(repo, harness), p) in &starts {
        let judged = judged(p, d);
        for fact in scenario.facts_of(repo) {
            let origin = scenario.origins[fact];
            let shown = shows(&judged, FACTS[fact].keys);
            if origin.harness != harness {
                if FACTS[fact].project.is_some() {
                    s.start_project.add(shown);
                } else {
                    s.start_user.add(shown);
                }
                if !shown {
                    s.start_misses.push((fact, repo, harness));
                }
            }
        }
    }
    for repo in 0..scenario.repos.len() {
        for fact in scenario.facts_of(repo) {
            let origin = scenario.origins[fact].harness;
            let Some(home) = starts.get(&(repo, origin)) else { continue };
            if !shows(&judged(home, d), FACTS[fact].keys) {
                continue;
            }
            for h in Harness::ALL.into_iter().filter(|h| *h != origin) {
                if let Some(other) = starts.get(&(repo, h)) {
                    s.transfer.add(shows(&judged(other, d), FACTS[fact].keys));
                }
            }
        }
    }

    // Every injection, with the repository it was made in and a label.
    let mut all: Vec<(usize, String, &Vec<Part>)> = Vec::new();
    for (&(repo, harness), p) in &starts {
        all.push((repo, format!("session start, {}", harness.name()), p));
    }
    for (i, p) in prompts.iter().enumerate() {
        let probe = &scenario.probes[i];
        all.push((probe.repo, format!("prompt \"{}\"", probe.text), p));
    }

    // Isolation: a project's fact shown in another project.
    for (repo, label, p) in &all {
        let judged = judged(p, d);
        for (fact, f) in FACTS.iter().enumerate() {
            let Some(home) = scenario.fact_repo(fact) else { continue };
            if home == *repo {
                continue;
            }
            if let Some(part) = shown_by(&judged, f.keys) {
                s.isolation.push(Finding {
                    what: f.id.to_owned(),
                    place: format!("{} ({label})", scenario.repos[*repo]),
                    via: via(Some(part)),
                });
            }
        }
        let as_rules: Vec<&Part> = judged.iter().copied().filter(|p| !is_left_off(p)).collect();
        for one in ONE_OFFS {
            if let Some(part) = shown_by(&as_rules, &[one.phrase]) {
                s.one_offs.push(Finding {
                    what: one.id.to_owned(),
                    place: format!("{} ({label})", scenario.repos[*repo]),
                    via: via(Some(part)),
                });
            }
        }
    }

    // Corrections: the latest value shown and the stale one not, at session starts (other
    // harnesses) and on the fact's probes; and every injection in the project that shows a stale
    // value.
    for (fact, f) in FACTS.iter().enumerate() {
        if f.stale.is_empty() {
            continue;
        }
        let home = scenario.fact_repo(fact);
        let ok = |p: &Vec<Part>| {
            let judged = judged(p, d);
            shows(&judged, f.keys) && !shows(&judged, f.stale)
        };
        for (&(repo, harness), p) in &starts {
            if home.is_none_or(|h| h == repo) && harness != scenario.origins[fact].harness {
                s.correction.add(ok(p));
            }
        }
        for (i, probe) in probes.iter().enumerate() {
            if probe.fact == Some(fact) {
                s.correction.add(ok(&prompts[i]));
            }
        }
        for (repo, label, p) in &all {
            if home.is_some_and(|h| h != *repo) {
                continue;
            }
            let stale = shown_by(&judged(p, d), f.stale);
            s.stale_injections.add(stale.is_some());
            if stale.is_some() {
                s.stale.push(Finding {
                    what: f.id.to_owned(),
                    place: format!("{} ({label})", scenario.repos[*repo]),
                    via: via(stale),
                });
            }
        }
    }

    // Per prompt: recall@3 by kind, noise on irrelevant prompts.
    for (i, probe) in probes.iter().enumerate() {
        let p = &prompts[i];
        let notes: Vec<String> =
            p.iter().filter_map(|x| x.note.as_ref()).map(|(sc, pa)| format!("{sc} {pa}")).collect();
        match probe.fact {
            Some(fact) => {
                let k = Kind::ASKING.iter().position(|k| *k == probe.kind).expect("an asking kind");
                let shown = shows(&judged(p, d), FACTS[fact].keys);
                s.recall[k].add(shown);
                if !shown {
                    s.misses.push((i, notes));
                }
            }
            None => {
                let injected = !observed.prompts[i].trim().is_empty();
                s.noise.add(injected);
                if injected {
                    s.noise_examples.push(Finding {
                        what: probe.text.to_owned(),
                        place: scenario.repos[probe.repo].to_owned(),
                        via: notes.join(", "),
                    });
                }
            }
        }
    }

    let chars = |t: &String| t.chars().count() as f64;
    s.start_chars = observed.starts.values().map(chars).sum::<f64>() / observed.starts.len().max(1) as f64;
    s.prompt_chars = observed.prompts.iter().map(chars).sum::<f64>() / observed.prompts.len().max(1) as f64;
    s
}
