// Shared pieces of the screens: the app context, terminal-card hands, stacks, player bars.
import type { Client } from './client.ts';
import { h, svg, ICON } from './dom.ts';
import { cardFace } from './board.ts';
import { type Hand, type Side, type StackCard, type ViewModel, stackCounts } from './view.ts';

export interface App {
  client: Client;
  navigate(path: string): void;
  /** Asks for a redraw of the current screen (coalesced to one per frame). */
  redraw(): void;
  origin: string;
}

export type TerminalKind = 'LB' | 'FW' | 'VC' | 'NF';

export const TERMINAL_NAMES: Record<TerminalKind, string> = {
  LB: 'LINE BOOST',
  FW: 'FIRE WALL',
  VC: 'VIRUS CHECKER',
  NF: '404 NOT FOUND',
};
const TERMINAL_ICONS: Record<TerminalKind, string> = { LB: ICON.boost, FW: ICON.wall, VC: ICON.check, NF: ICON.notfound };

/** Where each terminal card of a side is: in hand, on the board (LB/FW), or used (VC/NF). */
export function terminalStates(v: ViewModel | null, side: Side): Record<TerminalKind, { state: 'hand' | 'board' | 'used'; square?: string }> {
  const hand: Hand = v ? v.hands[side - 1] : { lineBoost: true, firewall: true, virusChecker: true, notFound: true };
  const find = (pred: (i: number) => boolean) => {
    if (!v) return undefined;
    for (let i = 0; i < 64; i++) if (pred(i)) return 'abcdefgh'[i % 8] + String(Math.floor(i / 8) + 1);
    return undefined;
  };
  return {
    LB: hand.lineBoost ? { state: 'hand' } : { state: 'board', square: find((i) => !!v!.squares[i].card?.boost && v!.squares[i].card!.owner === side) },
    FW: hand.firewall ? { state: 'hand' } : { state: 'board', square: find((i) => v!.squares[i].firewall === side) },
    VC: { state: hand.virusChecker ? 'hand' : 'used' },
    NF: { state: hand.notFound ? 'hand' : 'used' },
  };
}

/**
 * The row of terminal cards of one side. For the player, cards with legal targets are buttons that
 * enter a targeting mode.
 */
export function renderHand(
  v: ViewModel | null,
  side: Side,
  opts: { interactive?: boolean; active?: TerminalKind | null; enabled?: (k: TerminalKind) => boolean; onPick?: (k: TerminalKind) => void } = {},
): HTMLElement {
  const states = terminalStates(v, side);
  return h(
    'div.hand',
    { 'data-hand': side },
    (['LB', 'FW', 'VC', 'NF'] as TerminalKind[]).map((k) => {
      const st = states[k];
      const where = st.state === 'board' ? ` on ${st.square}` : st.state === 'used' ? ' (used)' : '';
      // The accessible name starts with the visible text ("LB @d2"), then says it in full.
      const label = `${k}${st.state === 'board' ? ` @${st.square}` : ''}: ${TERMINAL_NAMES[k]}${where}`;
      const cls = ['tcard', st.state === 'used' ? 'used' : '', st.state === 'board' ? 'onboard' : '', opts.active === k ? 'active' : ''].join(' ');
      const content = [svg(TERMINAL_ICONS[k]), h('span', k), st.state === 'board' ? h('span.where', `@${st.square}`) : null];
      if (opts.interactive) {
        const enabled = opts.enabled?.(k) ?? false;
        return h('button', { type: 'button', class: cls, 'data-tcard': k, title: label, 'aria-label': label, 'aria-pressed': opts.active === k ? 'true' : 'false', disabled: !enabled, on: { click: () => opts.onPick?.(k) } }, content);
      }
      return h('span', { class: cls, 'data-tcard': k, title: label, 'aria-label': label }, content);
    }),
  );
}

export function renderStack(cards: StackCard[], holder: Side, me: Side | null): HTMLElement {
  const n = stackCounts(cards);
  const ordered = [...cards].sort((a, b) => Number(a.escaped) - Number(b.escaped));
  return h(
    'div.stack',
    { 'data-stack': holder, title: 'captured cards and own escaped cards' },
    h('span.lbl', 'stack'),
    ordered.length
      ? ordered.map((c) => cardFace({ owner: c.owner, kind: c.kind, boost: false, faceUp: false, onFirewall: false }, me, c.escaped ? 'escaped' : ''))
      : h('span.count', 'empty'),
    ordered.length ? h('span.count', `${n.L}L ${n.V}V${n.X ? ` ${n.X}?` : ''}`) : null,
  );
}

export function sideDot(side: Side | '1' | '2'): HTMLElement {
  return h(`span.dotside.s${side}`, { 'aria-hidden': 'true' });
}

export async function fetchJson(url: string): Promise<any> {
  const r = await fetch(url, { headers: { accept: 'application/json' } });
  if (!r.ok) throw Object.assign(new Error(`HTTP ${r.status}`), { status: r.status });
  return r.json();
}

export function clockLabel(c: { initial: number; increment: number } | null | undefined): string {
  if (!c) return 'untimed';
  const min = c.initial / 6000;
  const inc = c.increment / 100;
  const m = Number.isInteger(min) ? String(min) : min.toFixed(1);
  return `${m}+${Number.isInteger(inc) ? inc : inc.toFixed(1)}`;
}
