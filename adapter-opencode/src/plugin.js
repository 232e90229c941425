// agent-memory plugin for OpenCode, written by `agent-memory install --harness opencode`.
// It hands OpenCode's lifecycle events to `agent-memory hook opencode` (JSON on stdin, one process
// per event, one at a time) and gives the model the notes it answers with. It never stops a session:
// a missing binary, a slow answer or bad output just means no notes. `agent-memory uninstall`
// removes this file; edits to it are overwritten by the next install.

import { spawn } from "node:child_process"

const BINARY = @BINARY@
const TIMEOUT_MS = 10000
// Bus events recorded as they are: the turn's end, its failure, a compaction, a deleted session.
const FORWARDED = new Set(["session.idle", "session.error", "session.compacted", "session.deleted"])

// Runs the hook with one payload; resolves to its JSON answer, or null whatever goes wrong. A
// hook whose answer nobody reads (`wait` false) is left to finish on its own: OpenCode may exit
// right after the event (the end of a `run`), and the event must still be recorded.
function hook(payload, wait) {
  if (!wait) {
    try {
      const child = spawn(BINARY, ["hook", "opencode"], { stdio: ["pipe", "ignore", "ignore"], detached: true })
      child.on("error", () => {})
      child.stdin.on("error", () => {})
      child.stdin.end(JSON.stringify(payload))
      child.unref()
    } catch {}
    return Promise.resolve(null)
  }
  return new Promise((resolve) => {
    let done = false
    let out = ""
    let child
    const finish = (value) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(value)
    }
    const timer = setTimeout(() => {
      try {
        child?.kill("SIGKILL")
      } catch {}
      finish(null)
    }, TIMEOUT_MS)
    try {
      child = spawn(BINARY, ["hook", "opencode"], { stdio: ["pipe", "pipe", "ignore"] })
    } catch {
      return finish(null)
    }
    child.on("error", () => finish(null))
    child.stdout.on("data", (chunk) => (out += chunk))
    child.on("close", () => {
      try {
        finish(out.trim() ? JSON.parse(out) : null)
      } catch {
        finish(null)
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

const text = (value) => (typeof value === "string" && value.trim() ? value : undefined)

export const AgentMemory = async ({ directory, worktree }) => {
  // One hook at a time, in the order OpenCode fired them: the store keeps that order.
  let queue = Promise.resolve()
  const send = (name, sessionID, input, output, wait = true) => {
    const payload = { hook_event_name: name, session_id: sessionID, directory, worktree, input, output }
    const answer = queue.then(() => hook(payload, wait))
    queue = answer.catch(() => null)
    return answer.catch(() => null)
  }
  const started = new Map() // session id -> its session-start context
  const prompts = new Map() // user message id -> its prompt's context
  const calls = new Map() // tool call id -> context for the call's result

  // The first time this process meets a session: `session.created` for a new one, else
  // `session.continued` (a session resumed with --continue or --session).
  const start = (name, sessionID, input) => {
    if (!sessionID) return Promise.resolve(undefined)
    if (!started.has(sessionID)) started.set(sessionID, send(name, sessionID, input).then((a) => text(a?.context)))
    return started.get(sessionID)
  }

  return {
    event: async ({ event }) => {
      try {
        const sessionID = event?.properties?.sessionID ?? event?.properties?.info?.id
        if (event?.type === "session.created") await start("session.created", sessionID, event)
        else if (FORWARDED.has(event?.type) && sessionID) await send(event.type, sessionID, event, undefined, false)
        else if (event?.type === "message.part.updated") {
          const part = event.properties?.part
          if (part?.type === "tool" && part.state?.status === "error") await send("tool.failed", part.sessionID, event, undefined, false)
        }
      } catch {}
    },

    "chat.message": async (input, output) => {
      try {
        await start("session.continued", input.sessionID, input)
        const answer = await send("chat.message", input.sessionID, input, output)
        const context = text(answer?.context)
        if (context && output?.message?.id) prompts.set(output.message.id, context)
      } catch {}
    },

    "tool.execute.before": async (input, output) => {
      let answer
      try {
        answer = await send("tool.execute.before", input.sessionID, input, output)
        const context = text(answer?.context)
        if (context && input.callID) calls.set(input.callID, context)
      } catch {}
      // A block stops the call: OpenCode reports the error to the model instead of running it.
      if (text(answer?.block)) throw new Error(answer.block)
    },

    "tool.execute.after": async (input, output) => {
      try {
        await send("tool.execute.after", input.sessionID, input, output)
        const context = calls.get(input.callID)
        calls.delete(input.callID)
        if (context && typeof output?.output === "string") output.output += "\n\n" + context
      } catch {}
    },

    // The model's view of the conversation, before each call: the session's notes open its first
    // prompt, each prompt's notes follow it. Nothing here is saved in the session.
    "experimental.chat.messages.transform": async (_input, output) => {
      try {
        let first = true
        for (const message of output?.messages ?? []) {
          const info = message?.info
          if (info?.role !== "user" || !Array.isArray(message.parts)) continue
          const add = (where, id, context) => {
            if (!context || message.parts.some((p) => p?.id === id)) return
            const part = { id, sessionID: info.sessionID, messageID: info.id, type: "text", text: context, synthetic: true }
            if (where === "start") message.parts.unshift(part)
            else message.parts.push(part)
          }
          if (first) add("start", "prt_agent_memory_session_" + info.id, await started.get(info.sessionID))
          first = false
          add("end", "prt_agent_memory_prompt_" + info.id, prompts.get(info.id))
        }
      } catch {}
    },
  }
}
