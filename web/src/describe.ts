// One action in words, for the screen-reader announcement of each move ("Bob moves b7 to b6").
import { parseAction } from './actions.ts';

/** `who` is the player's name, or "You"; `revealed` what a VIRUS CHECKER showed. */
export function describeAction(action: string, who: string, revealed?: 'link' | 'virus'): string {
  const a = parseAction(action);
  if (!a) return `${who}: ${action}`;
  const v = (verb: string) => `${who} ${who === 'You' ? verb : `${verb}s`}`;
  switch (a.kind) {
    case 'move': return `${v('move')} ${a.from} to ${a.to}`;
    case 'enter': return `${v('enter')} the server from ${a.from}`;
    case 'lb': return a.attach ? `${v('put')} LINE BOOST on ${a.square}` : `${v('take')} LINE BOOST back from ${a.square}`;
    case 'fw': return a.place ? `${v('place')} the FIREWALL on ${a.square}` : `${v('remove')} the FIREWALL from ${a.square}`;
    case 'vc': return `${v('check')} ${a.square} with VIRUS CHECKER${revealed ? `: a ${revealed}` : ''}`;
    case 'nf': return `${v('play')} 404 NOT FOUND on ${a.a} and ${a.b}${a.swap === null ? '' : a.swap ? ' (swapped)' : ' (kept)'}`;
  }
}
