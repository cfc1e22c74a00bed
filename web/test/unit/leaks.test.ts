import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allLeaks, messageLeaks, viewLeaks } from '../e2e/leaks.ts';

test('views: own identities and revealed cards are fine, others are leaks', () => {
  assert.deepEqual(viewLeaks('lll2xxx/3lx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0', '2'), []);
  assert.deepEqual(viewLeaks('xxx2xxx/3xx3/8/8/8/3L!4/3XX3/XXX2XXX 1 CNcn -/- 0 0', 'spectator'), []);
  assert.equal(viewLeaks('lll2xxx/3lx3/8/8/8/8/3XV3/XXX2XXX 1 CNcn -/- 0 0', '2').length, 1);
  assert.equal(viewLeaks('lll2xxx/3lx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0', 'spectator').length, 4);
  assert.equal(viewLeaks('8/8/8/8/8/8/8/8 1 - Lv/- 0 0', '2').length, 1, 'side 1 escaped link shown to side 2');
  assert.deepEqual(viewLeaks('8/8/8/8/8/8/8/8 1 - Xv/L 0 0', '2'), [], 'captures are public');
});

test('messages: NF swap bit, links, legal, setups', () => {
  assert.equal(messageLeaks({ type: 'event', kind: 'action', side: '1', action: 'NF+d2e2:swap', view: '8/8/8/8/8/8/8/8 2 - -/- 0 1' }, '2').length, 1);
  assert.equal(messageLeaks({ type: 'event', kind: 'action', side: '1', action: 'NF+d2e2:swap', view: '8/8/8/8/8/8/8/8 2 - -/- 0 1' }, '1').length, 0);
  assert.equal(messageLeaks({ type: 'event', kind: 'setup', side: '1', links: ['a1'] }, '2').length, 1);
  assert.equal(messageLeaks({ type: 'event', kind: 'setup', side: '2', links: ['a8'] }, '2').length, 0);
  assert.equal(messageLeaks({ type: 'snapshot', you: 'spectator', status: 'playing', legal: [] }, 'spectator').length, 1);
  assert.equal(messageLeaks({ type: 'event', kind: 'end', setups: {}, position: 'x' }, 'spectator').length, 0);
  assert.equal(allLeaks([{ type: 'snapshot', you: '2', status: 'playing', history: [{ side: '1', action: 'NF+a1b1:keep' }] }], '2').length, 1);
});
