// A game's rules page, /rules/GAME?preset=NAME: every rule option with its value in the preset,
// what it means and the sentence of the rule sheets it comes from — made from GET /api/games, so it
// is always the rules the server plays. A game's module may draw a legend for an option (its
// `legend(name, value)` export: a card game's powers drawn as its cards).
import { api } from "./api.js";
import { h, fill } from "./dom.js";

export async function rulesPage(root, name) {
  let games;
  try { games = await api("/api/games"); } catch (e) {
    fill(root, h("div", {class: "card"}, h("h1", {}, "Rules"), h("p", {class: "problem"}, "The server did not answer: " + e.message)));
    return;
  }
  const g = games.find((x) => x.name === name);
  if (!g) {
    fill(root, h("div", {class: "card"}, h("h1", {}, "No such game"), h("p", {}, `There is no game “${name}” here.`),
      h("p", {}, h("a", {href: "/"}, "Back to the lobby"))));
    return;
  }
  const params = new URLSearchParams(location.search);
  const preset = g.presets.includes(params.get("preset")) ? params.get("preset") : g.default_preset;
  let mod = null;
  if (g.web?.stylesheet) document.head.append(h("link", {rel: "stylesheet", href: g.web.stylesheet}));
  try { if (g.web?.module) mod = await import(g.web.module); } catch { mod = null; }
  document.title = `${g.title} rules (${preset}) · parlour`;

  const values = g.preset_rules[preset] || {};
  const base = g.preset_rules[g.default_preset] || {};
  const presetSel = h("select", {id: "rules-preset", "aria-label": "Rule set"},
    g.presets.map((p) => h("option", {value: p, selected: p === preset}, p)));
  presetSel.addEventListener("change", () => {
    location.search = "?preset=" + encodeURIComponent(presetSel.value);
  });
  const rows = g.options.map((o) => {
    const v = values[o.name];
    const differs = preset !== g.default_preset && JSON.stringify(v) !== JSON.stringify(base[o.name]);
    let legend = null;
    try { legend = mod?.legend?.(o.name, v) || null; } catch { legend = null; }
    return h("section", {class: "rule" + (differs ? " differs" : ""), id: "rule-" + o.name, "data-option": o.name},
      h("h2", {}, words(o.name), " ", h("span", {class: "rule-value", "data-value": JSON.stringify(v)}, show(v, o))),
      differs ? h("p", {class: "small rule-differs"}, `Not as in the ${g.default_preset} rules (${show(base[o.name], o)}).`) : null,
      h("p", {}, o.doc),
      legend ? h("div", {class: "rule-legend"}, legend) : null,
      o.source ? h("blockquote", {class: "rule-source"}, h("span", {class: "small muted"}, "From the rule sheets: "), o.source) : null);
  });
  const [lo, hi] = g.players;
  fill(root, h("article", {class: "rules-page"},
    h("p", {class: "small"}, h("a", {href: "/"}, "← Lobby")),
    h("h1", {}, `The rules of ${g.title}`),
    h("p", {class: "summary"}, g.summary),
    h("div", {class: "row"}, h("label", {for: "rules-preset"}, "Rule set"), presetSel,
      h("a", {class: "button-link", id: "play-these", href: `/?game=${encodeURIComponent(g.name)}&preset=${encodeURIComponent(preset)}`},
        "Open a table with these rules"),
      g.web?.tutorial ? h("a", {class: "button-link", href: `/learn/${g.name}`}, "Learn to play") : null),
    h("p", {class: "muted"}, `${lo === hi ? lo : `${lo} to ${hi}`} players. Every option below can be changed in the lobby ` +
      `before a table opens; each says what it does and the sentence of the rule sheets it comes from.`),
    h("div", {class: "rules-list"}, rows)));
}

function words(name) {
  const w = name.replaceAll("_", " ");
  return w.charAt(0).toUpperCase() + w.slice(1) + ":";
}

/** An option's value in words: yes/no, a list, a map as "1: hold on, 2: pick two". */
function show(v, o) {
  if (v === null || v === undefined || v === "") return "none";
  if (o.type === "bool") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.length ? v.join(", ") : "none";
  if (typeof v === "object") {
    const e = Object.entries(v).sort((a, b) => Number(a[0]) - Number(b[0]));
    return e.length ? e.map(([k, x]) => `${k}: ${String(x).replaceAll("_", " ")}`).join(", ") : "none";
  }
  return String(v).replaceAll("_", " ");
}
