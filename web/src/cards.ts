// The four terminal cards as the player meets them: the name printed on the card, a one-line
// explanation, and a picture (an SVG card in the style of the board's cards), in the current
// language. For every screen that shows a hand: use cardName/cardExplanation instead of LB/FW/VC/NF
// and cardPicture where there is room for the card itself.
import { h, ICON, svg } from './dom.ts';
import { t } from './i18n.ts';

/** The four terminal cards (RULES.md §3): Line Boost, Firewall, Virus Checker, 404 Not Found. */
export type TerminalKind = 'LB' | 'FW' | 'VC' | 'NF';
export const TERMINAL_KINDS: TerminalKind[] = ['LB', 'FW', 'VC', 'NF'];

const ICONS: Record<TerminalKind, string> = { LB: ICON.boost, FW: ICON.wall, VC: ICON.check, NF: ICON.notfound };
/** Each card's colour: the board's accent for LB (its badge), the side colour family for FW, etc. */
const COLOURS: Record<TerminalKind, string> = { LB: '#ff9e2c', FW: '#39c5ff', VC: '#e8eef5', NF: '#3ee6c1' };

/** The name printed on the card ("LINE BOOST"), translated. */
export function cardName(k: TerminalKind): string {
  return t(`card.${k}.name` as const);
}

/** What the card does, in one sentence, translated. */
export function cardExplanation(k: TerminalKind): string {
  return t(`card.${k}.short` as const);
}

/** An accessible label: name, where the card is, and what it does. */
export function cardLabel(k: TerminalKind, state: 'hand' | 'board' | 'used' = 'hand', square?: string): string {
  const where = t(`card.state.${state}` as const, { square: square ?? '' });
  return `${cardName(k)} (${where}): ${cardExplanation(k)}`;
}

/**
 * The inside of a hand's card button or chip: icon, translated name, where the card is. A drop-in
 * for the `[svg(icon), h('span', k), …]` of ui.ts renderHand, with `cardLabel` as its aria-label
 * and `cardExplanation` as its title.
 */
export function handCardContent(k: TerminalKind, state: 'hand' | 'board' | 'used' = 'hand', square?: string, picture: 'icon' | 'mini' = 'icon'): Node[] {
  const out: Node[] = [picture === 'mini' ? cardMini(k) : svg(ICONS[k]), h('span.tname', cardName(k))];
  if (state !== 'hand') out.push(h('span.where', t(`card.state.${state}` as const, { square: square ?? '' })));
  return out;
}

/**
 * The card as a small picture for a hand (a player bar): the card's frame in its colour around its
 * icon, like a shrunken cardPicture without the printed name (the name stands beside it). Decorative.
 */
export function cardMini(k: TerminalKind): Element {
  const c = COLOURS[k];
  const markup =
    `<svg class="cardmini" data-cardpic="${k}" viewBox="0 0 20 28" aria-hidden="true">` +
    `<rect x="1" y="1" width="18" height="26" rx="3" fill="#141e2a" stroke="${c}" stroke-width="1.5"/>` +
    `<g transform="translate(3 7) scale(0.583)" color="${c}">${ICONS[k]}</g>` +
    `</svg>`;
  const tpl = document.createElement('template');
  tpl.innerHTML = markup;
  return tpl.content.firstElementChild!;
}

/** The card as a picture: a rounded card with its icon and name, `width` CSS pixels wide. */
export function cardPicture(k: TerminalKind, width = 96): Element {
  const c = COLOURS[k];
  const name = cardName(k).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const markup =
    `<svg class="cardpic" data-cardpic="${k}" viewBox="0 0 100 140" width="${width}" height="${Math.round(width * 1.4)}" role="img" aria-label="${name}">` +
    `<defs><linearGradient id="cp-${k}" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="#243244"/><stop offset="1" stop-color="#0e151e"/></linearGradient></defs>` +
    `<rect x="3" y="3" width="94" height="134" rx="12" fill="url(#cp-${k})" stroke="${c}" stroke-width="3"/>` +
    `<rect x="10" y="10" width="80" height="86" rx="8" fill="none" stroke="${c}" stroke-opacity="0.35" stroke-dasharray="3 3"/>` +
    `<g transform="translate(20 23) scale(2.5)" color="${c}">${ICONS[k]}</g>` +
    `<text x="50" y="116" text-anchor="middle" fill="${c}" font-family="ui-monospace, DejaVu Sans Mono, monospace" font-weight="700" font-size="${name.length > 12 ? 9 : 11}">${name}</text>` +
    `<text x="50" y="130" text-anchor="middle" fill="#7d8da0" font-family="ui-monospace, DejaVu Sans Mono, monospace" font-size="9">${k}</text>` +
    `</svg>`;
  const tpl = document.createElement('template');
  tpl.innerHTML = markup;
  return tpl.content.firstElementChild!;
}
