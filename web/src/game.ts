// The state of one game as this client knows it: built from a `snapshot` and advanced by `event`s
// (docs/protocol.md §5-6). Pure data and pure functions; the connection lives in client.ts.

import type * as P from './protocol.gen.ts';

// The protocol's types come from protocol.gen.ts (generated from src/protocol: never mirrored
// here by hand); this file adds only what the client keeps beside them.
export type { ChatLine, Clocks, HistoryEntry, Result, Role, SideId } from './protocol.gen.ts';
type SideId = P.SideId;
export type Status = P.GameStatus;

/** A seated player as this client keeps it: the snapshot's (or joined event's) player object, with
 * the time the seat was seen without a connection instead of the server's `away`. */
export interface Player extends Omit<P.Player, 'away' | 'kind'> {
  /** performance.now() when the seat lost its last connection (while not connected). */
  awaySince?: number;
}

export interface GameState {
  game: string;
  v: number;
  you: P.Role;
  status: Status;
  preset: string;
  opponent: string;
  level: number | null;
  rated: boolean;
  clock: P.ClockSetting | null;
  clocks: P.Clocks | null;
  /** performance.now() when `clocks` was received, for the local countdown. */
  clocksAt: number;
  players: { '1': Player | null; '2': Player | null };
  setup: { '1': boolean; '2': boolean };
  links: string[] | null;
  view: string | null;
  history: P.HistoryEntry[];
  legal: string[] | null;
  drawOffer: SideId | null;
  /** Whether this seat may abort now, as the server says (false for a spectator). */
  abortable: boolean;
  /** The side that last declined a draw offer (cleared by the next offer or action). */
  drawDeclined: SideId | null;
  /**
   * This role's view after each ply, as far as this page has seen them (index = plies played), for
   * browsing earlier positions during the game. Only what the server sent to this role.
   */
  views: (string | undefined)[];
  grace: number | null;
  result: P.Result | null;
  /** After the end: a pending rematch offer, and the new game once agreed. */
  rematch: { offer: SideId | null; next: string | null };
  /** Connections watching as spectators. */
  spectators: number;
  /** This role's chat room, oldest first (the last CHAT_KEPT lines). */
  chat: P.ChatLine[];
}

export const CHAT_KEPT = 100;

/** The state with one more chat line (not versioned: chat is outside the game's events; a line
 * already shown, sent again after a resume, is not added twice). */
export function addChat(s: GameState, m: P.ChatMessage): GameState {
  const line = chatLine(m);
  if (line.n > 0 && line.n <= lastChat(s)) return s;
  return { ...s, chat: [...s.chat, line].slice(-CHAT_KEPT) };
}

/** The number of the last chat line shown (0 when none). */
export function lastChat(s: GameState): number {
  return s.chat.length ? s.chat[s.chat.length - 1].n : 0;
}

function chatLine(m: P.ChatLine): P.ChatLine {
  return { channel: m.channel, n: typeof m.n === 'number' ? m.n : 0, from: { id: m.from?.id ?? '', name: m.from?.name ?? '?' }, side: m.side ?? null, text: String(m.text ?? ''), at: m.at ?? 0 };
}

export function fromSnapshot(m: P.SnapshotMessage, now: number): GameState {
  return {
    game: m.game,
    v: m.v,
    you: m.you,
    status: m.status,
    preset: m.preset ?? 'standard',
    opponent: m.opponent ?? 'open',
    level: m.level ?? null,
    rated: !!m.rated,
    clock: m.clock ?? null,
    clocks: m.clocks ?? null,
    clocksAt: now,
    players: { '1': seated(m.players?.['1'], now), '2': seated(m.players?.['2'], now) },
    setup: { '1': !!m.setup?.['1'], '2': !!m.setup?.['2'] },
    links: m.links ?? null,
    view: m.view ?? null,
    history: (m.history ?? []).map(historyEntry),
    legal: Array.isArray(m.legal) ? m.legal : null,
    drawOffer: m.draw_offer ?? null,
    abortable: m.abortable ?? false,
    drawDeclined: null,
    views: viewsAt(m.view ?? null, (m.history ?? []).length),
    grace: m.grace ?? null,
    result: m.result ? resultOf(m.result) : null,
    rematch: { offer: m.rematch?.offer ?? null, next: m.rematch?.next_game ?? null },
    chat: Array.isArray(m.chat) ? m.chat.map(chatLine) : [],
    spectators: typeof m.spectators === 'number' ? m.spectators : 0,
  };
}

