// What the tournament pages show, without the DOM (unit-tested): the list split by status, the
// countdown to a tournament's start or end, a player's standing, the podium, a standing's sheet,
// and whether berserk is still open in a player's game.
import type { StandingEntry, TournamentInfo, TournamentMessage } from './protocol.gen.ts';

export type Phase = 'created' | 'running' | 'finished';

/** The list in three groups, each as the server ordered it (running, soonest upcoming, latest finished). */
export function groupTournaments(list: TournamentInfo[]): Record<Phase, TournamentInfo[]> {
  const out: Record<Phase, TournamentInfo[]> = { created: [], running: [], finished: [] };
  for (const t of list) (t.status === 'running' || t.status === 'finished' ? out[t.status] : out.created).push(t);
  return out;
}

/** What the countdown counts to: the start while upcoming, the end while running; null once over. */
export function countdownTarget(t: TournamentInfo): number | null {
  if (t.status === 'created') return t.startsAt;
  if (t.status === 'running') return t.endsAt;
  return null;
}

/** A duration as "m:ss", or "h:mm:ss" from an hour on; never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The feature of the home page: the first running tournament, else the soonest upcoming one. */
export function featured(list: TournamentInfo[] | null): TournamentInfo | null {
  if (!list) return null;
  return list.find((t) => t.status === 'running') ?? list.find((t) => t.status === 'created') ?? null;
}

export function standingOf(state: TournamentMessage | undefined, player: string | undefined): StandingEntry | null {
  if (!state || !player) return null;
  return state.standings.find((e) => e.player.id === player) ?? null;
}

/** The first three of a finished tournament's standings (fewer if fewer played). */
export function podium(state: TournamentMessage): StandingEntry[] {
  return state.tournament.status === 'finished' ? state.standings.filter((e) => e.games > 0).slice(0, 3) : [];
}

/**
 * A standing's sheet as marks: each counted game's points; points earned on a streak (doubled)
 * are marked, as the lichess sheet shows them.
 */
export function sheetMarks(sheet: number[]): { points: number; streak: boolean }[] {
  const out: { points: number; streak: boolean }[] = [];
  let wins = 0;
  for (const p of sheet) {
    const streak = wins >= 2;
    out.push({ points: p, streak });
    // A win scores 2 (3 berserked), or doubled on a streak 4 (5): the streak goes on.
    const won = streak ? p >= 4 : p >= 2;
    wins = won ? wins + 1 : 0;
  }
  return out;
}

/** Berserk is open to a seated player of a tournament game in setup or before their first action. */
export function canBerserk(game: { status: string; you: string; history: { side?: string }[] }, already: boolean): boolean {
  if (already || (game.you !== '1' && game.you !== '2')) return false;
  if (game.status === 'setup') return true;
  return game.status === 'playing' && !game.history.some((e) => e.side === game.you);
}
