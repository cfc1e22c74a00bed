import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../src/client.ts';
import { Backoff } from '../../src/socket.ts';
import { FakeSocket, FakeTimers } from './fakes.ts';

function setup(token: string | null = null) {
  const timers = new FakeTimers();
  const sockets: FakeSocket[] = [];
  const store = new Map<string, string>();
  if (token) store.set('rainet.token', token);
  const c = new Client({
    url: 'ws://h/ws',
    create: (u) => { const s = new FakeSocket(u); sockets.push(s); return s; },
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    timers,
    backoff: new Backoff(100, 100, 2, () => 1),
    now: () => timers.now,
    random: () => 0.5,
  });
  const sent = (i = sockets.length - 1) => sockets[i].sent.map((s) => JSON.parse(s));
  const last = () => sockets[sockets.length - 1];
  return { c, timers, sockets, store, sent, last };
}

const SNAP = {
  type: 'snapshot', game: 'g1', v: 4, you: '2', status: 'playing', preset: 'standard', opponent: 'open', level: null,
  clock: null, clocks: null, players: { '1': { id: 'p1', name: 'a' }, '2': { id: 'p2', name: 'b' } },
  setup: { '1': true, '2': true }, links: ['a8', 'b8', 'c8', 'd7'],
  view: 'lll2xxx/3lx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0', history: [], draw_offer: null, grace: 6000, result: null,
};
const act = (v: number, ply: number, action: string, extra = {}) => ({
  type: 'event', game: 'g1', v, kind: 'action', ply, side: ply % 2 ? '2' : '1', action,
  view: `lll2xxx/3lx3/8/8/8/8/3XX3/XXX2XXX ${ply % 2 ? 1 : 2} CNcn -/- ${ply + 1} ${ply + 1}`, clocks: null, draw_offer: null, ...extra,
});

test('hello carries the stored token; welcome stores a new one; nothing else is sent before welcome', () => {
  const { c, sockets, store, sent } = setup('tok1');
  c.follow('g1');
  c.followLobby(true);
  c.start();
  sockets[0].open();
  assert.deepEqual(sent(), [{ type: 'hello', token: 'tok1' }]);
  sockets[0].receive({ type: 'welcome', token: 'tok2', player: { id: 'p2', name: 'b' }, games: [] });
  assert.equal(store.get('rainet.token'), 'tok2');
  assert.deepEqual(sent().slice(1), [{ type: 'watch', game: 'g1' }, { type: 'lobby_subscribe' }]);
  assert.equal(c.player?.id, 'p2');
});

test('snapshot then events: in order applied, duplicates ignored, a gap asks for a resume once', () => {
  const { c, sockets, sent, last } = setup();
  c.start();
  sockets[0].open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [] });
  c.follow('g1');
  last().receive(act(3, 0, 'x'));  // before the snapshot: ignored, no resume
  last().receive(SNAP);
  assert.equal(c.game('g1')?.v, 4);
  last().receive(act(5, 0, 'd2-d3'));
  last().receive(act(5, 0, 'd2-d3'));
  assert.equal(c.game('g1')?.history.length, 1);
  last().receive(act(7, 2, 'e2-e3'));
  last().receive(act(8, 3, 'e7-e6'));
  assert.equal(c.game('g1')?.v, 5, 'events after a gap are not applied');
  const resumes = sent().filter((m) => m.type === 'resume');
  assert.deepEqual(resumes, [{ type: 'resume', game: 'g1', v: 5 }], 'one resume per gap');
  // The server answers with the missed events.
  last().receive(act(6, 1, 'd7-d6', { legal: ['a1-a2'] }));
  last().receive(act(7, 2, 'e2-e3'));
  assert.equal(c.game('g1')?.v, 7);
  assert.deepEqual(c.game('g1')?.history.map((h) => h.action), ['d2-d3', 'd7-d6', 'e2-e3']);
  assert.equal(c.game('g1')?.legal, null, 'legal only with the events that carry it');
  // A snapshot replaces everything.
  last().receive({ ...SNAP, v: 20, history: [{ ply: 0, side: '1', action: 'a1-a2' }] });
  assert.equal(c.game('g1')?.v, 20);
  assert.equal(c.game('g1')?.history.length, 1);
});

