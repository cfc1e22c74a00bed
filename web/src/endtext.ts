// The end of a game in words, with the players' names: who won and why ("Alice wins: Bob took a
// fourth virus"), from the viewer's point of view (a player reads "You win", a spectator names), in
// the current language.
import { parseAction } from './actions.ts';
import type { Result, Role, SideId } from './game.ts';
import { type Key, t } from './i18n.ts';
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

/** Both forms of the end, from a headline and a reason in words (without the full stop). */
function text(headline: string, why: string, sentence: Key = 'end.sentence'): EndText {
  return { headline, reason: t('end.reason', { why: cap(why) }), sentence: t(sentence, { headline, why }) };
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
  if (r.result === null || r.reason === 'aborted') return text(t('end.aborted'), t('end.why.aborted'));
  if (r.winner === null) {
    if (r.reason === 'agreement') return text(t('end.draw'), t('end.why.agreement'), 'end.sentence.agreement');
    if (r.reason === 'no_progress') return text(t('end.draw'), t('end.why.noProgress'));
    return text(t('end.draw'), r.reason.replace(/_/g, ' '));
  }
  const W: SideId = r.winner;
  const L: SideId = W === '1' ? '2' : '1';
  // Each reason is a whole sentence in three forms: the viewer won (.win), lost (.lose), or watches.
  const form = input.you === W ? 'win' : input.you === L ? 'lose' : 'watch';
  const headline = form === 'win' ? t('end.youWin') : form === 'lose' ? t('end.youLose') : t('end.wins', { name: input.names[W] });
  const why = (k: string) => t(`end.why.${k}.${form}` as Key, { winner: input.names[W], loser: input.names[L] });
  const last = input.lastAction ? parseAction(input.lastAction) : null;
  const entered = last?.kind === 'enter';
  let reason: string;
  switch (r.reason) {
    case 'four_links': {
      const st = stackOf(input.position, W);
      if (entered) reason = why(st && st.escapedL === 4 ? 'linksEscaped' : 'linkEscaped');
      else reason = why(st && st.capturedL === 4 ? 'linksTaken' : 'linkTaken');
      break;
    }
    case 'four_viruses':
      reason = why(entered ? 'virusEscaped' : 'virusTaken');
      break;
    case 'resign':
      reason = why('resign');
      break;
    case 'time':
      reason = why('time');
      break;
    case 'abandoned':
      reason = why('abandoned');
      break;
    default:
      reason = r.reason.replace(/_/g, ' ');
  }
  return text(headline, reason);
}
