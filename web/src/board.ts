// Draws the 8x8 board of a view: cards, firewalls, exits, both servers, highlights. Pure DOM from
// data: the caller keeps the interaction state and redraws.
import { h, svg, ICON } from './dom.ts';
import { cardName } from './cards.ts';
import { t } from './i18n.ts';
import { type Card, type Side, type ViewModel, EXITS, FILES, squareName } from './view.ts';

export type Mark = 'dest' | 'dest2' | 'capture' | 'target' | 'source';

export interface BoardOptions {
  /** The side at the bottom of the board. */
  bottom: Side;
  /** The viewer's side (its cards are "mine"), or null for a spectator / replay. */
  me: Side | null;
  /** Players' names, for the servers' labels when the viewer is not a player. */
  names?: Record<Side, string>;
  selected?: string | null;
  marks?: Map<string, Mark>;
  /** Servers that are a click target ('srv' for the card selected on an exit). */
  serverTarget?: Side | null;
  last?: string[];
  /** The square the last move came from (drawn apart from where it went). */
  lastFrom?: string;
  /** Squares whose card has a legal move (the player's turn, nothing selected). */
  movable?: Set<string>;
  cursor?: string | null;
  onSquare?: (sq: string) => void;
  onServer?: (side: Side) => void;
  /** Arrow keys: the square the cursor should move to (the caller redraws and focuses it). */
  onCursor?: (sq: string) => void;
  /** A square got the focus (no redraw: a redraw here would swallow the click that follows). */
  onFocusSquare?: (sq: string) => void;
  /** Squares of the viewer's setup whose identity is being chosen (setup screen). */
  dragSource?: boolean;
}

export function cardFace(card: Card, me: Side | null, extraClass = ''): HTMLElement {
  const kind = card.kind === 'L' ? 'link' : card.kind === 'V' ? 'virus' : 'unknown';
  const mine = me !== null && card.owner === me;
  const what = t(`board.kind.${card.kind}` as const);
  let label = mine ? t('board.card.mine', { kind: what }) : me === null ? t('board.card.side', { n: card.owner, kind: what }) : t('board.card.theirs', { kind: what });
  if (card.faceUp) label = t('board.card.revealed', { label });
  if (card.boost) label = t('board.card.boosted', { label, card: cardName('LB') });
  return h(
    `div.card.${kind}.owner${card.owner}`,
    {
      class: [mine ? 'mine' : 'theirs', card.faceUp ? 'faceup' : '', card.boost ? 'boosted' : '', extraClass].join(' '),
      'data-card': card.kind,
      'data-owner': card.owner,
      title: label,
      role: 'img',
      'aria-label': label,
    },
    svg(card.kind === 'L' ? ICON.link : card.kind === 'V' ? ICON.virus : ICON.unknown, 'icon glyph'),
    // The letter is drawn by CSS (data-letter): the card's name is its label, not stray text.
    card.kind !== 'X' ? h('span.letter', { 'data-letter': card.kind }) : null,
    card.boost ? h('span.badge.lb', svg(ICON.boost)) : null,
    card.faceUp ? h('span.badge.vc', svg(ICON.check)) : null,
  );
}

/** Visual order of squares from the top-left corner for the given bottom side. */
export function displayOrder(bottom: Side): string[] {
  const out: string[] = [];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const rank = bottom === 1 ? 7 - row : row;
      const file = bottom === 1 ? col : 7 - col;
      out.push(squareName(rank * 8 + file));
    }
  }
  return out;
}

/** The square reached from `sq` by an arrow key, in screen directions for the given bottom side. */
export function stepCursor(sq: string, key: string, bottom: Side): string {
  const order = displayOrder(bottom);
  const i = order.indexOf(sq);
  let row = Math.floor(i / 8), col = i % 8;
  if (key === 'ArrowUp') row = Math.max(0, row - 1);
  else if (key === 'ArrowDown') row = Math.min(7, row + 1);
  else if (key === 'ArrowLeft') col = Math.max(0, col - 1);
  else if (key === 'ArrowRight') col = Math.min(7, col + 1);
  return order[row * 8 + col];
}

