//! proptest strategies for the core types (functions, since proptest's `Arbitrary` cannot be
//! implemented here for types of another crate).

use chrono::{DateTime, TimeZone, Utc};
use memory_core::{
    EventId, EventKind, FileAction, FileTouch, Harness, HookEvent, Note, NoteKind, NoteMeta, NotePath, Scope,
    SessionKey, ShellCall, ToolCall, TranscriptRef,
};
use proptest::prelude::*;
use serde_json::Value;

/// Any time from 1970 to 2100, to the nanosecond.
pub fn arb_time() -> impl Strategy<Value = DateTime<Utc>> {
    (0i64..4_102_444_800, 0u32..1_000_000_000)
        .prop_map(|(secs, nanos)| Utc.timestamp_opt(secs, nanos).single().expect("in range"))
}

/// A 32-hex-character event id.
pub fn arb_event_id() -> impl Strategy<Value = EventId> {
    "[0-9a-f]{32}".prop_map(EventId)
}

/// JSON without floating point numbers (whose text form is not guaranteed to round-trip).
pub fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// [`arb_json`] without a top-level `null`: an optional JSON field holding `null` reads back as
/// absent, so `Some(Value::Null)` is not a value a store can keep.
pub fn arb_json_not_null() -> impl Strategy<Value = Value> {
    arb_json().prop_filter("null is the absent value", |v| !v.is_null())
}

/// Any event kind, known or not.
pub fn arb_kind() -> impl Strategy<Value = EventKind> {
    prop_oneof![
        4 => prop::sample::select(EventKind::KNOWN.to_vec()),
        1 => "[A-Z][A-Za-z]{0,15}".prop_map(|name| EventKind::from_name(&name)),
    ]
}

fn arb_tool() -> impl Strategy<Value = ToolCall> {
    let harness = (
        "[A-Za-z_]{1,16}",
        proptest::option::of("[a-z0-9_]{1,12}"),
        proptest::option::of(arb_json_not_null()),
        proptest::option::of(arb_json_not_null()),
        proptest::option::of(".{0,20}"),
        proptest::option::of(any::<u32>().prop_map(u64::from)),
    );
    let normalised = (
        proptest::option::of(
            (".{0,40}", proptest::option::of(any::<i64>()))
                .prop_map(|(command, exit_code)| ShellCall { command, exit_code }),
        ),
        proptest::option::of(any::<bool>()),
        prop::collection::vec(
            (".{0,30}", prop::sample::select(vec![FileAction::Read, FileAction::Edited]))
                .prop_map(|(path, action)| FileTouch { path, action }),
            0..3,
        ),
        proptest::option::of(".{0,60}"),
    );
    (harness, normalised).prop_map(
        |((name, use_id, input, output, error, duration_ms), (shell, failed, files, patch))| ToolCall {
            name,
            use_id,
            input,
            output,
            error,
            duration_ms,
            shell,
            failed,
            files,
            patch,
        },
    )
}

/// An event with text fields of any Unicode, in one of a few sessions of a few harnesses.
pub fn arb_event() -> impl Strategy<Value = HookEvent> {
    let harness = prop::sample::select(vec!["claude", "codex", "cursor", "other-harness"]);
    let required = (arb_event_id(), harness, "[a-z0-9-]{1,12}", arb_kind(), arb_time(), arb_json());
    let optional = (
        proptest::option::of(".{0,30}"),
        proptest::option::of("[a-z0-9-]{1,12}"),
        proptest::option::of(".{0,80}"),
        proptest::option::of(arb_tool()),
        proptest::option::of("[a-z0-9.-]{1,20}"),
        proptest::option::of("/[a-z/]{1,30}\\.jsonl".prop_map(|path| TranscriptRef { path })),
        proptest::option::of("[0-9.]{1,8}"),
        proptest::option::of(any::<bool>()),
        proptest::option::of("[a-z0-9.-]{1,12}@[a-z0-9.-]{1,12}"),
    );
    (required, optional).prop_map(
        |(
            (id, harness, session_id, kind, at, raw),
            (cwd, project, prompt, tool, model, transcript, version, context_kept, owner),
        )| {
            let mut event = HookEvent::new(
                id,
                Harness::named(harness),
                SessionKey::new(harness, &session_id),
                kind,
                at,
                raw,
            );
            event.harness.version = version;
            event.cwd = cwd;
            event.project = project;
            event.prompt = prompt;
            event.tool = tool;
            event.model = model;
            event.transcript = transcript;
            event.context_kept = context_kept;
            event.owner = owner;
            event
        },
    )
}

