// Positions of a finished game for the replay screen, from its record (setups + actions in full
// notation). This only *follows* actions that the server already validated; it never decides
// legality. When the record carries `positions` (one full position string per ply), those are used.
import { parseAction } from './actions.ts';
import { type Card, type Side, type ViewModel, parseView, SETUP_SQUARES, squareIndex } from './view.ts';

function letter(c: { owner: Side; kind: string }): string {
  return c.owner === 1 ? c.kind : c.kind.toLowerCase();
}

/** Writes a board model back as a position / view string (the inverse of parseView). */
export function formatView(v: ViewModel): string {
  const rows: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '', empty = 0;
    for (let file = 0; file < 8; file++) {
      const q = v.squares[rank * 8 + file];
      let t = '';
      if (q.card) {
        t = letter(q.card) + (q.card.boost ? '+' : '') + (q.card.faceUp ? '!' : '') + (q.card.onFirewall ? '#' : '');
      } else if (q.firewall) {
        t = q.firewall === 1 ? 'F' : 'f';
      }
      if (!t) { empty++; continue; }
      if (empty) { row += String(empty); empty = 0; }
      row += t;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  const h = v.hands;
  const unused = (h[0].virusChecker ? 'C' : '') + (h[0].notFound ? 'N' : '') + (h[1].virusChecker ? 'c' : '') + (h[1].notFound ? 'n' : '');
  const stack = (s: ViewModel['stacks'][0]) => {
    if (!s.length) return '-';
    const order = (c: { escaped: boolean; kind: string }) => (c.escaped ? 2 : 0) + (c.kind === 'L' ? 0 : 1);
    return [...s].sort((a, b) => order(a) - order(b)).map(letter).join('');
  };
  return `${rows.join('/')} ${v.toMove} ${unused || '-'} ${stack(v.stacks[0])}/${stack(v.stacks[1])} ${v.noProgress} ${v.ply}`;
}

/** The starting position of a game from the link squares each side chose. */
export function startPosition(setups: { '1': string[]; '2': string[] }): string {
  const v = parseView('8/8/8/8/8/8/8/8 1 CNcn -/- 0 0');
  for (const side of [1, 2] as Side[]) {
    const links = new Set(setups[String(side) as '1' | '2']);
    for (const sq of SETUP_SQUARES[side]) {
      v.squares[squareIndex(sq)].card = { owner: side, kind: links.has(sq) ? 'L' : 'V', boost: false, faceUp: false, onFirewall: false };
    }
  }
  return formatView(v);
}

function clone(v: ViewModel): ViewModel {
  return {
    squares: v.squares.map((q) => ({ card: q.card ? { ...q.card } : null, firewall: q.firewall })),
    toMove: v.toMove,
    hands: [{ ...v.hands[0] }, { ...v.hands[1] }],
    stacks: [v.stacks[0].map((c) => ({ ...c })), v.stacks[1].map((c) => ({ ...c }))],
    noProgress: v.noProgress,
    ply: v.ply,
  };
}

/** The position after `action` (played by the side to move). Throws on an action that does not fit. */
export function applyAction(position: string, action: string): string {
  const v = clone(parseView(position));
  const a = parseAction(action);
  if (!a) throw new Error(`not an action: ${action}`);
  const me = v.toMove;
  const hand = v.hands[me - 1];
  let progress = false;
  const at = (sq: string) => v.squares[squareIndex(sq)];
  const need = (sq: string): Card => {
    const c = at(sq).card;
    if (!c) throw new Error(`${action}: no card on ${sq}`);
    return c;
  };
  switch (a.kind) {
    case 'move': {
      const card = need(a.from);
      const from = at(a.from), to = at(a.to);
      if (to.card) {
        const captured = to.card;
        v.stacks[me - 1].push({ owner: captured.owner, kind: captured.kind, escaped: false });
        progress = true;
      }
      from.card = null;
      card.onFirewall = to.firewall === card.owner;
      to.card = card;
      break;
    }
    case 'enter': {
      const card = need(a.from);
      at(a.from).card = null;
      v.stacks[me - 1].push({ owner: card.owner, kind: card.kind, escaped: true });
      progress = true;
      break;
    }
    case 'lb':
      need(a.square).boost = a.attach;
      break;
    case 'fw': {
      const q = at(a.square);
      q.firewall = a.place ? me : null;
      if (q.card) q.card.onFirewall = a.place && q.card.owner === me;
      break;
    }
    case 'vc':
      need(a.square).faceUp = true;
      hand.virusChecker = false;
      break;
    case 'nf': {
      const x = need(a.a), y = need(a.b);
      if (a.swap) [x.kind, y.kind] = [y.kind, x.kind];
      x.faceUp = y.faceUp = false;
      hand.notFound = false;
      break;
    }
  }
  v.toMove = me === 1 ? 2 : 1;
  v.ply += 1;
  v.noProgress = progress ? 0 : v.noProgress + 1;
  return formatView(v); // hands (LB, FW) are derived again from the board on parse
}

/** Every position of a finished game: index i is the position before action i (and after i-1). */
export function replayPositions(record: { setups?: { '1': string[]; '2': string[] }; actions: string[]; positions?: string[] }): string[] {
  if (record.positions && record.positions.length === record.actions.length + 1) return record.positions;
  if (!record.setups) throw new Error('the record has no setups');
  const out = [startPosition(record.setups)];
  for (const a of record.actions) out.push(applyAction(out[out.length - 1], a));
  return out;
}
