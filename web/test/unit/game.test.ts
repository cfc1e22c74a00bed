import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addChat, applyEvent, CHAT_KEPT, claimableAt, clockLeft, formatClock, fromSnapshot, lastChat } from '../../src/game.ts';
import type { ChatMessage, GameEvent, SnapshotMessage } from '../../src/protocol.gen.ts';

// Fixtures hold only what a test needs (and unknown kinds): typed as messages at the call.
const ev = (e: object) => e as GameEvent;
const snapshot = (m: object) => m as SnapshotMessage;

const base = {
  type: 'snapshot', game: 'g1', v: 0, you: '1', status: 'open', preset: 'standard', opponent: 'open', level: null,
  clock: { initial: 6000, increment: 100 }, clocks: null, players: { '1': { id: 'p1', name: 'a' }, '2': null },
  setup: { '1': false, '2': false }, view: null, history: [], draw_offer: null, grace: 6000, result: null,
};

test('events drive a game from open to finished', () => {
  let s = fromSnapshot(snapshot(base), 0);
  assert.equal(s.status, 'open');
  s = applyEvent(s, ev({ v: 1, kind: 'joined', side: '2', player: { id: 'p2', name: 'b' } }), 0);
  assert.equal(s.status, 'setup');
  assert.equal(s.players['2']?.name, 'b');
  s = applyEvent(s, ev({ v: 2, kind: 'setup', side: '1', links: ['a1', 'b1', 'c1', 'd2'] }), 0);
  s = applyEvent(s, ev({ v: 3, kind: 'setup', side: '2' }), 0);
  assert.deepEqual(s.setup, { '1': true, '2': true });
  assert.deepEqual(s.links, ['a1', 'b1', 'c1', 'd2']);
  s = applyEvent(s, ev({ v: 4, kind: 'start', view: 'V', legal: ['a1-a2'], clocks: { '1': 6000, '2': 6000, running: '1' } }), 100);
  assert.equal(s.status, 'playing');
  assert.deepEqual(s.legal, ['a1-a2']);
  s = applyEvent(s, ev({ v: 5, kind: 'draw_offer', side: '1' }), 100);
  assert.equal(s.drawOffer, '1');
  s = applyEvent(s, ev({ v: 6, kind: 'action', ply: 0, side: '1', action: 'a1-a2', view: 'W', clocks: { '1': 5900, '2': 6000, running: '2' }, draw_offer: null }), 200);
  assert.equal(s.legal, null);
  assert.equal(s.drawOffer, null);
  assert.equal(s.history[0].action, 'a1-a2');
  s = applyEvent(s, ev({ v: 7 }), 200);
  assert.equal(s.v, 7, 'an event hidden from this role only advances the version');
  s = applyEvent(s, ev({ v: 8, kind: 'surprise' }), 200);
  assert.equal(s.v, 8, 'unknown kinds are ignored');
  s = applyEvent(s, ev({ v: 9, kind: 'end', result: '1-0', winner: '1', reason: 'four_links', position: 'P', setups: { '1': [], '2': [] }, clocks: null }), 300);
  assert.equal(s.status, 'finished');
  assert.deepEqual([s.result!.winner, s.result!.reason], ['1', 'four_links']);
  const ab = applyEvent(s, ev({ v: 10, kind: 'end', result: null, winner: null, reason: 'aborted' }), 0);
  assert.equal(ab.status, 'aborted');
});

test('abortable: as the server says, from the snapshot, the action that ends it, and the end', () => {
  assert.equal(fromSnapshot(snapshot(base), 0).abortable, false, 'absent (a spectator): not abortable');
  let s = fromSnapshot(snapshot({ ...base, status: 'playing', abortable: true }), 0);
  assert.equal(s.abortable, true);
  s = applyEvent(s, ev({ v: 1, kind: 'action', ply: 0, side: '1', action: 'a1-a2', view: 'W', clocks: null, draw_offer: null }), 0);
  assert.equal(s.abortable, true, 'an action without the field leaves it');
  s = applyEvent(s, ev({ v: 2, kind: 'action', ply: 1, side: '2', action: 'a8-a7', view: 'X', abortable: false, clocks: null, draw_offer: null }), 0);
  assert.equal(s.abortable, false);
  const early = fromSnapshot(snapshot({ ...base, status: 'setup', abortable: true }), 0);
  assert.equal(applyEvent(early, ev({ v: 1, kind: 'end', result: null, winner: null, reason: 'aborted', setups: { '1': [], '2': [] }, clocks: null }), 0).abortable, false);
});

test('the running clock counts down locally; formatting', () => {
  let s = fromSnapshot(snapshot({ ...base, status: 'playing', clocks: { '1': 3000, '2': 2000, running: '2' } }), 1000);
  assert.equal(clockLeft(s, '2', 1500), 1950);
  assert.equal(clockLeft(s, '1', 1500), 3000);
  assert.equal(clockLeft(s, '2', 1e9), 0);
  s = { ...s, clocks: null };
  assert.equal(clockLeft(s, '1', 0), null);
  assert.equal(formatClock(30000), '5:00');
  assert.equal(formatClock(6150), '1:02');
  assert.equal(formatClock(950), '9.5');
  assert.equal(formatClock(360000), '1:00:00');
});

