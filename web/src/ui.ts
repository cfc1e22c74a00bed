// Shared pieces of the screens: the app context, terminal-card hands, stacks, player bars.
import type { Client } from './client.ts';
import { h } from './dom.ts';
import { TERMINAL_KINDS, type TerminalKind, cardExplanation, handCardContent } from './cards.ts';
import { t } from './i18n.ts';
import { cardFace } from './board.ts';
import { type Hand, type Side, type StackCard, type ViewModel, stackCounts } from './view.ts';

export interface App {
  client: Client;
  navigate(path: string): void;
  /** Asks for a redraw of the current screen (coalesced to one per frame). */
  redraw(): void;
  origin: string;
}

export type { TerminalKind };


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

/** What playing a card does now, for a card the player can play (its state decides: attach or take back). */
export function playText(k: TerminalKind, st: { state: 'hand' | 'board' | 'used'; square?: string }): string {
  if (k === 'LB' || k === 'FW') return t(st.state === 'board' ? (`game.card.play.${k}.board` as const) : (`game.card.play.${k}.hand` as const), { square: st.square ?? '' });
  return t(`game.card.play.${k}` as const);
}

/**
 * The row of terminal cards of one side: each with its picture, translated name and where it is; its
 * explanation (and, when the player can play it, what playing it does) as tooltip and accessible
 * description. For the player, cards with legal targets are buttons that enter a targeting mode.
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
    TERMINAL_KINDS.map((k) => {
      const st = states[k];
      const cls = ['tcard', st.state === 'used' ? 'used' : '', st.state === 'board' ? 'onboard' : '', opts.active === k ? 'active' : ''].join(' ');
      const enabled = !!opts.interactive && (opts.enabled?.(k) ?? false);
      // The accessible name is the visible text (name, where); the explanation is the description.
      const explain = enabled ? `${cardExplanation(k)} ${playText(k, st)}` : cardExplanation(k);
      const descId = `tcard-desc-${side}-${k}`;
      const content = [...handCardContent(k, st.state, st.square, 'mini'), h('span', { id: descId, hidden: true, 'data-tcard-desc': k }, explain)];
      const attrs = { class: cls, 'data-tcard': k, title: explain, 'aria-describedby': descId };
      if (opts.interactive) {
        return h('button', { ...attrs, type: 'button', 'aria-pressed': opts.active === k ? 'true' : 'false', disabled: !enabled, on: { click: () => opts.onPick?.(k) } }, content);
      }
      return h('span', attrs, content);
    }),
  );
}

export function renderStack(cards: StackCard[], holder: Side, me: Side | null): HTMLElement {
  const n = stackCounts(cards);
  const ordered = [...cards].sort((a, b) => Number(a.escaped) - Number(b.escaped));
  return h(
    'div.stack',
    { 'data-stack': holder, title: t('game.stack.title') },
    h('span.lbl', t('game.stack')),
    ordered.length
      ? ordered.map((c) => cardFace({ owner: c.owner, kind: c.kind, boost: false, faceUp: false, onFirewall: false }, me, c.escaped ? 'escaped' : ''))
      : h('span.count', t('game.stack.empty')),
    ordered.length ? h('span.count', `${n.L}L ${n.V}V${n.X ? ` ${n.X}?` : ''}`) : null,
  );
}

export function sideDot(side: Side | '1' | '2'): HTMLElement {
  return h(`span.dotside.s${side}`, { 'aria-hidden': 'true' });
}

/** GETs a JSON answer; the caller casts it to its generated type (protocol.gen.ts). */
export async function fetchJson(url: string): Promise<unknown> {
  const r = await fetch(url, { headers: { accept: 'application/json' } });
  if (!r.ok) throw Object.assign(new Error(`HTTP ${r.status}`), { status: r.status });
  return r.json();
}

export function clockLabel(c: { initial: number; increment: number; days?: number } | { days: number } | null | undefined): string {
  if (!c) return t('clock.untimed');
  if ('days' in c && c.days) return t('clock.days', { n: c.days });
  if (!('initial' in c)) return t('clock.untimed');
  const min = c.initial / 6000;
  const inc = c.increment / 100;
  const m = Number.isInteger(min) ? String(min) : min.toFixed(1);
  return `${m}+${Number.isInteger(inc) ? inc : inc.toFixed(1)}`;
}

/** The reasons a challenge may be declined with (docs/protocol.md, "Challenges"). */
export const DECLINE_REASONS = ['generic', 'later', 'too_fast', 'too_slow', 'timed', 'rated', 'casual', 'preset', 'no_bots'] as const;
