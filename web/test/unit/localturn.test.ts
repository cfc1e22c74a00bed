// Pass and play: whose player must hold the device.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromSnapshot } from '../../src/game.ts';
import { dueSide, latest } from '../../src/localturn.ts';
import type { SnapshotMessage } from '../../src/protocol.gen.ts';

// Fixtures hold only what a test needs (and unknown kinds): typed as messages at the call.
const snapshot = (m: object) => m as SnapshotMessage;

const board = 'vvvvvvvv/8/8/8/8/8/8/LLLLLLLL';
const snap = (over: Record<string, unknown>) => fromSnapshot(snapshot({ game: 'g1', v: 1, you: '1', status: 'setup', ...over }), 0);

test('setup: side 1 first, then side 2; play: the side to move; the end; nothing while a seat is free', () => {
  assert.equal(dueSide(snap({ status: 'open' })), null);
  assert.equal(dueSide(snap({ setup: { '1': false, '2': false } })), '1');
  assert.equal(dueSide(snap({ setup: { '1': false, '2': true } })), '1');
  assert.equal(dueSide(snap({ setup: { '1': true, '2': false } })), '2');
  assert.equal(dueSide(snap({ status: 'playing', view: `${board} 1 CNcn -/- 0 0` })), '1');
  assert.equal(dueSide(snap({ status: 'playing', view: `${board} 2 CNcn -/- 0 1` })), '2');
  assert.equal(dueSide(snap({ status: 'finished' })), 'end');
  assert.equal(dueSide(snap({ status: 'aborted' })), 'end');
});

test('of the two seats, the copy that has seen more of the game counts', () => {
  const a = snap({ v: 3 }), b = snap({ v: 4, you: '2' });
  assert.equal(latest(a, b), b);
  assert.equal(latest(b, a), b);
  assert.equal(latest(null, a), a);
  assert.equal(latest(null, null), null);
});