/// Events spread over one to four sessions, with distinct ids and each session's harness
/// consistent with its key.
pub fn arb_events_for_sessions() -> impl Strategy<Value = Vec<HookEvent>> {
    let sessions = prop::collection::vec(
        (prop::sample::select(vec!["claude", "codex", "cursor"]), "[a-z0-9]{4,10}")
            .prop_map(|(h, id)| SessionKey::new(h, &id)),
        1..=4,
    );
    (sessions, prop::collection::vec((arb_event(), any::<prop::sample::Index>()), 0..40)).prop_map(
        |(sessions, events)| {
            events
                .into_iter()
                .enumerate()
                .map(|(i, (mut event, pick))| {
                    let session = pick.get(&sessions).clone();
                    let harness = session.as_str().split_once(':').map_or("", |(h, _)| h).to_owned();
                    event.harness.name = harness;
                    event.id = EventId(format!("{:08x}{}", i, &event.id.0[8..]));
                    event.session = session;
                    event
                })
                .collect()
        },
    )
}

/// A valid note path: one to four segments of lowercase letters, digits, `-`, `_` and `.`.
pub fn arb_note_path() -> impl Strategy<Value = NotePath> {
    let segment = "[a-z0-9_-][a-z0-9._-]{0,15}";
    (prop::collection::vec(segment, 0..=3), "[a-z0-9_-][a-z0-9._-]{0,15}").prop_map(|(dirs, file)| {
        let mut path = dirs.join("/");
        if !path.is_empty() {
            path.push('/');
        }
        path.push_str(&file);
        path.push_str(".md");
        NotePath::new(path).expect("strategy builds valid paths")
    })
}

/// Any valid scope: `user`, or a project or session with an id of any Unicode a scope id may hold
/// (no control or invisible characters, no path syntax: `memory_core::scope_id_problem`).
pub fn arb_scope() -> impl Strategy<Value = Scope> {
    let any_id =
        || "\\PC{1,16}".prop_filter("a valid scope id", |id| memory_core::scope_id_problem(id).is_none());
    prop_oneof![
        Just(Scope::User),
        "[a-z0-9-]{1,16}".prop_map(Scope::Project),
        any_id().prop_map(Scope::Project),
        "[a-z0-9:-]{1,24}".prop_map(Scope::Session),
        any_id().prop_map(Scope::Session),
    ]
}

/// Text that YAML would misread unless it is quoted.
const YAML_TRAPS: &[&str] = &[
    "yes",
    "no",
    "null",
    "~",
    "true",
    "1.0",
    "0x10",
    "- item",
    ": colon",
    "#comment",
    "'quoted'",
    "\"dq\"",
    "key: value",
    "---",
    "...",
    "[list]",
    "{map}",
    "&anchor",
    "*alias",
    "!tag",
    "|",
    ">",
    "@at",
    "`tick`",
    " leading space",
    "trailing space ",
    "tab\there",
    "2024-01-01",
];

fn arb_title() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(YAML_TRAPS).prop_map(str::to_owned),
        "[^\\n\\r]{0,60}".prop_filter("title must not be blank", |t| !t.trim().is_empty()),
        "[A-Za-z][A-Za-z0-9 ]{0,40}",
    ]
}

fn arb_body() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        Just("---".to_owned()),
        Just("---\r".to_owned()),
        Just(String::new()),
        Just("\r".to_owned()),
        prop::sample::select(YAML_TRAPS).prop_map(str::to_owned),
        ".{0,40}",
        "\\PC{0,40}",
    ];
    (0usize..3, prop::collection::vec(line, 0..12), any::<bool>()).prop_map(|(blank, lines, final_nl)| {
        let mut body = "\n".repeat(blank);
        body.push_str(&lines.join("\n"));
        if final_nl {
            body.push('\n');
        }
        body
    })
}

/// A valid note of any kind and scope: YAML-hostile titles and descriptions, bodies of any Unicode
/// with `---` lines, leading newlines and CRLF line ends.
pub fn arb_note() -> impl Strategy<Value = Note> {
    let kind = prop::sample::select(vec![
        NoteKind::Profile,
        NoteKind::Preference,
        NoteKind::Convention,
        NoteKind::Tool,
        NoteKind::Procedure,
        NoteKind::Fact,
    ]);
    let meta = (
        arb_title(),
        proptest::option::of(prop_oneof![arb_title(), ".{0,60}"]),
        prop::collection::vec("[a-z0-9]{1,6}(-[a-z0-9]{1,6}){0,2}", 0..5),
        arb_scope(),
        kind,
        prop::collection::vec(arb_event_id(), 0..3),
        arb_time(),
        prop_oneof![
            Just("human".to_owned()),
            Just("deterministic".to_owned()),
            "[a-z]{1,8}:[a-z0-9.-]{1,12}"
        ],
        proptest::option::of("[a-z]{1,8}@[a-z]{1,8}\\.[a-z]{2,3}"),
    )
        .prop_map(|(title, description, tags, scope, kind, sources, updated, generator, owner)| {
            NoteMeta { title, description, tags, scope, kind, sources, updated, generator, owner }
        });
    (arb_note_path(), meta, arb_body()).prop_map(|(path, meta, body)| Note { path, meta, body })
}
