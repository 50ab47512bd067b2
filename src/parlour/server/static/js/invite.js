// Inviting friends: the link a friend's phone can open, its QR code, and — when this server listens
// on this computer only — a warning that says how to play with friends on the same Wi-Fi.
import { api } from "./api.js";
import { h, fill, toast } from "./dom.js";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|::1)$/;

/** The invite panel of table `code` (filled when the server answers). */
export function invitePanel(code) {
  const el = h("section", {class: "card invite", id: "invite", "aria-label": "Invite friends"});
  fill(el, h("h2", {}, "Invite friends"), h("p", {class: "muted"}, "Finding this server's address…"));
  draw(el, code);
  return el;
}

async function draw(el, code) {
  let info = null;
  try { info = await api("/api/invite/" + code); } catch { info = null; }
  const path = "/t/" + code;
  const here = location.origin + path;
  const onLoopback = LOOPBACK.test(location.hostname);
  // Opened by an address others can reach: that address is the one to share. Else the server's
  // network addresses, when it listens beyond this computer.
  const links = onLoopback ? (info?.links || []) : [here];
  const link = links[0] || here;
  const copy = h("button", {type: "button", class: "small-btn", id: "copy-invite"}, "Copy link");
  copy.addEventListener("click", () => copyText(link));
  const parts = [h("h2", {}, "Invite friends"),
    h("p", {}, "Send this link, or let a friend scan the code with their phone's camera:"),
    h("p", {class: "invite-link-row"}, h("a", {href: link, id: "invite-link", class: "invite-link"}, link), " ", copy)];
  if (links.length) {
    const qr = h("img", {src: `/api/invite/${code}/qr.svg?url=${encodeURIComponent(link)}`, id: "invite-qr",
      class: "invite-qr", width: 148, height: 148, alt: `QR code of the invite link ${link}`});
    parts.push(qr);
    if (links.length > 1) {
      parts.push(h("p", {class: "small muted"}, "Other addresses of this server: ", links.slice(1).join(", ")));
    }
    parts.push(h("p", {class: "small muted"}, "Friends must be on the same Wi-Fi (or network) as this server."));
  } else {
    parts.push(h("p", {class: "invite-warn", id: "invite-warn", role: "note"},
      h("strong", {}, "Only this computer can open this link. "),
      withCode(info?.how || "Start the server with `make serve HOST=0.0.0.0` to play with friends on the same Wi-Fi.")));
  }
  fill(el, parts);
}

/** Words whose commands are marked `like this` (as the server says them): the commands as code. */
function withCode(text) {
  return String(text).split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part));
}

export async function copyText(text) {
  try { await navigator.clipboard.writeText(text); toast("Invite link copied: " + text, "info"); }
  catch { toast("Invite link: " + text, "info"); }
}