test('reconnection: hello again, resume from the last version, unacknowledged requests resent with the same id', async () => {
  const { c, sockets, timers, sent, last } = setup();
  c.start();
  sockets[0].open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [] });
  c.follow('g1');
  last().receive(SNAP);
  last().receive({ type: 'chat', game: 'g1', channel: 'players', n: 3, from: { id: 'p1', name: 'a' }, side: '1', text: 'hi', at: 1 });
  const p = c.act('g1', 'a8-a7');
  const first = sent().find((m) => m.type === 'act');
  assert.equal(first.v, 4);
  sockets[0].drop();
  assert.equal(c.state, 'reconnecting');
  assert.equal(c.authenticated, false);
  const q = c.request({ type: 'resign', game: 'g1' }); // while down: waits
  timers.advance(100);
  assert.equal(sockets.length, 2);
  sockets[1].open();
  assert.deepEqual(sent(1), [{ type: 'hello', token: 't' }]);
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [] });
  const after = sent(1).slice(1);
  assert.deepEqual(after[0], { type: 'resume', game: 'g1', v: 4, chat: 3 }, 'and the chat lines after the last one seen');
  assert.deepEqual(after[1], first, 'the act is resent unchanged, same id');
  assert.equal(after[2].type, 'resign');
  last().receive({ type: 'ack', id: first.id, game: 'g1', v: 5 });
  last().receive({ type: 'error', id: after[2].id, code: 'wrong_status', message: 'no' });
  assert.equal((await p).v, 5);
  await assert.rejects(q, (e: any) => e.code === 'wrong_status');
  assert.equal(c.pendingCount, 0);
});

test('request ids are unique across clients (random prefix) and within one (counter)', () => {
  const a = setup(), b = setup();
  a.c.start(); a.sockets[0].open(); a.last().receive({ type: 'welcome', token: 't', player: null, games: [] });
  a.c.request({ type: 'x' }); a.c.request({ type: 'x' });
  const ids = a.sent().filter((m) => m.type === 'x').map((m) => m.id);
  assert.notEqual(ids[0], ids[1]);
  assert.match(ids[0], /^[a-z0-9]{10}-1$/);
  void b;
});

test('presence and lobby messages update the state; end event finishes the game', () => {
  const { c, sockets, last } = setup();
  c.start(); sockets[0].open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [] });
  c.follow('g1');
  last().receive(SNAP);
  last().receive({ type: 'presence', game: 'g1', side: '1', connected: false });
  assert.equal(c.game('g1')?.players['1']?.connected, false);
  last().receive({ type: 'lobby', games: [{ game: 'g9' }] });
  assert.deepEqual(c.lobby, [{ game: 'g9' }]);
  last().receive({ type: 'event', game: 'g1', v: 5, kind: 'end', result: '0-1', winner: '2', reason: 'resign', position: 'p', setups: { '1': [], '2': [] }, clocks: null });
  assert.equal(c.game('g1')?.status, 'finished');
  assert.equal(c.game('g1')?.result?.winner, '2');
});

test('rename: sent at once when connected, kept for the next hello, the ack updates the player', async () => {
  const { c, sockets, last, sent, store } = setup();
  c.start(); sockets[0].open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'guest-2' }, games: [] });
  const done = c.rename('Kurisu');
  const msg = sent().find((m) => m.type === 'rename');
  assert.equal(msg?.name, 'Kurisu');
  assert.equal(store.get('rainet.name'), 'Kurisu');
  last().receive({ type: 'ack', id: msg.id, player: { id: 'p2', name: 'Kurisu' } });
  await done;
  assert.equal(c.player?.name, 'Kurisu');
  assert.equal(sockets.length, 1, 'no reconnection');
});

test('login: the welcome answering it resolves it, is not resent, and every game starts again from a snapshot', async () => {
  const { c, sockets, store, sent, last } = setup();
  c.start(); sockets[0].open();
  last().receive({ type: 'welcome', token: 'guest', player: { id: 'p2', name: 'b', kind: 'guest', rating: 1500 }, games: [] });
  c.follow('g1');
  last().receive(SNAP);
  const p = c.login('alice', 'secret pw');
  const login = sent().find((m) => m.type === 'login');
  assert.deepEqual({ ...login, id: undefined }, { type: 'login', username: 'alice', password: 'secret pw', id: undefined });
  last().receive({ type: 'welcome', id: login.id, token: 'acct', player: { id: 'p7', name: 'alice', kind: 'account', rating: 1612 }, games: [] });
  const w = await p;
  assert.equal(w.player.id, 'p7');
  assert.equal(store.get('rainet.token'), 'acct');
  assert.equal(store.get('rainet.name'), 'alice');
  assert.equal(c.player?.rating, 1612);
  assert.equal(c.pendingCount, 0);
  const afterLogin = sent().slice(sent().findIndex((m) => m.id === login.id) + 1);
  assert.deepEqual(afterLogin, [{ type: 'watch', game: 'g1' }], 'a watch (not a resume): the role may have changed');
});

