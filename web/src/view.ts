// The board model of one viewer: a parsed view string (RULES.md §7). The client renders this and
// never decides legality; it only needs to know what stands where and what each side still holds.

export type Side = 1 | 2;
/** `L` link, `V` virus, `X` a card whose identity the viewer does not know. */
export type Kind = 'L' | 'V' | 'X';

export interface Card {
  owner: Side;
  kind: Kind;
  boost: boolean; // carries LINE BOOST
  faceUp: boolean; // revealed by VIRUS CHECKER
  onFirewall: boolean; // stands on its owner's firewall
}

export interface Square {
  card: Card | null;
  firewall: Side | null; // whose firewall is on this square
}

/** A card in a stack: `escaped` when it is its owner's own card that entered the server. */
export interface StackCard {
  owner: Side;
  kind: Kind;
  escaped: boolean;
}

export interface Hand {
  lineBoost: boolean; // LB in hand (not on the board)
  firewall: boolean; // FW in hand
  virusChecker: boolean; // VC unused
  notFound: boolean; // NF unused
}

export interface ViewModel {
  squares: Square[]; // index rank*8+file, a1 = 0, h8 = 63
  toMove: Side;
  hands: [Hand, Hand];
  stacks: [StackCard[], StackCard[]];
  noProgress: number;
  ply: number;
}

export const FILES = 'abcdefgh';

export function squareName(index: number): string {
  return FILES[index % 8] + String(Math.floor(index / 8) + 1);
}

export function squareIndex(name: string): number {
  if (!/^[a-h][1-8]$/.test(name)) throw new Error(`not a square: ${JSON.stringify(name)}`);
  return (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);
}

export const EXITS: Record<Side, string[]> = { 1: ['d1', 'e1'], 2: ['d8', 'e8'] };
export const SETUP_SQUARES: Record<Side, string[]> = {
  1: ['a1', 'b1', 'c1', 'f1', 'g1', 'h1', 'd2', 'e2'],
  2: ['a8', 'b8', 'c8', 'f8', 'g8', 'h8', 'd7', 'e7'],
};

export function opponent(s: Side): Side {
  return s === 1 ? 2 : 1;
}

export class ViewParseError extends Error {}

function fail(field: string, what: string): never {
  throw new ViewParseError(`${field}: ${what}`);
}

function parseCounter(field: string, t: string): number {
  if (!/^(0|[1-9][0-9]{0,6})$/.test(t)) fail(field, `not a number: ${JSON.stringify(t)}`);
  return Number(t);
}

function cardLetter(c: string): { owner: Side; kind: Kind } | null {
  switch (c) {
    case 'L': return { owner: 1, kind: 'L' };
    case 'V': return { owner: 1, kind: 'V' };
    case 'X': return { owner: 1, kind: 'X' };
    case 'l': return { owner: 2, kind: 'L' };
    case 'v': return { owner: 2, kind: 'V' };
    case 'x': return { owner: 2, kind: 'X' };
    default: return null;
  }
}

/** Parses a position or view string into the board model. Throws ViewParseError when malformed. */
export function parseView(text: string): ViewModel {
  const f = text.split(' ');
  if (f.length !== 6) fail('position', `expected 6 fields separated by single spaces, found ${f.length}`);
  const squares: Square[] = Array.from({ length: 64 }, () => ({ card: null, firewall: null }));

  // Field 1: the board, rank 8 first.
  const ranks = f[0].split('/');
  if (ranks.length !== 8) fail('board', `expected 8 ranks, found ${ranks.length}`);
  ranks.forEach((row, i) => {
    const rank = 7 - i;
    let file = 0;
    let j = 0;
    while (j < row.length) {
      const c = row[j++];
      if (file >= 8) fail('board', `rank ${rank + 1} has more than 8 squares`);
      const sq = squares[rank * 8 + file];
      if (c >= '1' && c <= '8') {
        file += Number(c);
        if (file > 8) fail('board', `rank ${rank + 1} has more than 8 squares`);
        continue;
      }
      if (c === 'F' || c === 'f') {
        sq.firewall = c === 'F' ? 1 : 2;
        file++;
        continue;
      }
      const letter = cardLetter(c);
      if (!letter) fail('board', `unexpected ${JSON.stringify(c)} on rank ${rank + 1}`);
      const card: Card = { ...letter, boost: false, faceUp: false, onFirewall: false };
      // Marks in this order: + ! #
      if (row[j] === '+') { card.boost = true; j++; }
      if (row[j] === '!') { card.faceUp = true; j++; }
      if (row[j] === '#') { card.onFirewall = true; j++; }
      if (card.onFirewall) sq.firewall = card.owner;
      sq.card = card;
      file++;
    }
    if (file !== 8) fail('board', `rank ${rank + 1} does not have 8 squares`);
  });

  // Field 2: side to move.
  if (f[1] !== '1' && f[1] !== '2') fail('side to move', `expected 1 or 2, found ${JSON.stringify(f[1])}`);
  const toMove: Side = f[1] === '1' ? 1 : 2;

  // Field 3: once-per-game cards still unused, in the order CNcn.
  const unused = f[2];
  if (unused !== '-') {
    let last = -1;
    for (const c of unused) {
      const at = 'CNcn'.indexOf(c);
      if (at < 0 || at <= last) fail('once-per-game cards', `unexpected ${JSON.stringify(c)}`);
      last = at;
    }
  }
  const hands: [Hand, Hand] = [1, 2].map((s) => ({
    lineBoost: !squares.some((q) => q.card?.owner === s && q.card.boost),
    firewall: !squares.some((q) => q.firewall === s),
    virusChecker: unused.includes(s === 1 ? 'C' : 'c'),
    notFound: unused.includes(s === 1 ? 'N' : 'n'),
  })) as [Hand, Hand];

  // Field 4: stacks, side 1's then side 2's.
  const st = f[3].split('/');
  if (st.length !== 2) fail('stacks', 'expected two stacks separated by /');
  const stacks = st.map((s, i) => {
    const holder: Side = i === 0 ? 1 : 2;
    if (s === '-') return [];
    return [...s].map((c) => {
      const letter = cardLetter(c);
      if (!letter) fail('stacks', `unexpected ${JSON.stringify(c)}`);
      return { ...letter, escaped: letter.owner === holder };
    });
  }) as [StackCard[], StackCard[]];

  const noProgress = parseCounter('no-progress counter', f[4]);
  const ply = parseCounter('ply number', f[5]);
  return { squares, toMove, hands, stacks, noProgress, ply };
}

export function cardAt(v: ViewModel, name: string): Card | null {
  return v.squares[squareIndex(name)].card;
}

/** Counts of a stack for the end-of-game check display: links, viruses, unknown. */
export function stackCounts(cards: StackCard[]): { L: number; V: number; X: number } {
  const n = { L: 0, V: 0, X: 0 };
  for (const c of cards) n[c.kind]++;
  return n;
}

/** Whether any identity of `side`'s cards is visible in this view (board or stacks). */
export function visibleIdentities(v: ViewModel, side: Side): string[] {
  const out: string[] = [];
  v.squares.forEach((q, i) => {
    if (q.card && q.card.owner === side && q.card.kind !== 'X') out.push(`${squareName(i)}=${q.card.kind}`);
  });
  return out;
}
