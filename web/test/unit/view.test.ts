import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseView, squareIndex, squareName, cardAt, ViewParseError, stackCounts } from '../../src/view.ts';

const START = 'lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0';

test('square names and indices round-trip (a1 = 0, h8 = 63)', () => {
  assert.equal(squareIndex('a1'), 0);
  assert.equal(squareIndex('h8'), 63);
  assert.equal(squareIndex('e4'), 28);
  for (let i = 0; i < 64; i++) assert.equal(squareIndex(squareName(i)), i);
  assert.throws(() => squareIndex('i1'));
});

test('the starting position parses into cards, hands and empty stacks', () => {
  const v = parseView(START);
  assert.equal(v.toMove, 1);
  assert.equal(v.ply, 0);
  assert.deepEqual(cardAt(v, 'a1'), { owner: 1, kind: 'L', boost: false, faceUp: false, onFirewall: false });
  assert.equal(cardAt(v, 'e2')?.kind, 'V');
  assert.equal(cardAt(v, 'd7')?.owner, 2);
  assert.equal(cardAt(v, 'd7')?.kind, 'L');
  assert.equal(cardAt(v, 'd1'), null);
  assert.equal(v.squares.filter((q) => q.card).length, 16);
  for (const h of v.hands) assert.deepEqual(h, { lineBoost: true, firewall: true, virusChecker: true, notFound: true });
  assert.deepEqual(v.stacks, [[], []]);
});

test('a side-2 view hides side 1 identities as X', () => {
  const v = parseView('lll2vvv/3lv3/8/8/8/8/3XX3/XXX2XXX 2 CNcn -/- 0 1');
  assert.equal(cardAt(v, 'a1')?.kind, 'X');
  assert.equal(cardAt(v, 'a1')?.owner, 1);
  assert.equal(v.toMove, 2);
});

test('marks: LB carrier, face up, own firewall; empty firewalls; hands follow the board', () => {
  const v = parseView('x+x2xx1x/3x!x3/4f3/8/3X#4/8/4X3/XX+X2XXX 1 Nc L/lv 3 17');
  assert.deepEqual(cardAt(v, 'a8'), { owner: 2, kind: 'X', boost: true, faceUp: false, onFirewall: false });
  assert.equal(cardAt(v, 'd7')?.faceUp, true);
  assert.equal(v.squares[squareIndex('e6')].firewall, 2);
  assert.equal(v.squares[squareIndex('d4')].firewall, 1);
  assert.equal(cardAt(v, 'd4')?.onFirewall, true);
  assert.equal(cardAt(v, 'b1')?.boost, true);
  assert.deepEqual(v.hands[0], { lineBoost: false, firewall: false, virusChecker: false, notFound: true });
  assert.deepEqual(v.hands[1], { lineBoost: false, firewall: false, virusChecker: true, notFound: false });
  // Own-case letters in a stack are the holder's own escaped cards.
  assert.deepEqual(v.stacks[0], [{ owner: 1, kind: 'L', escaped: true }]);
  assert.deepEqual(v.stacks[1], [
    { owner: 2, kind: 'L', escaped: true },
    { owner: 2, kind: 'V', escaped: true },
  ]);
  assert.equal(v.noProgress, 3);
  assert.equal(v.ply, 17);
});

test('stacks: captures in the opponent case, unknown escapes as X/x', () => {
  const v = parseView('8/8/8/8/8/8/8/8 1 - lvX/LLx 0 40');
  assert.deepEqual(v.stacks[0].map((c) => [c.owner, c.kind, c.escaped]), [[2, 'L', false], [2, 'V', false], [1, 'X', true]]);
  assert.deepEqual(v.stacks[1].map((c) => [c.owner, c.kind, c.escaped]), [[1, 'L', false], [1, 'L', false], [2, 'X', true]]);
  assert.deepEqual(stackCounts(v.stacks[1]), { L: 2, V: 0, X: 1 });
});

test('malformed strings are rejected with the field named', () => {
  const bad: [string, RegExp][] = [
    ['lll2vvv/3lv3/8/8/8/8/3LV3 1 CNcn -/- 0 0', /board/],
    ['lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVVV 1 CNcn -/- 0 0', /board/],
    ['lll2vvv/3lv3/8/8/8/8/3LV2/LLL2VVV 1 CNcn -/- 0 0', /board/],
    ['lll2vvv/3lv3/8/8/8/8/3LQ3/LLL2VVV 1 CNcn -/- 0 0', /board/],
    [START.replace(' 1 ', ' 3 '), /side to move/],
    [START.replace('CNcn', 'NC'), /once-per-game/],
    [START.replace('-/-', '-'), /stacks/],
    [START.replace('-/-', 'Q/-'), /stacks/],
    [START.replace(/ 0 0$/, ' 01 0'), /no-progress/],
    [START.replace(/ 0$/, ' x'), /ply/],
    ['', /6 fields/],
    [START + ' ', /6 fields/],
  ];
  for (const [s, re] of bad) assert.throws(() => parseView(s), (e: unknown) => e instanceof ViewParseError && re.test((e as Error).message), s);
});
