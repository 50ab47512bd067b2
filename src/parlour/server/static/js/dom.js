// Small DOM helpers. Every text from the server goes in as a text node, never as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: h("button", {class: "x", onclick: f}, "text", child…). */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same call shape as h(). */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Empty an element and put new children in. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Make an SVG group behave like a button: focusable, Enter/Space activate, a label for readers. */
export function clickable(el, label, onactivate) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.classList.add("clickable");
  el.addEventListener("click", (e) => { e.stopPropagation(); onactivate(e); });
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onactivate(e); }
  });
  return el;
}

/** A short message for screen readers. */
export function announce(text) {
  const el = document.getElementById("announce");
  if (el) { el.textContent = ""; setTimeout(() => { el.textContent = text; }, 30); }
}

/** A time span in words for a clock: "45 s", "12 min", "5 h 12 min", "2 days 3 h". */
export function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 120) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const hours = Math.floor(min / 60);
  if (hours < 48) return `${hours} h` + (min % 60 ? ` ${min % 60} min` : "");
  return `${Math.floor(hours / 24)} days` + (hours % 24 ? ` ${hours % 24} h` : "");
}

let toastTimer = 0;
/** A visible message that goes away by itself (errors from the server, copy confirmations). */
export function toast(text, kind = "error") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.className = kind;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 6000);
}