function viewsAt(view: string | null, plies: number): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  if (view) out[plies] = view;
  return out;
}

function seated(p: P.Player | null | undefined, now: number): Player | null {
  if (!p) return null;
  const out: Player = { ...p };
  delete (out as any).away;
  if (p.connected === false && typeof p.away === 'number') out.awaySince = now - p.away * 10;
  return out;
}

/** When the opponent on `side` may be claimed against (performance.now() ms), or null. */
export function claimableAt(s: GameState, side: SideId): number | null {
  const p = s.players[side];
  if (!p || p.connected !== false || p.awaySince === undefined) return null;
  return p.awaySince + (s.grace ?? 6000) * 10;
}

function historyEntry(e: P.HistoryEntry): P.HistoryEntry {
  const out: P.HistoryEntry = { ply: e.ply, side: e.side, action: e.action };
  if (e.revealed) out.revealed = e.revealed;
  return out;
}

function resultOf(r: P.Result): P.Result {
  const out: P.Result = { result: r.result ?? null, winner: r.winner ?? null, reason: r.reason, position: r.position, setups: r.setups };
  if (r.ratings) out.ratings = r.ratings;
  return out;
}

/** The state after one event (the caller has checked that `ev.v` is the next version). */
export function applyEvent(s: GameState, ev: P.GameEvent, now: number): GameState {
  const n: GameState = { ...s, v: ev.v };
  if ('clocks' in ev && ev.clocks !== undefined) {
    n.clocks = ev.clocks;
    n.clocksAt = now;
  }
  switch (ev.kind) {
    case undefined:
      break; // nothing visible to this role
    case 'joined':
      n.players = { ...s.players, [ev.side]: ev.player };
      if (n.status === 'open') n.status = 'setup';
      break;
    case 'setup':
      n.setup = { ...s.setup, [ev.side]: true };
      if (ev.links) n.links = ev.links;
      break;
    case 'start':
      n.status = 'playing';
      n.view = ev.view;
      n.views = viewsAt(ev.view, 0);
      n.legal = Array.isArray(ev.legal) ? ev.legal : null;
      break;
    case 'action':
      n.history = [...s.history, historyEntry(ev)];
      n.view = ev.view;
      n.views = [...s.views];
      n.views[n.history.length] = ev.view;
      n.legal = Array.isArray(ev.legal) ? ev.legal : null;
      n.drawDeclined = null;
      if ('draw_offer' in ev) n.drawOffer = ev.draw_offer ?? null;
      if (ev.abortable !== undefined) n.abortable = ev.abortable;
      break;
    case 'draw_offer':
      n.drawOffer = ev.side;
      n.drawDeclined = null;
      break;
    case 'draw_decline':
      n.drawOffer = null;
      n.drawDeclined = ev.side;
      break;
    case 'end':
      n.status = ev.result === null && ev.reason === 'aborted' ? 'aborted' : 'finished';
      n.result = resultOf(ev);
      n.legal = null;
      n.drawOffer = null;
      n.abortable = false;
      if (ev.ratings) {
        const players = { ...s.players };
        for (const side of ['1', '2'] as SideId[]) {
          const p = players[side];
          if (p && ev.ratings[side]) players[side] = { ...p, rating: ev.ratings[side].after };
        }
        n.players = players;
      }
      break;
    case 'rematch_offer':
      n.rematch = { ...s.rematch, offer: ev.side };
      break;
    case 'rematch_decline':
      n.rematch = { ...s.rematch, offer: null };
      break;
    case 'rematch':
      n.rematch = { offer: null, next: ev.next_game };
      break;
    default:
      break; // unknown kinds are ignored (protocol §1)
  }
  return n;
}

/** Remaining time of a side in cs, counting the running clock down locally. */
export function clockLeft(s: GameState, side: SideId, now: number): number | null {
  if (!s.clocks) return null;
  const base = s.clocks[side];
  if (s.clocks.running !== side || s.status !== 'playing') return base;
  return Math.max(0, base - Math.floor((now - s.clocksAt) / 10));
}

export function formatClock(cs: number): string {
  const total = Math.ceil(cs / 100);
  const m = Math.floor(total / 60), sec = total % 60;
  if (cs < 1000) return `${Math.floor(cs / 100)}.${Math.floor((cs % 100) / 10)}`;
  if (m >= 60) return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
  return `${m}:${String(sec).padStart(2, '0')}`;
}
