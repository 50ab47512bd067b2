// A game's rules page, /rules/GAME?preset=NAME: first how to play, in plain words (the game's
// module's `howToPlay(rules, game)`: a game's powers drawn as its cards), then every rule option
// with its value in the preset and what it means, and last the sentences of the rule sheets each
// comes from — made from GET /api/games, so it is always the rules the server plays. A module may
// draw a legend for an option (its `legend(name, value)` export).
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
  // the sources last, numbered: each option links to the sentence of the sheets behind it
  const sources = [];
  const rows = g.options.map((o) => {
    const v = values[o.name];
    const differs = preset !== g.default_preset && JSON.stringify(v) !== JSON.stringify(base[o.name]);
    let legend = null;
    try { legend = mod?.legend?.(o.name, v) || null; } catch { legend = null; }
    let cite = null;
    if (o.source) {
      sources.push({option: o.name, text: o.source});
      const n = sources.length;
      cite = h("a", {class: "rule-cite small", href: `#source-${n}`, id: `cite-${n}`, "aria-label": `source ${n}`}, `[${n}]`);
    }
    return h("section", {class: "rule" + (differs ? " differs" : ""), id: "rule-" + o.name, "data-option": o.name},
      h("h3", {}, words(o.name), " ", h("span", {class: "rule-value", "data-value": JSON.stringify(v)}, show(v, o))),
      differs ? h("p", {class: "small rule-differs"}, `Not as in the ${g.default_preset} rules (${show(base[o.name], o)}).`) : null,
      h("p", {}, o.doc, " ", cite),
      legend ? h("div", {class: "rule-legend"}, legend) : null);
  });
  let how = null;
  try { how = mod?.howToPlay?.(values, g.name) || null; } catch (err) { console.error(err); how = null; }
  const [lo, hi] = g.players;
  fill(root, h("article", {class: "rules-page"},
    h("p", {class: "small"}, h("a", {href: "/"}, "← Lobby")),
    h("h1", {}, `How to play ${g.title}`),
    h("p", {class: "summary"}, g.summary, ` ${lo === hi ? lo : `${lo} to ${hi}`} players.`),
    h("div", {class: "row"}, h("label", {for: "rules-preset"}, "Rule set"), presetSel,
      h("a", {class: "button-link", id: "play-these", href: `/?game=${encodeURIComponent(g.name)}&preset=${encodeURIComponent(preset)}`},
        "Open a table with these rules"),
      g.web?.tutorial ? h("a", {class: "button-link", href: `/learn/${g.name}`}, "Learn to play") : null),
    h("section", {class: "card how-to-play", id: "how-to-play"}, h("h2", {}, `The game, in a few words (${preset} rules)`),
      how || h("p", {}, g.summary)),
    h("section", {class: "rules-options", id: "rules-options"},
      h("h2", {}, "Every option of these rules"),
      h("p", {class: "muted"}, "Each can be changed in the lobby before a table opens; each says what it does, and its number " +
        "leads to the sentence of the rule sheets it comes from."),
      h("div", {class: "rules-list"}, rows)),
    h("section", {class: "card rules-sources", id: "sources"}, h("h2", {}, "Sources"),
      h("p", {class: "small muted"}, "The sentences of the rule sheets (and our readings, where they are silent) behind each option."),
      h("ol", {}, sources.map((x, i) => h("li", {id: `source-${i + 1}`, class: "rule-source", "data-option": x.option},
        h("strong", {}, `${x.option.replaceAll("_", " ")}: `), x.text, " ", h("a", {href: `#cite-${i + 1}`, class: "small"}, "↩")))))));
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