test('register updates the player; logout forgets the token and says hello again as a new guest', async () => {
  const { c, sockets, store, sent, last, timers } = setup('tok');
  c.start(); sockets[0].open();
  last().receive({ type: 'welcome', token: 'tok', player: { id: 'p2', name: 'guest-2', kind: 'guest', rating: 1500 }, games: [] });
  const r = c.register('bob', 'password1');
  const reg = sent().find((m) => m.type === 'register');
  last().receive({ type: 'ack', id: reg.id, player: { id: 'p2', name: 'bob', kind: 'account', rating: 1500 } });
  await r;
  assert.equal(c.player?.kind, 'account');
  assert.equal(store.get('rainet.name'), 'bob');
  const out = c.logout();
  const lo = sent().find((m) => m.type === 'logout');
  last().receive({ type: 'ack', id: lo.id });
  await out;
  assert.equal(store.get('rainet.token'), '');
  timers.advance(1000);
  last().open();
  assert.deepEqual(sent(sockets.length - 1), [{ type: 'hello' }], 'no token, no name');
});

test('an end event with ratings updates the players', () => {
  const { c, sockets, last } = setup();
  c.start(); sockets[0].open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [] });
  c.follow('g1');
  last().receive({ ...SNAP, rated: true, players: { '1': { id: 'p1', name: 'a', rating: 1500 }, '2': { id: 'p2', name: 'b', rating: 1500 } } });
  assert.equal(c.game('g1')?.rated, true);
  last().receive({ type: 'event', game: 'g1', v: 5, kind: 'end', result: '1-0', winner: '1', reason: 'resign', setups: { '1': [], '2': [] }, clocks: null,
    ratings: { '1': { before: 1500, after: 1662 }, '2': { before: 1500, after: 1338 } } });
  assert.equal(c.game('g1')?.players['1']?.rating, 1662);
  assert.equal(c.game('g1')?.players['2']?.rating, 1338);
  assert.equal(c.game('g1')?.result?.ratings?.['2'].after, 1338);
});

test('quick pairing: a waiting seek is sent again after a reconnection; matched names the game; chat lines reach the game', async () => {
  const { c, sockets, last, sent, timers } = setup();
  c.start(); sockets[0].open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [] });
  const kind = { preset: 'standard', clock: null, rated: true };
  const p = c.seek(kind);
  const first = sent().find((m) => m.type === 'seek');
  assert.deepEqual({ ...first, id: undefined }, { type: 'seek', ...kind, id: undefined });
  last().receive({ type: 'ack', id: first.id });
  await p;
  assert.deepEqual(c.seeking, kind);
  // The connection drops: the server forgot the seek, so the client seeks again.
  sockets[0].drop();
  timers.advance(1000);
  assert.equal(sockets.length, 2);
  last().open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [] });
  const again = sent().filter((m) => m.type === 'seek');
  assert.equal(again.length, 1, 'one new seek on the new connection');
  assert.notEqual(again[0].id, first.id);
  last().receive({ type: 'lobby', games: [], seeks: [{ preset: 'standard', clock: null, rated: true, players: 1 }] });
  assert.equal(c.lobbySeeks.length, 1);
  last().receive({ type: 'matched', game: 'g5', side: '2' });
  assert.equal(c.matched, 'g5');
  assert.equal(c.seeking, null);
  c.follow('g5');
  last().receive({ ...SNAP, game: 'g5' });
  last().receive({ type: 'spectators', game: 'g5', count: 3 });
  assert.equal(c.game('g5')?.spectators, 3);
  last().receive({ type: 'chat', game: 'g5', channel: 'players', from: { id: 'p1', name: 'a' }, side: '1', text: 'hello', at: 1 });
  assert.deepEqual(c.game('g5')?.chat.map((l) => `${l.from.name}: ${l.text}`), ['a: hello']);
});

