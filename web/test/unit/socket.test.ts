import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, ReconnectingSocket, VersionTracker, type ConnState } from '../../src/socket.ts';
import { FakeSocket, FakeTimers } from './fakes.ts';

test('backoff grows exponentially, is capped, has jitter, and resets', () => {
  const b = new Backoff(100, 1000, 2, () => 1);
  assert.deepEqual([b.next(), b.next(), b.next(), b.next(), b.next(), b.next()], [100, 200, 400, 800, 1000, 1000]);
  b.reset();
  assert.equal(b.next(), 100);
  const half = new Backoff(100, 1000, 2, () => 0);
  assert.equal(half.next(), 50);
});

test('version tracker: in-order events apply, duplicates are ignored, gaps are reported', () => {
  const v = new VersionTracker();
  assert.equal(v.accept(1), 'gap', 'nothing applies before a snapshot');
  v.reset(3);
  assert.equal(v.accept(4), 'apply');
  assert.equal(v.accept(4), 'duplicate');
  assert.equal(v.accept(2), 'duplicate');
  assert.equal(v.accept(6), 'gap');
  assert.equal(v.version, 4, 'a gap does not advance the version');
  assert.equal(v.accept(5), 'apply');
  assert.equal(v.accept(6), 'apply');
  v.forget();
  assert.equal(v.synced, false);
});

function harness(idleTimeout = 0) {
  const timers = new FakeTimers();
  const sockets: FakeSocket[] = [];
  const states: ConnState[] = [];
  const messages: any[] = [];
  const opens: boolean[] = [];
  let version = 0;
  const rs = new ReconnectingSocket({
    url: () => `ws://x/ws?v=${version}`,
    create: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    timers,
    backoff: new Backoff(100, 800, 2, () => 1),
    onMessage: (m) => messages.push(m),
    onState: (s) => states.push(s),
    onOpen: (re) => opens.push(re),
    idleTimeout,
  });
  return { timers, sockets, states, messages, opens, rs, setVersion: (v: number) => (version = v) };
}

test('connects, delivers JSON messages, ignores non-JSON', () => {
  const h = harness();
  h.rs.start();
  assert.equal(h.sockets.length, 1);
  assert.equal(h.rs.state, 'connecting');
  h.sockets[0].open();
  assert.equal(h.rs.state, 'open');
  h.sockets[0].receive({ t: 'hello' });
  h.sockets[0].receive('not json{');
  assert.deepEqual(h.messages, [{ t: 'hello' }]);
  assert.deepEqual(h.opens, [false]);
});

test('reconnects with growing delays after drops and resets the backoff once open', () => {
  const h = harness();
  h.rs.start();
  h.sockets[0].open();
  h.setVersion(7);
  h.sockets[0].drop();
  assert.equal(h.rs.state, 'reconnecting');
  h.timers.advance(99);
  assert.equal(h.sockets.length, 1, 'waits the backoff delay');
  h.timers.advance(1);
  assert.equal(h.sockets.length, 2);
  assert.equal(h.sockets[1].url, 'ws://x/ws?v=7', 'the URL is computed again at each attempt');
  h.sockets[1].drop(); // refused
  h.timers.advance(199);
  assert.equal(h.sockets.length, 2);
  h.timers.advance(1);
  assert.equal(h.sockets.length, 3);
  h.sockets[2].drop();
  h.timers.advance(400);
  assert.equal(h.sockets.length, 4);
  h.sockets[3].open();
  assert.deepEqual(h.opens, [false, true]);
  assert.equal(h.rs.state, 'open');
  h.sockets[3].drop();
  h.timers.advance(100);
  assert.equal(h.sockets.length, 5, 'backoff was reset by the successful open');
  assert.ok(h.states.includes('reconnecting'));
});

test('messages sent while down are queued and flushed in order after onOpen', () => {
  const h = harness();
  h.rs.start();
  h.rs.send({ n: 1 });
  h.sockets[0].open();
  h.rs.send({ n: 2 });
  h.sockets[0].drop();
  h.rs.send({ n: 3 });
  h.timers.advance(100);
  h.sockets[1].open();
  assert.deepEqual(h.sockets[0].sent, ['{"n":1}', '{"n":2}']);
  assert.deepEqual(h.sockets[1].sent, ['{"n":3}']);
});

test('stop closes for good; late events of old sockets are ignored', () => {
  const h = harness();
  h.rs.start();
  h.sockets[0].open();
  h.rs.stop();
  assert.equal(h.sockets[0].closed, true);
  assert.equal(h.rs.state, 'closed');
  h.timers.advance(10000);
  assert.equal(h.sockets.length, 1);
});

test('reconnectNow replaces the socket at once and ignores the old one', () => {
  const h = harness();
  h.rs.start();
  h.sockets[0].open();
  h.rs.reconnectNow();
  assert.equal(h.sockets.length, 2);
  assert.equal(h.sockets[0].closed, true);
  h.sockets[0].receive({ stale: true });
  h.sockets[1].open();
  h.sockets[1].receive({ fresh: true });
  assert.deepEqual(h.messages, [{ fresh: true }]);
});

test('a silent connection is dropped after the idle timeout and reconnected', () => {
  const h = harness(1000);
  h.rs.start();
  h.sockets[0].open();
  h.timers.advance(900);
  h.sockets[0].receive({ ping: 1 });
  h.timers.advance(900);
  assert.equal(h.sockets.length, 1, 'a message resets the idle timer');
  h.timers.advance(100);
  assert.equal(h.sockets[0].closed, true);
  h.timers.advance(100);
  assert.equal(h.sockets.length, 2);
});
