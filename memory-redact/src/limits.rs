//! Size and shape limits on hook events, enforced before redaction so that its cost is bounded
//! and whatever a hook accepts every store reader can read back.

use memory_core::HookEvent;
use serde_json::Value;

use super::cap;

/// Kind recorded for a value cut because it nested too deep.
pub(crate) const DEPTH_KIND: &str = "too-deep";

/// Default of [`Limits::max_tool_output`], in bytes.
pub const DEFAULT_MAX_TOOL_OUTPUT: usize = 16 * 1024;

/// Default of [`Limits::max_text`], in bytes.
pub const DEFAULT_MAX_TEXT: usize = 64 * 1024;

/// Default of [`Limits::max_depth`]. JSON readers refuse documents nested deeper than 128 levels;
/// an event wraps its payload in a few levels of its own, so payload values keep half that.
pub const DEFAULT_MAX_DEPTH: usize = 64;

/// What an event may hold once redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes kept of a tool's output or error (all its strings together), marker included.
    pub max_tool_output: usize,
    /// Bytes kept of any other single text: the prompt, each string of a tool's input and of the
    /// raw payload.
    pub max_text: usize,
    /// Nesting levels kept in the tool input and output and the raw payload; deeper values are
    /// replaced by a marker string.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_tool_output: DEFAULT_MAX_TOOL_OUTPUT,
            max_text: DEFAULT_MAX_TEXT,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// The string that replaces a value nested deeper than the limit.
fn depth_marker(limit: usize) -> Value {
    Value::String(format!("[agent-memory: nested deeper than {limit} levels, omitted]"))
}

/// Replaces every value below `limit` levels of nesting; returns how many were cut.
pub(crate) fn cut_depth(event: &mut HookEvent, limit: usize) -> usize {
    let mut cut = cut_value(&mut event.raw, limit, limit);
    if let Some(tool) = event.tool.as_mut() {
        for value in [tool.input.as_mut(), tool.output.as_mut()].into_iter().flatten() {
            cut += cut_value(value, limit, limit);
        }
    }
    cut
}

fn cut_value(value: &mut Value, left: usize, limit: usize) -> usize {
    let children: Vec<&mut Value> = match value {
        Value::Array(items) => items.iter_mut().collect(),
        Value::Object(map) => map.values_mut().collect(),
        _ => return 0,
    };
    if left <= 1 {
        *value = depth_marker(limit);
        return 1;
    }
    children.into_iter().map(|child| cut_value(child, left - 1, limit)).sum()
}

/// Caps the prompt, every string of the tool input (and the texts described from it) and every
/// string of the raw payload at `max` bytes each; returns how many were cut.
pub(crate) fn cap_texts(event: &mut HookEvent, max: usize) -> usize {
    let mut cut = 0;
    if let Some(prompt) = event.prompt.as_mut() {
        cut += usize::from(cap::cap_string(prompt, max) > 0);
    }
    if let Some(tool) = event.tool.as_mut() {
        if let Some(input) = tool.input.as_mut() {
            cut += cap_each(input, max);
        }
        for text in tool.normalised_texts_mut() {
            cut += usize::from(cap::cap_string(text, max) > 0);
        }
    }
    cut + cap_each(&mut event.raw, max)
}

fn cap_each(value: &mut Value, max: usize) -> usize {
    match value {
        Value::String(s) if s.len() > max => usize::from(cap::cap_string(s, max) > 0),
        Value::Array(items) => items.iter_mut().map(|item| cap_each(item, max)).sum(),
        Value::Object(map) => map.values_mut().map(|item| cap_each(item, max)).sum(),
        _ => 0,
    }
}
