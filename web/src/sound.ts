// Sounds of the game: a short synthesized tone (WebAudio oscillators, no audio files)
// for a move, a capture, a terminal card, the end of the game, and once per game when the
// player's own clock runs under ten seconds. Which sound an event makes is decided by `SoundCues`
// (pure, unit tested); `SoundPlayer` only makes the noise, and not at all when switched off (the
// switch is remembered in localStorage).
import { parseAction } from './actions.ts';
import { clockLeft, type GameState, type SideId } from './game.ts';
import { parseView } from './view.ts';

export type Sound = 'move' | 'capture' | 'card' | 'end' | 'lowtime';

/** Own clock under this (centiseconds) sounds the low-time warning, once per game. */
export const LOW_TIME_CS = 1000;

/** The sound of one action: `captured` when it took an opponent card (a stack grew by a move). */
export function soundOfAction(action: string, captured: boolean): Sound | null {
  const a = parseAction(action);
  if (!a) return null;
  if (a.kind === 'move') return captured ? 'capture' : 'move';
  if (a.kind === 'enter') return 'move';
  return 'card';
}

function stackTotal(view: string | null): number {
  if (!view) return 0;
  try {
    const v = parseView(view);
    return v.stacks[0].length + v.stacks[1].length;
  } catch {
    return 0;
  }
}

/**
 * Follows one game's state and says which sounds its changes make. The first state seen only
 * primes it (opening a page of a game in progress is silent); after that, each new action, the
 * end, and the low-time warning sound once.
 */
export class SoundCues {
  private plies = -1;
  private stacks = 0;
  private ended = false;
  private warned = false;

  update(s: GameState, now: number): Sound[] {
    const out: Sound[] = [];
    const over = s.status === 'finished' || s.status === 'aborted';
    const stacks = stackTotal(s.view);
    if (this.plies === -1) {
      this.plies = s.history.length;
      this.stacks = stacks;
      this.ended = over;
      this.warned = this.lowTime(s, now);
      return out;
    }
    if (s.history.length === this.plies + 1) {
      const sound = soundOfAction(s.history[this.plies].action, stacks > this.stacks);
      if (sound) out.push(sound);
    }
    if (s.history.length !== this.plies) {
      this.plies = s.history.length;
      this.stacks = stacks;
    }
    if (over && !this.ended) {
      this.ended = true;
      out.push('end');
    }
    if (!this.warned && this.lowTime(s, now)) {
      this.warned = true;
      out.push('lowtime');
    }
    return out;
  }

  private lowTime(s: GameState, now: number): boolean {
    if (s.status !== 'playing' || (s.you !== '1' && s.you !== '2')) return false;
    const left = clockLeft(s, s.you as SideId, now);
    return left !== null && s.clocks?.running === s.you && left < LOW_TIME_CS;
  }
}

interface StorageLike {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
}

const STORAGE_KEY = 'rainet.sound';

/** Whether sound is on: on unless switched off (and remembered so). */
export function soundOn(storage: StorageLike | null): boolean {
  return storage?.getItem(STORAGE_KEY) !== 'off';
}
export function setSoundOn(storage: StorageLike | null, on: boolean): void {
  storage?.setItem(STORAGE_KEY, on ? 'on' : 'off');
}

// Each sound as notes: frequency (Hz), start and length (s), waveform. Short and quiet.
type Note = { f: number; at: number; len: number; wave: OscillatorType };
export const TONES: Record<Sound, Note[]> = {
  move: [{ f: 660, at: 0, len: 0.07, wave: 'triangle' }],
  capture: [{ f: 440, at: 0, len: 0.08, wave: 'square' }, { f: 330, at: 0.07, len: 0.12, wave: 'square' }],
  card: [{ f: 880, at: 0, len: 0.06, wave: 'sine' }, { f: 1320, at: 0.06, len: 0.09, wave: 'sine' }],
  end: [{ f: 523, at: 0, len: 0.15, wave: 'triangle' }, { f: 659, at: 0.15, len: 0.15, wave: 'triangle' }, { f: 784, at: 0.3, len: 0.3, wave: 'triangle' }],
  lowtime: [{ f: 990, at: 0, len: 0.08, wave: 'square' }, { f: 990, at: 0.16, len: 0.08, wave: 'square' }],
};

function storage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
let context: AudioContext | null = null;

export function isSoundOn(): boolean {
  return soundOn(storage());
}

/** Switches sound on or off, remembers it, and tells the switches shown. */
export function setSound(on: boolean): void {
  setSoundOn(storage(), on);
  for (const fn of [...listeners]) fn();
}

export function onSoundChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The page's one AudioContext, made when first needed; null without WebAudio. */
function audio(): AudioContext | null {
  const Ctx = typeof window === 'undefined' ? undefined : (window.AudioContext ?? (window as any).webkitAudioContext);
  if (!Ctx) return null;
  context ??= new Ctx() as AudioContext;
  if (context.state === 'suspended') void context.resume().catch(() => undefined);
  return context;
}

/**
 * Browsers let a page make sound only after the user touched it: the context is made (or resumed)
 * on the first tap, click or key, so that an opponent's move heard before any action of one's own
 * still sounds.
 */
export function armSound(): void {
  const arm = () => {
    if (!isSoundOn()) return;
    try { audio(); } catch { /* no audio: silence */ }
    for (const ev of ['pointerdown', 'keydown']) document.removeEventListener(ev, arm, true);
  };
  for (const ev of ['pointerdown', 'keydown']) document.addEventListener(ev, arm, true);
}

/** Plays `sounds` now, unless sound is off or the browser has no WebAudio. */
export function playSounds(sounds: Sound[]): void {
  if (!sounds.length || !isSoundOn()) return;
  try {
    const ctx = audio();
    if (!ctx) return;
    let offset = 0;
    for (const s of sounds) {
      let end = 0;
      for (const n of TONES[s]) {
        const t0 = ctx.currentTime + offset + n.at;
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = n.wave;
        osc.frequency.value = n.f;
        gain.gain.setValueAtTime(0.08, t0);
        gain.gain.exponentialRampToValueAtTime(0.001, t0 + n.len);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t0);
        osc.stop(t0 + n.len);
        end = Math.max(end, n.at + n.len);
      }
      offset += end;
    }
  } catch {
    // No audio device or a browser that refuses: the game goes on in silence.
  }
}