function server(side: Side, opts: BoardOptions, top: boolean): HTMLElement {
  const target = opts.serverTarget === side;
  // The visible text is the accessible name (no aria-label that could say something else).
  const label = opts.me === side ? t('board.server.mine') : opts.me !== null ? t('board.server.theirs') : t('board.server.named', { name: opts.names?.[side] ?? t('game.side', { n: side }) });
  return h(
    'button.server',
    {
      type: 'button',
      class: [top ? 'top' : 'bottom', `owner${side}`, target ? 'target' : ''].join(' '),
      'data-server': side,
      tabindex: target ? 0 : -1,
      on: { click: () => opts.onServer?.(side) },
    },
    svg(ICON.server),
    h('span.srv-label', label),
    target ? h('span.sr-only', t('board.server.enter')) : null,
  );
}

export function renderBoard(v: ViewModel, opts: BoardOptions): HTMLElement {
  const order = displayOrder(opts.bottom);
  const top: Side = opts.bottom === 1 ? 2 : 1;
  const last = new Set(opts.last ?? []);
  const cursor = opts.cursor ?? null;
  const squares = order.map((name, i) => {
    const idx = (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);
    const q = v.squares[idx];
    const dark = (idx % 8 + Math.floor(idx / 8)) % 2 === 0;
    const exit = EXITS[1].includes(name) ? 1 : EXITS[2].includes(name) ? 2 : 0;
    const mark = opts.marks?.get(name);
    const cls = [
      dark ? 'dark' : 'light',
      exit ? `exit exit${exit}` : '',
      q.firewall ? `fw fw${q.firewall}` : '',
      last.has(name) ? (name === opts.lastFrom ? 'last last-from' : 'last') : '',
      opts.selected === name ? 'selected' : '',
      mark ? `mark-${mark}` : '',
      cursor === name ? 'cursor' : '',
      opts.movable?.has(name) ? 'movable' : '',
    ].join(' ');
    const labelParts = [name];
    if (q.card) labelParts.push(cardFace(q.card, opts.me).getAttribute('aria-label')!);
    if (q.firewall) labelParts.push(t('board.sq.firewall', { n: q.firewall }));
    if (exit) labelParts.push(t('board.sq.exit', { n: exit }));
    if (mark && mark !== 'source') labelParts.push(t('board.sq.target'));
    if (last.has(name)) labelParts.push(t('board.sq.last'));
    return h(
      'button.sq',
      {
        type: 'button',
        class: cls,
        'data-square': name,
        'aria-label': labelParts.join(', '),
        tabindex: cursor === name || (!cursor && i === 0) ? 0 : -1,
        on: {
          click: () => opts.onSquare?.(name),
          keydown: (ev: KeyboardEvent) => {
            if (ev.key.startsWith('Arrow')) {
              ev.preventDefault();
              opts.onCursor?.(stepCursor(name, ev.key, opts.bottom));
            }
          },
          focus: () => opts.onFocusSquare?.(name),
        },
      },
      exit ? h('span.port', { 'data-label': 'PORT' }) : null,
      q.firewall ? h('span.wall', svg(ICON.wall)) : null,
      q.card ? cardFace(q.card, opts.me) : null,
      mark === 'dest' || mark === 'dest2' || mark === 'capture' || mark === 'target' ? h('span.dot', mark === 'dest2' ? { 'data-label': '2' } : {}) : null,
    );
  });
  // Coordinates stand beside the board, never under a card.
  const ranks = order.filter((_, i) => i % 8 === 0).map((sq) => h('span', sq[1]));
  const files = order.slice(56).map((sq) => h('span', sq[0]));
  return h(
    'div.board-wrap',
    server(top, opts, true),
    h('div.board-frame',
      h('div.coords.ranks', { 'aria-hidden': 'true' }, ranks),
      h('div.board', { role: 'group', 'aria-label': t('board.aria', { n: opts.bottom }), 'data-bottom': opts.bottom }, squares),
      h('div.coords.files', { 'aria-hidden': 'true' }, files)),
    server(opts.bottom, opts, false),
  );
}

export { FILES };
