// Whot!'s legal moves as the pieces choose among them: always from their fields (msg.moves),
// never by reading move texts.
import { sameBase } from "./cards.js";

/** The legal move like `base` (kind, card, call, power) said with the chosen declaration `say`,
 * else without one, else any legal form of it; null if none is legal. */
export function withSay(base, moves, say) {
  const same = moves.filter((m) => sameBase(m, base));
  return same.find((m) => (m.say || "") === say) || same.find((m) => !m.say) || same[0] || null;
}

/** Whether a card is played by a move that changes the direction (a pick card, pick_reverses). */
export function reversing(m) {
  return m.kind === "play" && m.card !== "whot" && m.power === "reverse";
}
