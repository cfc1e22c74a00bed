// Canonical action strings (RULES.md §7) and their mapping to click targets. The server sends the
// legal actions; the client only arranges them by square so that a click or a key press picks one.
import { squareIndex } from './view.ts';

export type Action =
  | { kind: 'move'; from: string; to: string }
  | { kind: 'enter'; from: string }
  | { kind: 'lb'; attach: boolean; square: string }
  | { kind: 'fw'; place: boolean; square: string }
  | { kind: 'vc'; square: string }
  | { kind: 'nf'; a: string; b: string; swap: boolean | null };

const SQ = '([a-h][1-8])';
const MOVE = new RegExp(`^${SQ}-${SQ}$`);
const ENTER = new RegExp(`^${SQ}-srv$`);
const TERMINAL = new RegExp(`^(LB|FW|VC)([+-])${SQ}$`);
const NF = new RegExp(`^NF\\+${SQ}${SQ}(?::(swap|keep))?$`);

/**
 * Parses a canonical action string; trailing annotations after a space (e.g. the revealed identity
 * " {l}" of an observation) are ignored. Returns null when the text is not an action.
 */
export function parseAction(text: string): Action | null {
  const t = text.trim().split(' ')[0];
  let m = MOVE.exec(t);
  if (m) return m[1] === m[2] ? null : { kind: 'move', from: m[1], to: m[2] };
  m = ENTER.exec(t);
  if (m) return { kind: 'enter', from: m[1] };
  m = TERMINAL.exec(t);
  if (m) {
    if (m[1] === 'LB') return { kind: 'lb', attach: m[2] === '+', square: m[3] };
    if (m[1] === 'FW') return { kind: 'fw', place: m[2] === '+', square: m[3] };
    if (m[2] === '+') return { kind: 'vc', square: m[3] };
    return null;
  }
  m = NF.exec(t);
  if (m) {
    if (m[1] === m[2]) return null;
    return { kind: 'nf', a: m[1], b: m[2], swap: m[3] === undefined ? null : m[3] === 'swap' };
  }
  return null;
}

/** The squares an action touches, for highlighting the last action. */
export function actionSquares(a: Action): string[] {
  switch (a.kind) {
    case 'move': return [a.from, a.to];
    case 'enter': return [a.from];
    case 'lb': case 'fw': case 'vc': return [a.square];
    case 'nf': return [a.a, a.b];
  }
}

/** Orthogonal step count between two squares (1 or 2 for legal moves; 2 means a boosted move). */
export function distance(from: string, to: string): number {
  const a = squareIndex(from), b = squareIndex(to);
  return Math.abs((a % 8) - (b % 8)) + Math.abs(Math.floor(a / 8) - Math.floor(b / 8));
}

export interface NfChoice {
  swap?: string;
  keep?: string;
  /** The observer form `NF+a b` when the legal list carries no swap bit. */
  plain?: string;
}

/** Legal actions arranged for click interaction. Every map value is a legal action string. */
export interface Targets {
  /** from square -> destination square or 'srv' -> action */
  moves: Map<string, Map<string, string>>;
  /** square -> LB+ or LB- action on that square */
  lineBoost: Map<string, string>;
  /** square -> FW+ or FW- action on that square */
  firewall: Map<string, string>;
  /** square -> VC+ action */
  virusChecker: Map<string, string>;
  /** first square -> second square -> choices (both orders are listed) */
  notFound: Map<string, Map<string, NfChoice>>;
  /** Every legal action, in the order received. */
  all: string[];
}

export function buildTargets(legal: readonly string[]): Targets {
  const t: Targets = {
    moves: new Map(),
    lineBoost: new Map(),
    firewall: new Map(),
    virusChecker: new Map(),
    notFound: new Map(),
    all: [...legal],
  };
  const put = (from: string, to: string, s: string) => {
    let m = t.moves.get(from);
    if (!m) t.moves.set(from, (m = new Map()));
    m.set(to, s);
  };
  const nf = (a: string, b: string, swap: boolean | null, s: string) => {
    let m = t.notFound.get(a);
    if (!m) t.notFound.set(a, (m = new Map()));
    let c = m.get(b);
    if (!c) m.set(b, (c = {}));
    if (swap === null) c.plain = s;
    else if (swap) c.swap = s;
    else c.keep = s;
  };
  for (const s of legal) {
    const a = parseAction(s);
    if (!a) continue;
    switch (a.kind) {
      case 'move': put(a.from, a.to, s); break;
      case 'enter': put(a.from, 'srv', s); break;
      case 'lb': t.lineBoost.set(a.square, s); break;
      case 'fw': t.firewall.set(a.square, s); break;
      case 'vc': t.virusChecker.set(a.square, s); break;
      case 'nf': nf(a.a, a.b, a.swap, s); nf(a.b, a.a, a.swap, s); break;
    }
  }
  return t;
}

/** The terminal card modes the player can pick from the hand. */
export type Mode = 'LB' | 'FW' | 'VC' | 'NF';

export function modeTargets(t: Targets, mode: Mode): Map<string, unknown> {
  switch (mode) {
    case 'LB': return t.lineBoost;
    case 'FW': return t.firewall;
    case 'VC': return t.virusChecker;
    case 'NF': return t.notFound;
  }
}

/** Squares a card on `from` may reach, with the step count (2 = boosted 2-square move). */
export function destinations(t: Targets, from: string): { to: string; action: string; steps: number }[] {
  const m = t.moves.get(from);
  if (!m) return [];
  return [...m].map(([to, action]) => ({ to, action, steps: to === 'srv' ? 1 : distance(from, to) }));
}
