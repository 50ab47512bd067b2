// Chat at the table: lines and a few quick reactions from seated people. Names and text are put in
// as text nodes (never markup); each viewer can mute a seat for themselves (kept by this browser),
// and report another seat's line to the server's moderators (a button on the line: "Reported"
// once the server has it). A line a moderator removes goes off the list.
import { h, fill, toast } from "./dom.js";

const MAX = 200; // the server's limit (server/chat.py)
const REACTIONS = ["Nice move!", "Well played", "Oops!", "Your turn!", "Good game"];

export function chatPanel({code, seat, seats, say, onLine, report}) {
  const key = "parlour:chat-muted:" + code;
  const muted = new Set(readMuted(key));
  const lines = [];
  const reported = new Set(); // ids of the lines this page reported
  const removed = new Set(); // ids a moderator removed: never shown again (a reconnect resends)
  const list = h("ol", {class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-label": "Chat"});
  const input = h("input", {id: "chat-text", maxlength: MAX, autocomplete: "off", placeholder: "Say something…",
    "aria-label": "Chat message"});
  const form = h("form", {class: "chat-form", id: "chat-form"}, input,
    h("button", {type: "submit", class: "small-btn"}, "Send"));
  const quick = h("div", {class: "chat-quick", role: "group", "aria-label": "Quick reactions"},
    REACTIONS.map((text) => h("button", {type: "button", class: "small-btn chat-react", "data-react": text,
      onclick: () => say(text)}, text)));
  const muteBox = h("div", {class: "chat-mutes", id: "chat-mutes"});
  const hint = h("p", {class: "small muted chat-hint"});
  const el = h("section", {class: "card chat", id: "chat", "aria-label": "Chat"},
    h("h2", {}, "Chat"), list, quick, form, hint,
    h("details", {class: "chat-mute-box"}, h("summary", {}, "Mute players"), muteBox));

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    say(text.slice(0, MAX));
    input.value = "";
  });

  /** The line's "Report" button: only for a seated viewer, on another seat's line. */
  function reportButton(l) {
    if (!report || !l.id || seat() === null || l.seat === seat()) return null;
    const done = reported.has(l.id);
    const b = h("button", {type: "button", class: "chat-report", "data-report": l.id,
      "aria-label": done ? `Reported: ${l.name}'s line` : `Report ${l.name}'s line to the moderators`,
      "aria-disabled": done ? "true" : "false"}, done ? "Reported" : "Report");
    b.addEventListener("click", async () => {
      if (reported.has(l.id) || b.dataset.busy) return;
      b.dataset.busy = "1";
      try {
        await report(l);
        reported.add(l.id);
        draw();
      } catch (err) {
        delete b.dataset.busy;
        toast(`Could not report it: ${err.message}`);
      }
    });
    return b;
  }

  function draw() {
    const focused = document.activeElement?.dataset?.report; // kept on its line's button
    const shown = lines.filter((l) => !muted.has(l.seat));
    fill(list, shown.slice(-60).map((l) => h("li", {class: "chat-line", "data-seat": l.seat, "data-id": l.id || ""},
      h("span", {class: "chat-name"}, l.name), ": ", h("span", {class: "chat-text"}, l.text),
      reportButton(l))));
    if (focused) list.querySelector(`[data-report="${CSS.escape(focused)}"]`)?.focus({preventScroll: true});
    list.scrollTop = list.scrollHeight;
    const hidden = lines.length - shown.length;
    hint.textContent = hidden ? `${hidden} line${hidden === 1 ? "" : "s"} from muted players hidden.` : "";
  }

  function drawMutes() {
    const others = seats().filter((s) => s.filled && !s.bot && s.seat !== seat());
    if (!others.length) { fill(muteBox, h("p", {class: "small muted"}, "Nobody else is here to mute.")); return; }
    fill(muteBox, others.map((s) => {
      const box = h("input", {type: "checkbox", "data-mute": s.seat, checked: muted.has(s.seat)});
      box.addEventListener("change", () => {
        if (box.checked) muted.add(s.seat); else muted.delete(s.seat);
        localStorage.setItem(key, JSON.stringify([...muted]));
        draw();
      });
      return h("label", {class: "chat-mute"}, box, " ", s.name || `Seat ${s.seat + 1}`);
    }));
  }

  function canChat() {
    const mine = seat() !== null;
    input.disabled = !mine;
    for (const b of quick.querySelectorAll("button")) b.disabled = !mine;
    form.querySelector("button").disabled = !mine;
    input.placeholder = mine ? "Say something…" : "Take a seat to chat";
  }

  canChat();
  drawMutes();
  return {
    el,
    /** Lines said at the table: the ones new to this page and not muted go to onLine, together. */
    add(newLines) {
      const fresh = [];
      for (const l of newLines) {
        // a reconnected socket is sent the recent lines again: each line once
        if (l.id && (removed.has(l.id) || lines.some((x) => x.id === l.id))) continue;
        lines.push(l);
        if (!muted.has(l.seat)) fresh.push(l);
      }
      if (fresh.length) onLine?.(fresh);
      if (lines.length > 200) lines.splice(0, lines.length - 200);
      draw();
    },
    /** A moderator removed a line: off the list. */
    remove(id) {
      removed.add(id);
      const i = lines.findIndex((x) => x.id === id);
      if (i >= 0) { lines.splice(i, 1); draw(); }
    },
    refresh() { canChat(); drawMutes(); draw(); },
  };
}

function readMuted(key) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(v) ? v.filter((x) => Number.isInteger(x)) : [];
  } catch { return []; }
}
