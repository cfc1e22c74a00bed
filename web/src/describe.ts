// One action in words, for the screen-reader announcement of each move ("Bob moves b7 to b6"), in
// the current language.
import { parseAction } from './actions.ts';
import { cardName } from './cards.ts';
import { type Key, t } from './i18n.ts';

/**
 * `who` is the player's name, or null for the viewer ("You move…"); `revealed` what a VIRUS
 * CHECKER showed.
 */
export function describeAction(action: string, who: string | null, revealed?: 'link' | 'virus'): string {
  const a = parseAction(action);
  // Each sentence has a form for the viewer ("say.you.*") and one for a named player ("say.*").
  const say = (what: string, params: Record<string, string> = {}) =>
    t((who === null ? `say.you.${what}` : `say.${what}`) as Key, { who: who ?? '', ...params });
  if (!a) return say('other', { action });
  switch (a.kind) {
    case 'move': return say('move', { from: a.from, to: a.to });
    case 'enter': return say('enter', { from: a.from });
    case 'lb': return say(a.attach ? 'lbOn' : 'lbOff', { card: cardName('LB'), square: a.square });
    case 'fw': return say(a.place ? 'fwOn' : 'fwOff', { card: cardName('FW'), square: a.square });
    case 'vc': return revealed
      ? say('vcSeen', { card: cardName('VC'), square: a.square, kind: t(revealed === 'link' ? 'kind.link' : 'kind.virus') })
      : say('vc', { card: cardName('VC'), square: a.square });
    case 'nf': return say(a.swap === null ? 'nf' : a.swap ? 'nfSwap' : 'nfKeep', { card: cardName('NF'), a: a.a, b: a.b });
  }
}