test('notifications: the unread count from welcome, live ones, the inbox page and marking read', async () => {
  const { c, sockets, sent, last } = setup();
  c.start();
  sockets[0].open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [], unread: 2 });
  assert.equal(c.unread, 2);
  const seen: number[] = [];
  c.onNotification((n) => seen.push(n.id));
  const n7 = { id: 7, kind: 'followed', at: 5, read: false, data: { by: { id: 'p1', name: 'a' } } };
  last().receive({ type: 'notification', n: n7, unread: 3 });
  assert.equal(c.unread, 3);
  assert.deepEqual(seen, [7]);
  const page = c.loadInbox();
  const req = sent().at(-1);
  assert.equal(req.type, 'notifications');
  last().receive({ type: 'notifications', id: req.id, items: [n7], unread: 3 });
  assert.deepEqual((await page).map((n) => n.id), [7]);
  assert.equal(c.inbox?.length, 1);
  const read = c.markAllRead();
  const mark = sent().at(-1);
  assert.deepEqual({ type: mark.type, upTo: mark.upTo }, { type: 'notifications_read', upTo: 7 });
  last().receive({ type: 'ack', id: mark.id });
  await read;
  assert.equal(c.unread, 0);
  assert.equal(c.inbox?.[0].read, true);
  // Read on another tab: the count follows.
  last().receive({ type: 'unread', unread: 4 });
  assert.equal(c.unread, 4);
});

test('tournaments: followed again after a reconnection; their states and games kept; the list; berserk remembered', async () => {
  const { c, sockets, timers, sent, last } = setup();
  c.start();
  sockets[0].open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [] });
  c.watchTournament('t1');
  c.watchTournament('t1'); // once
  c.listTournaments();
  assert.deepEqual(sent().slice(1), [{ type: 'tournament_watch', tournament: 't1' }, { type: 'tournaments' }]);
  const info = { id: 't1', name: 'Arena', format: 'arena', status: 'running', preset: 'standard', clock: { initial: 18000, increment: 200 }, rated: true, bots: false, startsAt: 0, endsAt: 1, players: 2 };
  const entry = (id: string, game: string | null) => ({ rank: 1, player: { id, name: id }, points: 0, performance: 0, games: 0, fire: false, berserks: 0, state: 'active', sheet: [], game });
  last().receive({ type: 'tournament', tournament: info, now: Date.now() + 5000, standings: [entry('p2', 'g9'), entry('p1', 'g9')] });
  last().receive({ type: 'tournament', tournament: { ...info, id: 'tX' }, now: 0, standings: [entry('p2', 'g8')] }); // not followed: ignored
  last().receive({ type: 'tournaments', tournaments: [info] });
  assert.equal(c.tournaments.get('t1')?.standings.length, 2);
  assert.ok(Math.abs(c.tournaments.get('t1')!.skew - 5000) < 1000, 'the server clock\'s lead');
  assert.equal(c.tournaments.has('tX'), false);
  assert.equal(c.tournamentGames.get('g9'), 't1');
  assert.equal(c.tournamentGames.has('g8'), false);
  assert.deepEqual(c.tournamentList?.map((x) => x.id), ['t1']);
  // The game ends: the standings no longer name it, but it is still known as the tournament's.
  last().receive({ type: 'tournament', tournament: info, now: 0, standings: [entry('p2', null), entry('p1', null)] });
  assert.equal(c.tournamentGames.get('g9'), 't1');
  sockets[0].drop();
  timers.advance(100);
  sockets[1].open();
  last().receive({ type: 'welcome', token: 't', player: { id: 'p2', name: 'b' }, games: [] });
  assert.deepEqual(sent(1).slice(1), [{ type: 'tournament_watch', tournament: 't1' }]);
  // Berserk: the ack marks the game; unwatching forgets the state and tells the server.
  const b = c.berserk('g9');
  const req = sent(1).find((m) => m.type === 'berserk');
  assert.equal(req.game, 'g9');
  last().receive({ type: 'ack', id: req.id });
  await b;
  assert.ok(c.berserked.has('g9'));
  c.unwatchTournament('t1');
  assert.equal(c.tournaments.has('t1'), false);
  assert.deepEqual(sent(1).at(-1), { type: 'tournament_unwatch', tournament: 't1' });
});
