// What a role may see (RULES.md §6, docs/protocol.md §3): checks every message a page received.
import { parseView } from '../../src/view.ts';

export type Role = '1' | '2' | 'spectator';

/** Problems found in the view string `view` as seen by `role` (empty when nothing hidden shows). */
export function viewLeaks(view: string, role: Role): string[] {
  const out: string[] = [];
  const v = parseView(view);
  const hidden = (owner: number) => role === 'spectator' || String(owner) !== role;
  v.squares.forEach((q, i) => {
    const c = q.card;
    if (c && hidden(c.owner) && c.kind !== 'X' && !c.faceUp) out.push(`face-down card of side ${c.owner} on square ${i} identified as ${c.kind}`);
  });
  v.stacks.forEach((st, i) => {
    for (const c of st) if (c.escaped && hidden(c.owner) && c.kind !== 'X') out.push(`escaped card of side ${i + 1} identified as ${c.kind}`);
  });
  return out;
}

/** Problems in one server message received by `role` before the game ended. */
export function messageLeaks(m: any, role: Role): string[] {
  const out: string[] = [];
  const ended = m.kind === 'end' || (m.type === 'snapshot' && (m.status === 'finished' || m.status === 'aborted'));
  if (typeof m.view === 'string' && !ended) out.push(...viewLeaks(m.view, role));
  const nfFull = (a: unknown, side: unknown) => typeof a === 'string' && /^NF\+.*:(swap|keep)$/.test(a) && (role === 'spectator' || String(side) !== role);
  if (m.type === 'event' && m.kind === 'action' && nfFull(m.action, m.side)) out.push(`NF swap bit of side ${m.side}: ${m.action}`);
  if (Array.isArray(m.history) && !ended) for (const e of m.history) if (nfFull(e.action, e.side)) out.push(`NF swap bit in history: ${e.action}`);
  if (m.links !== undefined) {
    if (role === 'spectator') out.push('links sent to a spectator');
    else if (m.type === 'event' && m.kind === 'setup' && String(m.side) !== role) out.push(`links of side ${m.side}`);
    else if (m.type === 'snapshot' && m.you !== role) out.push('links in a snapshot for another role');
  }
  if (m.legal !== undefined && role === 'spectator') out.push('legal actions sent to a spectator');
  if (!ended && (m.setups !== undefined || (m.type === 'event' && typeof m.position === 'string'))) out.push('setups or full position before the end');
  return out.map((s) => `${s} in ${JSON.stringify(m).slice(0, 300)}`);
}

export function allLeaks(messages: any[], role: Role): string[] {
  return messages.flatMap((m) => messageLeaks(m, role));
}
