// The end of a game in words, with the players' names: who won and why ("Alice wins: Bob took a
// fourth virus"), from the viewer's point of view (a player reads "You win", a spectator names).
import { parseAction } from './actions.ts';
import type { Result, Role, SideId } from './game.ts';
import { parseView } from './view.ts';

export interface EndInput {
  result: Pick<Result, 'result' | 'winner' | 'reason'>;
  /** Display names of both sides. */
  names: Record<SideId, string>;
  you: Role;
  /** The last action of the game (canonical string), if any. */
  lastAction?: string | null;
  /** The final position with every identity (the result's position), for the stack counts. */
  position?: string | null;
}

export interface EndText {
  /** "You win", "Alice wins", "Draw", "Aborted". */
  headline: string;
  /** Why, as a sentence: "Bob took a fourth virus." */
  reason: string;
  /** Both in one line: "Alice wins: Bob took a fourth virus". */
  sentence: string;
}

function text(headline: string, why: string, sep = ': '): EndText {
  return { headline, reason: `${cap(why)}.`, sentence: `${headline}${sep}${why}` };
}

function who(side: SideId, input: EndInput): { subj: string; poss: string; self: boolean } {
  if (input.you === side) return { subj: 'you', poss: 'your', self: true };
  const n = input.names[side];
  return { subj: n, poss: `${n}'s`, self: false };
}

function cap(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Counts of one stack in the final position: links and viruses, captured and own escaped. */
function stackOf(position: string | null | undefined, holder: SideId): { capturedL: number; escapedL: number } | null {
  if (!position) return null;
  try {
    const v = parseView(position);
    const st = v.stacks[holder === '1' ? 0 : 1];
    return {
      capturedL: st.filter((c) => !c.escaped && c.kind === 'L').length,
      escapedL: st.filter((c) => c.escaped && c.kind === 'L').length,
    };
  } catch {
    return null;
  }
}

export function endText(input: EndInput): EndText {
  const r = input.result;
  if (r.result === null || r.reason === 'aborted') return text('Aborted', 'the game was aborted before both sides had played', ': ');
  if (r.winner === null) {
    if (r.reason === 'agreement') return text('Draw', 'by agreement', ' ');
    if (r.reason === 'no_progress') return text('Draw', '100 actions in a row without a capture or an escape');
    return text('Draw', r.reason.replace(/_/g, ' '));
  }
  const W: SideId = r.winner;
  const L: SideId = W === '1' ? '2' : '1';
  const w = who(W, input), l = who(L, input);
  const headline = w.self ? 'You win' : l.self ? 'You lose' : `${input.names[W]} wins`;
  const last = input.lastAction ? parseAction(input.lastAction) : null;
  const entered = last?.kind === 'enter';
  let reason: string;
  switch (r.reason) {
    case 'four_links': {
      const st = stackOf(input.position, W);
      if (entered) {
        reason = st && st.escapedL === 4 ? `${w.poss} fourth link reached ${l.poss} server` : `${w.poss} link reached ${l.poss} server: four links in ${w.poss} stack`;
      } else {
        reason = st && st.capturedL === 4 ? `${w.subj} took ${l.poss} fourth link` : `${w.subj} took a link: four links in ${w.poss} stack`;
      }
      break;
    }
    case 'four_viruses':
      reason = entered ? `${l.poss} virus entered ${w.poss} server: a fourth virus in ${l.poss} stack` : `${l.subj} took a fourth virus`;
      break;
    case 'resign':
      reason = `${l.subj} resigned`;
      break;
    case 'time':
      reason = `${l.subj} ran out of time`;
      break;
    case 'abandoned':
      reason = `${l.subj} left the game`;
      break;
    default:
      reason = r.reason.replace(/_/g, ' ');
  }
  return text(headline, reason);
}
