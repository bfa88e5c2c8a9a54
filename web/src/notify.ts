// Your turn, noticed (docs/web.md, "Your turn"): the tab's title and icon change while this seat
// decides; optional sounds (made with WebAudio, no media files: your turn, a tile laid, a scoring) and a browser notification when
// the tab is hidden. The player's settings (these, and the board's coordinates) are remembered in
// localStorage["carc.settings"].
import { h, load, save } from "./util";
import { t } from "./i18n";

// ask_name: an invite opened for the first time asks the player's name for that game
export interface Settings { sound: boolean; notify: boolean; coords: boolean; ask_name: boolean }
const KEY = "carc.settings";

export function settings(): Settings {
  return { sound: false, notify: false, coords: false, ask_name: true, ...load<Partial<Settings>>(KEY, {}) };
}
export function setSetting(k: keyof Settings, v: boolean): void {
  save(KEY, { ...settings(), [k]: v });
}

// The settings menu of the game page's header: a checkbox per setting (input[data-setting=NAME]).
export function settingsMenu(changed: (k: keyof Settings) => void): HTMLElement {
  const s = settings();
  const box = (k: keyof Settings, label: string) => {
    const inp = h("input", { type: "checkbox", "data-setting": k, checked: s[k] });
    inp.addEventListener("change", () => {
      setSetting(k, inp.checked);
      if (k === "notify" && inp.checked && "Notification" in window && Notification.permission === "default") void Notification.requestPermission();
      if (k === "sound" && inp.checked) chime();  // what it sounds like (and the audio unlocked by a click)
      changed(k);
    });
    return h("label", { class: "setting" }, inp, " " + label);
  };
  return h("details", { class: "settings", "data-settings": "" },
    h("summary", { "aria-label": t("settings.title"), title: t("settings.title"), text: "⚙" }),
    h("div", { class: "settings-box" },
      box("coords", t("settings.coords")), box("sound", t("settings.sound")), box("notify", t("settings.notify")), box("ask_name", t("settings.ask_name"))));
}

let audio: AudioContext | null = null;
// The page's sounds, generated with WebAudio (no sound files): "turn" (two notes: this seat's turn),
// "tile" (a short knock: a tile laid), "score" (a rising run: points scored). Played only while the
// setting is on; the AudioContext is made at the first sound played with it on, never before (a
// browser lets a page start audio only after a click: the switch's own click unlocks it).
export type SoundKind = "turn" | "tile" | "score";
export function sound(kind: SoundKind, force = false): void {
  if (!force && !settings().sound) return;
  try {
    const Ctx = window.AudioContext ?? (window as any).webkitAudioContext;
    if (!Ctx) return;
    audio = audio ?? new Ctx();
    const a = audio!;
    if (a.state === "suspended") void a.resume();
    const t0 = a.currentTime;
    const note = (f: number, at: number, len: number, peak: number, type: OscillatorType = "sine", to?: number) => {
      const o = a.createOscillator(), g = a.createGain();
      o.type = type;
      o.frequency.setValueAtTime(f, t0 + at);
      if (to) o.frequency.exponentialRampToValueAtTime(to, t0 + at + len);
      g.gain.setValueAtTime(0.0001, t0 + at);
      g.gain.exponentialRampToValueAtTime(peak, t0 + at + 0.012);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      o.connect(g).connect(a.destination);
      o.start(t0 + at);
      o.stop(t0 + at + len + 0.02);
    };
    if (kind === "turn") [660, 880].forEach((f, i) => note(f, i * 0.16, 0.3, 0.18));
    else if (kind === "tile") { note(190, 0, 0.12, 0.3, "triangle", 90); note(1400, 0, 0.03, 0.04, "square"); }
    else [523, 659, 784].forEach((f, i) => note(f, i * 0.07, 0.22, 0.12, "triangle"));
    window.carcSounds = (window.carcSounds ?? 0) + 1;
    (window.carcSoundKinds ??= []).push(kind);
  } catch { /* no audio: nothing to say */ }
}
// The turn's two notes (the settings' switch plays them once, to say what it sounds like).
export function chime(): void { sound("turn", true); }

declare global { interface Window { carcSounds?: number; carcSoundKinds?: SoundKind[]; carcNotices?: number } }

function favicon(colour: string | null): string {
  // a disc in the seat's colour on your turn, a plain ring otherwise (SVG data URLs: no files)
  const svg = colour
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="${colour}" stroke="#111" stroke-width="3"/><circle cx="25" cy="7" r="6" fill="#d0461e"/></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="4" y="4" width="24" height="24" rx="4" fill="#c9b98f" stroke="#6b5a2e" stroke-width="3"/></svg>`;
  return "data:image/svg+xml," + encodeURIComponent(svg);
}

// Tracks whose turn it is and says so when it becomes this seat's.
export class TurnNotice {
  private mine = false;
  private base = document.title;
  private shown = "";

  // title: the game's title; colour: this seat's colour; mine: this seat decides now.
  update(title: string, colour: string | null, mine: boolean, over: boolean): void {
    const text = over ? t("notify.over", { title }) : mine ? t("notify.title", { title }) : title;
    if (text !== this.shown) { document.title = text; this.shown = text; }
    this.base = title;
    const link = document.querySelector<HTMLLinkElement>("link[rel='icon']") ?? document.head.appendChild(h("link", { rel: "icon" }));
    const icon = favicon(mine && !over ? colour : null);
    if (link.getAttribute("href") !== icon) link.setAttribute("href", icon);
    document.body.dataset.titleTurn = String(mine && !over);
    if (mine && !this.mine && !over) this.arrived();
    this.mine = mine && !over;
  }

  private arrived(): void {
    const s = settings();
    if (s.sound) sound("turn");
    if (s.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        const n = new Notification(t("notify.title", { title: this.base }), { body: t("notify.body"), tag: "carc-turn" });
        n.onclick = () => { window.focus(); n.close(); };
        window.carcNotices = (window.carcNotices ?? 0) + 1;
      } catch { /* a browser without page notifications */ }
    }
  }
}
