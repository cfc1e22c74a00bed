// End to end, through the UI only: claiming a win from a player who left, an official-preset game
// against the computer played to the end (then a rematch of it), and changing one's name without
// reconnecting. The server runs with a 6-second grace period so that a claim can be shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Side } from '../../src/view.ts';
import { allLeaks } from './leaks.ts';
import { chooseAction, gameIdOf, play, Player, seeded, useServerAndBrowser, waitTurn } from './harness.ts';

const GRACE_S = 6;
const env = useServerAndBrowser(['--grace', String(GRACE_S)]);
const players = env.players;

async function open(name: string, path = '/'): Promise<Player> {
  const p = await Player.open(env.browser, name, `${env.server.url}${path}`);
  players.push(p);
  return p;
}

test('a player whose opponent left can claim the win after the grace period', async () => {
  const henry = await open('henry');
  await henry.page.check('[data-field="opponent-invite"]');
  await henry.page.check('[data-field="side-1"]');
  await henry.page.click('[data-action="create"]');
  await henry.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(henry.page);
  const ivan = await open('ivan', `/game/${id}`);
  await ivan.page.click('[data-action="join"]');
  for (const p of [henry, ivan]) {
    await p.page.waitForSelector('[data-action="setup-confirm"]');
    await p.page.click('[data-action="setup-random"]');
    await p.page.click('[data-action="setup-confirm"]');
  }
  await waitTurn(henry, id);
  await play(henry, id, (await henry.game(id)).legal.find((a: string) => /^[a-h]\d-[a-h]\d$/.test(a)), 1);
  // Ivan closes his browser.
  await ivan.ctx.close();
  await henry.page.waitForSelector('[data-offline="2"]');
  await henry.page.waitForSelector('[data-action="claim"]');
  // Too early: the button counts the grace period down and cannot be pressed yet.
  assert.match((await henry.page.textContent('[data-action="claim"]')) ?? '', /^Claim win in [1-6] s$/);
  assert.equal(await henry.page.isDisabled('[data-action="claim"]'), true);
  await henry.shot('claim-countdown');
  // A reload keeps the countdown (the snapshot says how long the seat has been empty).
  await henry.page.reload();
  await henry.page.waitForSelector('[data-action="claim"][disabled]');
  assert.equal((await henry.game(id)).status, 'playing');
  await henry.page.waitForSelector('[data-action="claim"]:not([disabled])', { timeout: (GRACE_S + 3) * 1000 });
  assert.equal(await henry.page.textContent('[data-action="claim"]'), 'Claim win');
  await henry.page.click('[data-action="claim"]');
  await henry.page.waitForSelector('[data-overlay="end"]');
  assert.match((await henry.page.textContent('[data-overlay="end"] .result')) ?? '', /You win/);
  assert.match((await henry.page.textContent('[data-overlay="end"] .reason')) ?? '', /^Ivan left the game\.$/i);
  const end = await henry.game(id);
  assert.equal(end.result.reason, 'abandoned');
  assert.equal(end.result.winner, '1');
});

test('an official-preset game against the computer is played to the end, then a rematch starts with the sides swapped', async () => {
  const jane = await open('jane');
  await jane.page.check('[data-field="opponent-computer"]');
  await jane.page.check('[data-field="preset-official"]');
  await jane.page.check('[data-field="level-1"]');
  await jane.page.check('[data-field="side-1"]');
  await jane.page.click('[data-action="create"]');
  await jane.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(jane.page);
  await jane.page.click('[data-action="setup-random"]');
  await jane.page.click('[data-action="setup-confirm"]');
  await jane.page.waitForSelector('[data-status="playing"]', { timeout: 30000 });
  assert.match((await jane.page.textContent('[data-info]')) ?? '', /^official ·/);
  assert.equal((await jane.game(id)).preset, 'official');
  const me: Side = 1;
  const rnd = seeded(23);
  let plies = 0;
  for (; plies < 400; plies++) {
    const s = await waitTurn(jane, id, 60000);
    if (s.status !== 'playing') break;
    await play(jane, id, chooseAction(s.view, s.legal, me, rnd), me);
  }
  await jane.page.waitForSelector('[data-overlay="end"]', { timeout: 60000 });
  await jane.shot('official-computer-end');
  const end = await jane.game(id);
  assert.ok(['four_links', 'four_viruses', 'no_progress'].includes(end.result.reason), `ended by the rules: ${end.result.reason}`);
  assert.deepEqual(allLeaks(jane.messages(), '1'), []);
  // The archive has it as an official game.
  const record = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.equal(record.preset, 'official');
  assert.match(record.record, /\[Preset "official"\]/);

  // Rematch against the computer: at once, jane on side 2 now, same preset and level.
  await jane.page.click('[data-overlay="end"] [data-action="rematch"]');
  await jane.page.waitForURL((u) => /\/game\/[A-Za-z0-9]+$/.test(u.pathname) && !u.pathname.endsWith(`/${id}`));
  await jane.page.waitForSelector('[data-status="setup"][data-you="2"]');
  const next = await jane.game(gameIdOf(jane.page));
  assert.equal(next.preset, 'official');
  assert.equal(next.opponent, 'computer');
  assert.equal(next.level, 1);
  assert.equal(next.players['1'].bot, true);
});

