//! A scripted model server for the real harness CLIs: a small HTTP/1.1 server on loopback that speaks
//! the Anthropic Messages API (Claude Code), the OpenAI Responses API (Codex), Gemini's
//! `generateContent` REST API (Gemini CLI) and the OpenAI Chat Completions API (Copilot CLI with a
//! provider of its own), streaming (SSE) and not, and records every request it receives.
//!
//! Each model request is answered by the script: while the conversation holds fewer tool calls than
//! the script has steps, the next step is sent as a tool call; after that, plain text. A request that
//! offers no tools (a title or summary request) always gets text.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

/// The final answer of every scripted turn.
pub(crate) const FINAL_TEXT: &str = "All done.";

/// One recorded request. Authorisation headers are never kept.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) body: Value,
}

impl Request {
    /// Every text a model sees in this request, in order: Claude's message text blocks, Codex's
    /// message items (developer, user, assistant), Gemini's content parts and chat messages, with
    /// their roles.
    pub(crate) fn texts(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some(system) = self.body.get("systemInstruction") {
            for part in system.get("parts").and_then(Value::as_array).into_iter().flatten() {
                if let Some(text) = part.get("text").and_then(Value::as_str) {
                    out.push(("system".to_owned(), text.to_owned()));
                }
            }
        }
        for content in self.body.get("contents").and_then(Value::as_array).into_iter().flatten() {
            let role = content.get("role").and_then(Value::as_str).unwrap_or_default().to_owned();
            for part in content.get("parts").and_then(Value::as_array).into_iter().flatten() {
                if let Some(text) = part.get("text").and_then(Value::as_str) {
                    out.push((role.clone(), text.to_owned()));
                }
            }
        }
        let items = self.body.get("messages").or_else(|| self.body.get("input"));
        for item in items.and_then(Value::as_array).into_iter().flatten() {
            let role = item.get("role").and_then(Value::as_str).unwrap_or_default().to_owned();
            match item.get("content") {
                Some(Value::String(text)) => out.push((role, text.clone())),
                Some(Value::Array(parts)) => {
                    for part in parts {
                        if let Some(text) = part.get("text").and_then(Value::as_str) {
                            out.push((role.clone(), text.to_owned()));
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Whether this is a model call (as opposed to a probe or a model listing).
    pub(crate) fn is_model_call(&self) -> bool {
        let path = self.path.split('?').next().unwrap_or_default();
        self.method == "POST"
            && ["/messages", "/responses", ":streamGenerateContent", "/chat/completions"]
                .iter()
                .any(|end| path.ends_with(end))
    }
}

#[derive(Default)]
struct State {
    requests: Vec<Request>,
    /// Tool calls, as (tool name, input), for Anthropic-format requests.
    claude_script: Vec<(String, Value)>,
    /// Tool calls, as (function name, arguments), for Responses-format requests.
    codex_script: Vec<(String, Value)>,
    /// Tool calls, as (function name, arguments), for Gemini-format requests.
    gemini_script: Vec<(String, Value)>,
    /// Tool calls, as (function name, arguments), for Chat Completions requests.
    chat_script: Vec<(String, Value)>,
}

/// The running server; stops when dropped.
pub(crate) struct ModelServer {
    port: u16,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ModelServer {
    pub(crate) fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let state = Arc::new(Mutex::new(State::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let ids = Arc::new(AtomicU64::new(1));
        let thread = {
            let (state, stop) = (Arc::clone(&state), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            let (state, ids) = (Arc::clone(&state), Arc::clone(&ids));
                            std::thread::spawn(move || serve(stream, &state, &ids));
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
            })
        };
        Self { port, state, stop, thread: Some(thread) }
    }

    /// The server root (Claude Code's `ANTHROPIC_BASE_URL`).
    pub(crate) fn root(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Scripts the tool calls of the next Claude Code turns.
    pub(crate) fn script_claude(&self, calls: Vec<(&str, Value)>) {
        self.state.lock().unwrap().claude_script =
            calls.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
    }

    /// Scripts the tool calls of the next Codex turns.
    pub(crate) fn script_codex(&self, calls: Vec<(&str, Value)>) {
        self.state.lock().unwrap().codex_script = calls.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
    }

    /// Scripts the tool calls of the next Gemini CLI turns.
    pub(crate) fn script_gemini(&self, calls: Vec<(&str, Value)>) {
        self.state.lock().unwrap().gemini_script =
            calls.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
    }

    /// Scripts the tool calls of the next Chat Completions turns (Copilot CLI).
    pub(crate) fn script_chat(&self, calls: Vec<(&str, Value)>) {
        self.state.lock().unwrap().chat_script = calls.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
    }

    /// Removes and returns the requests recorded so far.
    pub(crate) fn take(&self) -> Vec<Request> {
        std::mem::take(&mut self.state.lock().unwrap().requests)
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve(stream: TcpStream, state: &Mutex<State>, ids: &AtomicU64) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let Ok(mut writer) = stream.try_clone() else { return };
    let mut reader = BufReader::new(stream);
    let Some((method, path, body)) = read_request(&mut reader) else { return };
    let request = Request { method: method.clone(), path: path.clone(), body };
    let (status, content_type, reply) = {
        let mut state = state.lock().unwrap();
        state.requests.push(request.clone());
        respond(&request, &state, ids)
    };
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncache-control: no-cache\r\nconnection: close\r\n\
         content-length: {}\r\n\r\n",
        if method == "HEAD" { 0 } else { reply.len() }
    );
    let _ = writer.write_all(head.as_bytes());
    if method != "HEAD" {
        let _ = writer.write_all(reply.as_bytes());
    }
    let _ = writer.flush();
}

/// Reads one request: method, path and JSON body (`Null` when empty or not JSON).
fn read_request(reader: &mut BufReader<TcpStream>) -> Option<(String, String, Value)> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut headers = BTreeMap::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
        }
    }
    let mut body = Vec::new();
    if headers.get("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).ok()?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(length) = headers.get("content-length").and_then(|v| v.parse::<usize>().ok()) {
        body.resize(length, 0);
        reader.read_exact(&mut body).ok()?;
    }
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    Some((method, path, body))
}

/// Status line, content type and body for one request.
fn respond(request: &Request, state: &State, ids: &AtomicU64) -> (&'static str, &'static str, String) {
    let id = ids.fetch_add(1, Ordering::Relaxed);
    let path = request.path.split('?').next().unwrap_or_default();
    match (request.method.as_str(), path) {
        ("HEAD", _) => ("200 OK", "text/plain", String::new()),
        ("GET", p) if p.ends_with("/models") => ("200 OK", "application/json", models()),
        ("POST", p) if p.ends_with("/messages/count_tokens") => {
            ("200 OK", "application/json", json!({ "input_tokens": 1000 }).to_string())
        }
        ("POST", p) if p.ends_with("/messages") => {
            let call = next_call(&request.body, "messages", "tool_use", &state.claude_script);
            anthropic(&request.body, call, id)
        }
        ("POST", p) if p.ends_with("/responses") => {
            let call = next_call(&request.body, "input", "function_call", &state.codex_script);
            responses(&request.body, call, id)
        }
        ("POST", p) if p.ends_with(":streamGenerateContent") => {
            let call = gemini_call(&request.body, &state.gemini_script);
            ("200 OK", "text/event-stream", gemini(call, true))
        }
        ("POST", p) if p.ends_with(":generateContent") => {
            ("200 OK", "application/json", gemini(gemini_call(&request.body, &state.gemini_script), false))
        }
        ("POST", p) if p.ends_with("/chat/completions") => chat(&request.body, &state.chat_script, id),
        _ => ("404 Not Found", "application/json", json!({ "error": "not scripted" }).to_string()),
    }
}

fn models() -> String {
    json!({
        "object": "list",
        "data": [{ "id": "scripted", "object": "model", "type": "model", "created": 0,
                   "owned_by": "local", "display_name": "Scripted" }],
        "models": [],
        "has_more": false,
    })
    .to_string()
}

/// The scripted tool call due for this request, if any.
fn next_call<'a>(
    body: &Value,
    history_key: &str,
    call_type: &str,
    script: &'a [(String, Value)],
) -> Option<&'a (String, Value)> {
    let offers_tools = body.get("tools").and_then(Value::as_array).is_some_and(|t| !t.is_empty());
    if !offers_tools {
        return None;
    }
    let history = body.get(history_key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    // Claude nests tool calls in assistant messages' content; Codex lists them as input items.
    let calls = history
        .iter()
        .flat_map(|item| {
            std::iter::once(item).chain(item.get("content").and_then(Value::as_array).into_iter().flatten())
        })
        .filter(|item| item.get("type").and_then(Value::as_str) == Some(call_type))
        .count();
    script.get(calls)
}

fn sse(events: &[Value]) -> String {
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap_or_default()))
        .collect()
}

fn anthropic(body: &Value, call: Option<&(String, Value)>, id: u64) -> (&'static str, &'static str, String) {
    let model = body.get("model").cloned().unwrap_or(json!("scripted"));
    let (block, stop_reason) = match call {
        Some((name, input)) => (
            json!({ "type": "tool_use", "id": format!("toolu_{id:04}"), "name": name, "input": input }),
            "tool_use",
        ),
        None => (json!({ "type": "text", "text": FINAL_TEXT }), "end_turn"),
    };
    let usage = json!({ "input_tokens": 1000, "output_tokens": 20,
                        "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0 });
    let message = json!({ "id": format!("msg_{id:04}"), "type": "message", "role": "assistant", "model": model,
                          "stop_sequence": null });
    if body.get("stream").and_then(Value::as_bool) != Some(true) {
        let mut full = message;
        full["content"] = json!([block]);
        full["stop_reason"] = json!(stop_reason);
        full["usage"] = usage;
        return ("200 OK", "application/json", full.to_string());
    }
    let mut start = message;
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    start["usage"] = usage;
    let (empty, delta) = match &block["type"] {
        t if t == "tool_use" => {
            let mut empty = block.clone();
            empty["input"] = json!({});
            (empty, json!({ "type": "input_json_delta", "partial_json": block["input"].to_string() }))
        }
        _ => (json!({ "type": "text", "text": "" }), json!({ "type": "text_delta", "text": FINAL_TEXT })),
    };
    let events = [
        json!({ "type": "message_start", "message": start }),
        json!({ "type": "content_block_start", "index": 0, "content_block": empty }),
        json!({ "type": "content_block_delta", "index": 0, "delta": delta }),
        json!({ "type": "content_block_stop", "index": 0 }),
        json!({ "type": "message_delta", "delta": { "stop_reason": stop_reason, "stop_sequence": null },
                "usage": { "output_tokens": 20 } }),
        json!({ "type": "message_stop" }),
    ];
    ("200 OK", "text/event-stream", sse(&events))
}

fn responses(body: &Value, call: Option<&(String, Value)>, id: u64) -> (&'static str, &'static str, String) {
    let model = body.get("model").cloned().unwrap_or(json!("scripted"));
    let response_id = format!("resp_{id:04}");
    let item_id = format!("item_{id:04}");
    let usage = json!({ "input_tokens": 1000, "input_tokens_details": { "cached_tokens": 0 },
                        "output_tokens": 20, "output_tokens_details": { "reasoning_tokens": 0 },
                        "total_tokens": 1020 });
    let item = match call {
        Some((name, arguments)) => json!({ "type": "function_call", "id": item_id,
            "call_id": format!("call_{id:04}"), "name": name, "arguments": arguments.to_string(),
            "status": "completed" }),
        None => json!({ "type": "message", "id": item_id, "role": "assistant", "status": "completed",
            "content": [{ "type": "output_text", "text": FINAL_TEXT, "annotations": [] }] }),
    };
    let response = |status: &str, output: Value| {
        json!({ "id": response_id, "object": "response", "created_at": 0, "status": status, "model": model,
                "output": output, "usage": if status == "completed" { usage.clone() } else { Value::Null } })
    };
    if body.get("stream").and_then(Value::as_bool) != Some(true) {
        return ("200 OK", "application/json", response("completed", json!([item])).to_string());
    }
    let mut events =
        vec![json!({ "type": "response.created", "response": response("in_progress", json!([])) })];
    let mut added = item.clone();
    added["status"] = json!("in_progress");
    if call.is_some() {
        let arguments = item["arguments"].clone();
        added["arguments"] = json!("");
        events.extend([
            json!({ "type": "response.output_item.added", "output_index": 0, "item": added }),
            json!({ "type": "response.function_call_arguments.delta", "item_id": item_id, "output_index": 0,
                    "delta": arguments }),
            json!({ "type": "response.function_call_arguments.done", "item_id": item_id, "output_index": 0,
                    "arguments": arguments }),
        ]);
    } else {
        added["content"] = json!([]);
        let part = |text: &str| json!({ "type": "output_text", "text": text, "annotations": [] });
        let at =
            |kind: &str| json!({ "type": kind, "item_id": item_id, "output_index": 0, "content_index": 0 });
        let with = |mut v: Value, key: &str, value: Value| {
            v[key] = value;
            v
        };
        events.extend([
            json!({ "type": "response.output_item.added", "output_index": 0, "item": added }),
            with(at("response.content_part.added"), "part", part("")),
            with(at("response.output_text.delta"), "delta", json!(FINAL_TEXT)),
            with(at("response.output_text.done"), "text", json!(FINAL_TEXT)),
            with(at("response.content_part.done"), "part", part(FINAL_TEXT)),
        ]);
    }
    events.extend([
        json!({ "type": "response.output_item.done", "output_index": 0, "item": item }),
        json!({ "type": "response.completed", "response": response("completed", json!([item])) }),
    ]);
    for (n, event) in events.iter_mut().enumerate() {
        event["sequence_number"] = json!(n);
    }
    ("200 OK", "text/event-stream", sse(&events))
}

/// The scripted call due for a Gemini request: one per `functionCall` part already in the history.
fn gemini_call<'a>(body: &Value, script: &'a [(String, Value)]) -> Option<&'a (String, Value)> {
    let offers_tools = body.get("tools").and_then(Value::as_array).is_some_and(|t| !t.is_empty());
    if !offers_tools {
        return None;
    }
    let calls = body
        .get("contents")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|c| c.get("parts").and_then(Value::as_array).into_iter().flatten())
        .filter(|part| part.get("functionCall").is_some())
        .count();
    script.get(calls)
}

/// A Gemini `GenerateContentResponse`, as one SSE chunk when streaming. A request that offers no
/// tools (the routing classifier) is answered with the classifier's JSON.
fn gemini(call: Option<&(String, Value)>, stream: bool) -> String {
    let part = match call {
        Some((name, args)) => json!({ "functionCall": { "name": name, "args": args } }),
        None if stream => json!({ "text": FINAL_TEXT }),
        None => json!({ "text": json!({ "reasoning": "scripted", "model_choice": "flash" }).to_string() }),
    };
    let response = json!({
        "candidates": [{ "content": { "role": "model", "parts": [part] }, "finishReason": "STOP", "index": 0 }],
        "usageMetadata": { "promptTokenCount": 1000, "candidatesTokenCount": 20, "totalTokenCount": 1020 },
        "modelVersion": "scripted",
    });
    if stream { format!("data: {response}\r\n\r\n") } else { response.to_string() }
}

/// A Chat Completions answer: the scripted tool call due (one per assistant tool call already in
/// the messages), else the final text; streamed as chunks ending in `[DONE]` when asked.
fn chat(body: &Value, script: &[(String, Value)], id: u64) -> (&'static str, &'static str, String) {
    let model = body.get("model").cloned().unwrap_or(json!("scripted"));
    let offers_tools = body.get("tools").and_then(Value::as_array).is_some_and(|t| !t.is_empty());
    let done = body
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|m| m.get("tool_calls").and_then(Value::as_array))
        .map(Vec::len)
        .sum::<usize>();
    let call = script.get(done).filter(|_| offers_tools);
    let tool_calls = call.map(|(name, args)| {
        json!([{ "index": 0, "id": format!("call_{id:04}"), "type": "function",
                 "function": { "name": name, "arguments": args.to_string() } }])
    });
    let finish = if call.is_some() { "tool_calls" } else { "stop" };
    let usage = json!({ "prompt_tokens": 1000, "completion_tokens": 20, "total_tokens": 1020 });
    let chunk = |delta: Value, finish: Value| {
        json!({ "id": format!("chatcmpl-{id:04}"), "object": "chat.completion.chunk", "created": 0, "model": model,
                "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }] })
    };
    if body.get("stream").and_then(Value::as_bool) != Some(true) {
        let mut message = json!({ "role": "assistant", "content": if call.is_some() { Value::Null } else { json!(FINAL_TEXT) } });
        if let Some(calls) = &tool_calls {
            message["tool_calls"] = calls.clone();
        }
        let full = json!({ "id": format!("chatcmpl-{id:04}"), "object": "chat.completion", "created": 0,
                           "model": model, "choices": [{ "index": 0, "message": message, "finish_reason": finish }],
                           "usage": usage });
        return ("200 OK", "application/json", full.to_string());
    }
    let delta = match &tool_calls {
        Some(calls) => json!({ "role": "assistant", "content": null, "tool_calls": calls }),
        None => json!({ "role": "assistant", "content": FINAL_TEXT }),
    };
    let mut last = chunk(json!({}), json!(finish));
    last["usage"] = usage;
    let events = [chunk(delta, Value::Null), last];
    let mut out: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    out.push_str("data: [DONE]\n\n");
    ("200 OK", "text/event-stream", out)
}
