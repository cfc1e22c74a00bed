import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAction, buildTargets, destinations, distance, actionSquares } from '../../src/actions.ts';

test('every canonical form parses', () => {
  assert.deepEqual(parseAction('d2-d3'), { kind: 'move', from: 'd2', to: 'd3' });
  assert.deepEqual(parseAction('d8-srv'), { kind: 'enter', from: 'd8' });
  assert.deepEqual(parseAction('LB+d2'), { kind: 'lb', attach: true, square: 'd2' });
  assert.deepEqual(parseAction('LB-d3'), { kind: 'lb', attach: false, square: 'd3' });
  assert.deepEqual(parseAction('FW+e5'), { kind: 'fw', place: true, square: 'e5' });
  assert.deepEqual(parseAction('FW-e5'), { kind: 'fw', place: false, square: 'e5' });
  assert.deepEqual(parseAction('VC+e7'), { kind: 'vc', square: 'e7' });
  assert.deepEqual(parseAction('NF+d2e2:swap'), { kind: 'nf', a: 'd2', b: 'e2', swap: true });
  assert.deepEqual(parseAction('NF+d2e2:keep'), { kind: 'nf', a: 'd2', b: 'e2', swap: false });
  assert.deepEqual(parseAction('NF+d2e2'), { kind: 'nf', a: 'd2', b: 'e2', swap: null });
  // An observation with the revealed identity appended.
  assert.deepEqual(parseAction('c4-c5 {l}'), { kind: 'move', from: 'c4', to: 'c5' });
});

test('non-actions are rejected', () => {
  for (const s of ['', 'd2', 'd2-d2', 'd2-i3', 'VC-e7', 'NF+d2d2:swap', 'NF+d2e2:maybe', 'LB+d9', 'xx'])
    assert.equal(parseAction(s), null, s);
});

test('actionSquares and distance', () => {
  assert.deepEqual(actionSquares(parseAction('NF+d2e2')!), ['d2', 'e2']);
  assert.deepEqual(actionSquares(parseAction('d7-srv')!), ['d7']);
  assert.equal(distance('c3', 'c5'), 2);
  assert.equal(distance('c3', 'd4'), 2);
  assert.equal(distance('c3', 'c4'), 1);
});

test('legal actions map to per-square targets', () => {
  const legal = ['c3-c4', 'c3-c5', 'c3-d4', 'c3-b3', 'd8-srv', 'd8-e8', 'LB-c3', 'FW+e5', 'FW+f5',
                 'VC+e7', 'NF+d2e2:swap', 'NF+d2e2:keep', 'NF+a1e2:swap', 'NF+a1e2:keep'];
  const t = buildTargets(legal);
  assert.deepEqual(destinations(t, 'c3'), [
    { to: 'c4', action: 'c3-c4', steps: 1 },
    { to: 'c5', action: 'c3-c5', steps: 2 },
    { to: 'd4', action: 'c3-d4', steps: 2 },
    { to: 'b3', action: 'c3-b3', steps: 1 },
  ]);
  assert.equal(t.moves.get('d8')?.get('srv'), 'd8-srv');
  assert.deepEqual(destinations(t, 'a1'), []);
  assert.deepEqual([...t.lineBoost], [['c3', 'LB-c3']]);
  assert.deepEqual([...t.firewall.keys()], ['e5', 'f5']);
  assert.deepEqual([...t.virusChecker], [['e7', 'VC+e7']]);
  // NF: both orders, both choices.
  assert.deepEqual(t.notFound.get('d2')?.get('e2'), { swap: 'NF+d2e2:swap', keep: 'NF+d2e2:keep' });
  assert.deepEqual(t.notFound.get('e2')?.get('d2'), { swap: 'NF+d2e2:swap', keep: 'NF+d2e2:keep' });
  assert.deepEqual([...t.notFound.get('e2')!.keys()], ['d2', 'a1']);
  assert.equal(t.all.length, legal.length);
});

test('unknown strings in the legal list are skipped, not fatal', () => {
  const t = buildTargets(['resign', 'a1-a2']);
  assert.equal(t.moves.get('a1')?.get('a2'), 'a1-a2');
});