test('changing one\'s name takes effect without reconnecting', async () => {
  const kate = await open('kate', '/account');
  await kate.page.waitForSelector('[data-conn="online"]');
  const sockets = kate.sockets;
  await kate.page.fill('[data-field="name"]', 'Daru');
  await kate.page.press('[data-field="name"]', 'Enter');
  await kate.page.waitForFunction(() => (window as any).rainet.client.player?.name === 'Daru');
  assert.equal(kate.sockets, sockets, 'the same connection');
  assert.equal(new URL(kate.page.url()).pathname, '/account', 'Enter in the name field only saves the name');
  // New games show the new name, also to others.
  await kate.page.click('a.logo');
  await kate.page.waitForSelector('[data-field="opponent-open"]');
  await kate.page.check('[data-field="opponent-open"]');
  await kate.page.click('[data-action="create"]');
  await kate.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(kate.page);
  const leo = await open('leo', `/game/${id}`);
  await leo.page.waitForSelector('[data-status="open"]');
  const snap = await leo.game(id);
  const creator = snap.players['1'] ?? snap.players['2'];
  assert.equal(creator.name, 'Daru');
  // And a reload keeps it (it is stored, and sent again with hello).
  await kate.page.reload();
  await kate.page.waitForSelector('[data-conn="online"]');
  await kate.page.waitForFunction(() => (window as any).rainet.client.player?.name === 'Daru');
});

test('quick pairing puts two players in one game; players and spectators chat in separate rooms', async () => {
  const mia = await open('mia');
  const ned = await open('ned');
  // Mia seeks a 3+2 official game; Ned sees it waiting in the lobby and takes it.
  await mia.page.check('[data-field="preset-official"]');
  await mia.page.selectOption('[data-field="clock"]', '3+2');
  await mia.page.click('[data-action="seek"]');
  await mia.page.waitForSelector('[data-seeking]');
  await ned.page.waitForSelector('[data-seek-join="0"]');
  assert.match((await ned.page.textContent('[data-seek-pool="0"]')) ?? '', /1 waiting.*official · 3\+2/);
  await ned.shot('quick-pairing-lobby');
  await ned.page.click('[data-seek-join="0"]');
  for (const p of [mia, ned]) await p.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(mia.page);
  assert.equal(gameIdOf(ned.page), id, 'both players are in the same game');
  await mia.page.waitForSelector('[data-status="setup"]');
  const [sm, sn] = [await mia.game(id), await ned.game(id)];
  assert.notEqual(sm.you, sn.you, 'one player on each side');
  assert.equal(sm.preset, 'official');
  assert.deepEqual(sm.clock, { initial: 18000, increment: 200 });

  // Chat: the players talk; a spectator talks with spectators only.
  const olga = await open('olga', `/game/${id}`);
  await olga.page.waitForSelector('[data-chat="spectators"]');
  await mia.page.waitForSelector('[data-spectators="1"]');
  assert.match((await mia.page.textContent('[data-info]')) ?? '', /1 watching/);
  await mia.page.fill('[data-chat-input]', 'good luck!');
  await mia.page.press('[data-chat-input]', 'Enter');
  await ned.page.waitForSelector('[data-chat-log] >> text=good luck!');
  await mia.page.waitForSelector('[data-chat-log] >> text=good luck!');
  assert.equal(await mia.page.inputValue('[data-chat-input]'), '', 'the box is emptied once sent');
  // A half-typed line survives the page redrawing on an event.
  await ned.page.fill('[data-chat-input]', 'thanks, you t');
  await mia.page.click('[data-action="setup-random"]');
  await mia.page.click('[data-action="setup-confirm"]');
  await ned.page.waitForSelector(`[data-ready="${sm.you}-yes"]`);
  assert.equal(await ned.page.inputValue('[data-chat-input]'), 'thanks, you t');
  assert.equal(await ned.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset?.chatInput !== undefined), true, 'and keeps the focus');
  await olga.page.fill('[data-chat-input]', 'who will win?');
  await olga.page.click('[data-action="chat-send"]');
  await olga.page.waitForSelector('[data-chat-log] >> text=who will win?');
  await ned.shot('chat-player');
  await olga.shot('chat-spectator');
  const chats = (p: Player) => p.messages().filter((m) => m.type === 'chat').map((m) => `${m.channel}:${m.text}`);
  assert.deepEqual(chats(olga), ['spectators:who will win?'], 'the spectator never receives the players\' lines');
  assert.deepEqual(chats(mia), ['players:good luck!'], 'the players never receive the spectators\' lines');
  assert.equal((await olga.page.textContent('[data-chat-log]'))?.includes('good luck'), false);
});
