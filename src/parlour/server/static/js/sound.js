// Short sounds made on the spot with WebAudio (no files: zero bytes to load): a card played, a card
// drawn, your turn, a win. The mute switch is remembered by this browser (localStorage).

const KEY = "parlour:mute";
// name -> notes: [frequency Hz, start s, length s, wave, volume]
const SOUNDS = {
  play: [[520, 0, 0.07, "triangle", 0.22], [780, 0.05, 0.08, "triangle", 0.16]],
  draw: [[300, 0, 0.06, "sine", 0.2], [240, 0.06, 0.07, "sine", 0.16]],
  turn: [[660, 0, 0.12, "sine", 0.2], [880, 0.13, 0.16, "sine", 0.2]],
  win: [[523, 0, 0.14, "triangle", 0.22], [659, 0.14, 0.14, "triangle", 0.22], [784, 0.28, 0.3, "triangle", 0.22]],
  chat: [[990, 0, 0.05, "sine", 0.1]],
};

let ctx = null;

export const sound = {
  /** Every sound asked for, by name (for the tests; also when muted). */
  asked: [],

  muted() {
    return localStorage.getItem(KEY) === "1";
  },

  setMuted(on) {
    localStorage.setItem(KEY, on ? "1" : "0");
  },

  play(name) {
    this.asked.push(name);
    if (this.muted() || !SOUNDS[name]) return;
    try {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return;
      ctx = ctx || new AC();
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      const t0 = ctx.currentTime + 0.01;
      for (const [freq, start, len, wave, vol] of SOUNDS[name]) {
        const osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.type = wave;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, t0 + start);
        gain.gain.exponentialRampToValueAtTime(vol, t0 + start + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + len);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t0 + start);
        osc.stop(t0 + start + len + 0.02);
      }
    } catch { /* no sound is no problem */ }
  },
};
