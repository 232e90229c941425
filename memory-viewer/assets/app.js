// agent-memory viewer: local times, and live updates over server-sent events.
"use strict";

function localTimes(root) {
  for (const t of root.querySelectorAll("time[datetime]")) {
    const at = new Date(t.getAttribute("datetime"));
    if (!isNaN(at)) { t.textContent = at.toLocaleString(); t.title = t.getAttribute("datetime"); }
  }
}

function fragment(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  localTimes(template.content);
  return template.content.firstElementChild;
}

function onEvent(data) {
  const view = document.body.dataset.view;
  if (view === "session" && data.session === document.body.dataset.session) {
    const list = document.getElementById("events");
    if (list && !document.getElementById("e-" + data.seq)) {
      const row = fragment(data.event_html);
      row.classList.add("fresh");
      list.appendChild(row);
    }
  } else if (view === "sessions") {
    const timeline = document.getElementById("timeline");
    if (!timeline) return;
    let row = timeline.querySelector('li.session[data-key="' + CSS.escape(data.session) + '"]');
    const fresh = fragment(data.session_html);
    if (row) row.remove();
    fresh.classList.add("fresh");
    let list = timeline.querySelector("ul.sessions");
    if (!list) {
      list = document.createElement("ul");
      list.className = "sessions";
      timeline.prepend(list);
      const empty = document.querySelector("p.empty");
      if (empty) empty.remove();
    }
    list.prepend(fresh);
  }
}

function live() {
  const after = document.body.dataset.liveAfter;
  if (after === undefined || !window.EventSource) return;
  const source = new EventSource("/live?after=" + encodeURIComponent(after));
  const badge = document.getElementById("live");
  source.onopen = () => { if (badge) badge.hidden = false; document.body.dataset.live = "on"; };
  source.onerror = () => { if (badge) badge.hidden = true; };
  source.addEventListener("event", (e) => onEvent(JSON.parse(e.data)));
}

document.addEventListener("DOMContentLoaded", () => { localTimes(document); live(); });
