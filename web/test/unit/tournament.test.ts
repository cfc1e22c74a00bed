import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StandingEntry, TournamentInfo, TournamentMessage } from '../../src/protocol.gen.ts';
import { canBerserk, countdownTarget, featured, formatCountdown, groupTournaments, podium, sheetMarks, standingOf } from '../../src/tournament.ts';

function info(id: string, status: string, extra: Partial<TournamentInfo> = {}): TournamentInfo {
  return { id, name: id, format: 'arena', status, preset: 'standard', clock: { initial: 18000, increment: 200 }, rated: true, bots: false,
    startsAt: 1000, endsAt: 601000, players: 0, ...extra };
}
function entry(id: string, rank: number, points: number, extra: Partial<StandingEntry> = {}): StandingEntry {
  return { rank, player: { id, name: id }, points, performance: 1500, games: 1, fire: false, berserks: 0, state: 'active', sheet: [points], game: null, ...extra };
}
function state(status: string, standings: StandingEntry[]): TournamentMessage {
  return { type: 'tournament', tournament: info('t1', status), now: 0, standings };
}

test('the list splits by status, keeping the server order', () => {
  const g = groupTournaments([info('r', 'running'), info('c1', 'created'), info('c2', 'created'), info('f', 'finished')]);
  assert.deepEqual(g.running.map((x) => x.id), ['r']);
  assert.deepEqual(g.created.map((x) => x.id), ['c1', 'c2']);
  assert.deepEqual(g.finished.map((x) => x.id), ['f']);
});

test('the countdown counts to the start, then to the end, then nothing', () => {
  assert.equal(countdownTarget(info('a', 'created')), 1000);
  assert.equal(countdownTarget(info('a', 'running')), 601000);
  assert.equal(countdownTarget(info('a', 'finished')), null);
  assert.equal(formatCountdown(59_001), '1:00');
  assert.equal(formatCountdown(61_000), '1:01');
  assert.equal(formatCountdown(3_600_000 + 5_000), '1:00:05');
  assert.equal(formatCountdown(-5), '0:00');
});

test('the home page features a running tournament before an upcoming one', () => {
  assert.equal(featured(null), null);
  assert.equal(featured([info('f', 'finished')]), null);
  assert.equal(featured([info('c', 'created'), info('r', 'running')])?.id, 'r');
  assert.equal(featured([info('f', 'finished'), info('c', 'created')])?.id, 'c');
});

test('the podium is the first three who played, once finished', () => {
  const s = [entry('a', 1, 6), entry('b', 2, 4), entry('c', 3, 2), entry('d', 4, 0), entry('e', 5, 0, { games: 0 })];
  assert.deepEqual(podium(state('running', s)), []);
  assert.deepEqual(podium(state('finished', s)).map((e) => e.player.id), ['a', 'b', 'c']);
  assert.deepEqual(podium(state('finished', [entry('a', 1, 2), entry('z', 2, 0, { games: 0 })])).map((e) => e.player.id), ['a']);
});

test('the sheet marks the results earned on a streak', () => {
  // win, win, doubled win, doubled draw (ends the streak), win, berserked win, doubled loss.
  assert.deepEqual(sheetMarks([2, 2, 4, 2, 2, 3, 0]).map((m) => `${m.points}${m.streak ? '*' : ''}`), ['2', '2', '4*', '2*', '2', '3', '0*']);
  assert.deepEqual(sheetMarks([1, 2, 0, 2]).map((m) => m.streak), [false, false, false, false]);
});

test('a player\'s standing, or none', () => {
  const s = state('running', [entry('a', 1, 2, { game: 'g1' }), entry('b', 2, 0, { game: 'g1' })]);
  assert.equal(standingOf(s, 'a')?.points, 2);
  assert.equal(standingOf(s, 'x'), null);
  assert.equal(standingOf(undefined, 'a'), null);
  assert.equal(standingOf(s, undefined), null);
});

test('berserk is open in setup and before the own first action only', () => {
  const g = (status: string, you: string, sides: string[]) => ({ status, you, history: sides.map((side) => ({ side })) });
  assert.equal(canBerserk(g('setup', '1', []), false), true);
  assert.equal(canBerserk(g('playing', '2', ['1']), false), true);
  assert.equal(canBerserk(g('playing', '1', ['1']), false), false);
  assert.equal(canBerserk(g('playing', '1', []), true), false);
  assert.equal(canBerserk(g('setup', 'spectator', []), false), false);
  assert.equal(canBerserk(g('finished', '1', []), false), false);
});
