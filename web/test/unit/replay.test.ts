import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, formatView, replayPositions, startPosition } from '../../src/replay.ts';
import { parseView } from '../../src/view.ts';

const START = 'lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0';

test('formatView is the inverse of parseView', () => {
  for (const s of [
    START,
    'lll2xxx/3lx3/8/8/8/8/3XX3/XXX2XXX 2 CNcn -/- 0 1',
    'x+x2xx1x/3x!x3/4f3/8/3X#4/8/4X3/XX+X2XXX 1 Nc L/lv 3 17',
    '8/8/8/8/8/8/8/8 1 - lvX/Lx 0 40',
  ]) assert.equal(formatView(parseView(s)), s);
});

test('the start position follows the setups', () => {
  assert.equal(startPosition({ '1': ['a1', 'b1', 'c1', 'd2'], '2': ['a8', 'b8', 'c8', 'd7'] }), START);
  assert.equal(startPosition({ '1': ['f1', 'g1', 'h1', 'e2'], '2': ['f8', 'g8', 'h8', 'e7'] }),
    'vvv2lll/3vl3/8/8/8/8/3VL3/VVV2LLL 1 CNcn -/- 0 0');
});

test('moves, captures, escapes and terminal cards', () => {
  let p = START;
  const play = (...as: string[]) => { for (const a of as) p = applyAction(p, a); return p; };
  play('d2-d3', 'd7-d6');
  assert.equal(p, 'lll2vvv/4v3/3l4/8/8/3L4/4V3/LLL2VVV 1 CNcn -/- 2 2');
  play('LB+d3', 'FW+e5');
  assert.equal(p, 'lll2vvv/4v3/3l4/4f3/8/3L+4/4V3/LLL2VVV 1 CNcn -/- 4 4');
  play('d3-d5', 'd6-d5'); // 2-square boosted move, then side 2 captures the boosted link: LB back in hand
  assert.equal(p, 'lll2vvv/4v3/8/3lf3/8/8/4V3/LLL2VVV 1 CNcn -/L 0 6');
  assert.equal(parseView(p).hands[0].lineBoost, true);
  play('VC+d5');
  assert.equal(p, 'lll2vvv/4v3/8/3l!f3/8/8/4V3/LLL2VVV 2 Ncn -/L 1 7');
  play('NF+a8b8:swap');
  assert.equal(p, 'lll2vvv/4v3/8/3l!f3/8/8/4V3/LLL2VVV 1 Nc -/L 2 8', 'NF touches only its two squares');
  play('d5-d4');
  assert.equal(p, 'lll2vvv/4v3/8/4f3/3l!4/8/4V3/LLL2VVV 2 Nc -/L 3 9', 'a revealed card stays revealed when it moves');
});

test('NF keeps LB on its square and hides a VC reveal; FW under own card; escape', () => {
  let p = '3L4/8/8/8/8/8/3L+V3/8 2 CNcn -/- 0 1';
  p = applyAction(p, 'VC+e2');
  assert.equal(p, '3L4/8/8/8/8/8/3L+V!3/8 1 CNn -/- 1 2');
  p = applyAction(p, 'NF+d2e2:swap');
  assert.equal(p, '3L4/8/8/8/8/8/3V+L3/8 2 Cn -/- 2 3');
  p = applyAction(p, 'FW+a5');
  p = applyAction(p, 'd8-srv');
  assert.equal(p, '8/8/8/f7/8/8/3V+L3/8 2 Cn L/- 0 5');
  p = applyAction(p, 'FW-a5');
  assert.equal(p, '8/8/8/8/8/8/3V+L3/8 1 Cn L/- 1 6');
});

test('replayPositions: from setups, or the record positions when present', () => {
  const rec = { setups: { '1': ['a1', 'b1', 'c1', 'd2'], '2': ['a8', 'b8', 'c8', 'd7'] }, actions: ['d2-d3', 'd7-d6'] };
  const ps = replayPositions(rec);
  assert.equal(ps.length, 3);
  assert.equal(ps[0], START);
  assert.deepEqual(replayPositions({ ...rec, positions: ['a', 'b', 'c'] }), ['a', 'b', 'c']);
});
