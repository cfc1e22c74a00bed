// Pass and play: whose screen is due on a shared device. Both seats of a local game are
// played from one browser; the board of a side is shown only after its player took the device
// (the hand-over screen), so this decides when the device must change hands. Pure: state in, side out.
import type { GameState, SideId } from './game.ts';
import { parseView } from './view.ts';

/**
 * The seat whose player must hold the device now: during the setup the first side that has not
 * set up (side 1, then side 2), during play the side to move; 'end' once the game is over; null
 * while the second seat is not taken yet.
 */
export function dueSide(s: GameState): SideId | 'end' | null {
  if (s.status === 'finished' || s.status === 'aborted') return 'end';
  if (s.status === 'setup') return !s.setup['1'] ? '1' : !s.setup['2'] ? '2' : null;
  if (s.status === 'playing' && s.view) return String(parseView(s.view).toMove) as SideId;
  return null;
}

/** Of the two seats' copies of one game, the one that has seen more of it (the higher version). */
export function latest(a: GameState | null, b: GameState | null): GameState | null {
  if (!a || !b) return a ?? b;
  return b.v > a.v ? b : a;
}