test('rematch offers, refusals and agreement after the end', () => {
  let s = fromSnapshot(snapshot({ ...base, status: 'finished', result: { result: '1-0', winner: '1', reason: 'resign' }, rematch: { offer: '2', next_game: null } }), 0);
  assert.deepEqual(s.rematch, { offer: '2', next: null }, 'a snapshot carries a pending offer');
  s = applyEvent(s, ev({ v: 1, kind: 'rematch_decline', side: '1' }), 0);
  assert.deepEqual(s.rematch, { offer: null, next: null });
  s = applyEvent(s, ev({ v: 2, kind: 'rematch_offer', side: '1' }), 0);
  assert.equal(s.rematch.offer, '1');
  s = applyEvent(s, ev({ v: 3, kind: 'rematch', next_game: 'g7' }), 0);
  assert.deepEqual(s.rematch, { offer: null, next: 'g7' });
  assert.equal(s.status, 'finished', 'the ended game stays ended');
  assert.deepEqual(fromSnapshot(snapshot(base), 0).rematch, { offer: null, next: null }, 'no rematch field before the end');
});

test('chat lines: from the snapshot, then appended, the oldest dropped past the limit', () => {
  let s = fromSnapshot(snapshot({ ...base, chat: [{ channel: 'players', from: { id: 'p1', name: 'a' }, side: '1', text: 'hi', at: 5 }] }), 0);
  assert.deepEqual(s.chat.map((l) => l.text), ['hi']);
  assert.equal(s.chat[0].side, '1');
  const v = s.v;
  for (let i = 0; i < CHAT_KEPT + 5; i++) s = addChat(s, { type: 'chat', game: 'g1', channel: 'players', from: { id: 'p2', name: 'b' }, side: '2', text: `m${i}`, at: i } as ChatMessage);
  assert.equal(s.chat.length, CHAT_KEPT);
  assert.equal(s.chat.at(-1)?.text, `m${CHAT_KEPT + 4}`);
  assert.equal(s.v, v, 'chat does not move the version');
  assert.deepEqual(fromSnapshot(snapshot(base), 0).chat, []);
});

test('chat lines sent again after a resume are shown once; the last number is what resume asks after', () => {
  const line = (n: number): ChatMessage => ({ type: 'chat', game: 'g1', channel: 'players', n, from: { id: 'p2', name: 'b' }, side: '2', text: `m${n}`, at: n });
  let s = fromSnapshot(snapshot({ ...base, chat: [line(1), line(2)] }), 0);
  assert.equal(lastChat(s), 2);
  s = addChat(s, line(2));
  s = addChat(s, line(3));
  s = addChat(s, line(3));
  assert.deepEqual(s.chat.map((l) => l.n), [1, 2, 3]);
  assert.equal(lastChat(s), 3);
  assert.equal(lastChat(fromSnapshot(snapshot(base), 0)), 0);
});

test('the moment a disconnected opponent may be claimed against', () => {
  const snap = { ...base, status: 'playing', grace: 6000, players: { '1': { id: 'p1', name: 'a', connected: true }, '2': { id: 'p2', name: 'b', connected: false, away: 1000 } } };
  const s = fromSnapshot(snapshot(snap), 50000);
  assert.equal(s.players['2']?.awaySince, 40000, 'away 10 s before the snapshot arrived');
  assert.equal(claimableAt(s, '2'), 40000 + 60000);
  assert.equal(claimableAt(s, '1'), null, 'connected');
  assert.equal((s.players['2'] as any).away, undefined, 'the relative field is not kept');
});

test('views after each ply are kept for browsing; a declined draw is remembered until the next action', () => {
  let s = fromSnapshot(snapshot({ ...base, status: 'playing', view: 'V0', history: [{ ply: 0, side: '1', action: 'a1-a2' }] }), 0);
  assert.deepEqual([...s.views.keys()].filter((i) => s.views[i]), [1], 'a snapshot gives the current view only');
  s = applyEvent(s, ev({ v: s.v + 1, kind: 'action', ply: 1, side: '2', action: 'h8-h7', view: 'V1' }), 0);
  s = applyEvent(s, ev({ v: s.v + 1, kind: 'draw_offer', side: '1' }), 0);
  s = applyEvent(s, ev({ v: s.v + 1, kind: 'draw_decline', side: '2' }), 0);
  assert.deepEqual([s.drawOffer, s.drawDeclined], [null, '2']);
  s = applyEvent(s, ev({ v: s.v + 1, kind: 'action', ply: 2, side: '1', action: 'a2-a3', view: 'V2' }), 0);
  assert.equal(s.drawDeclined, null);
  assert.deepEqual([s.views[1], s.views[2], s.views[3]], ['V0', 'V1', 'V2']);
});
