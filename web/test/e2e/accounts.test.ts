// End to end, through the UI: two players register accounts in their browsers, play a rated game
// (one resigns), and both see their ratings change on the game screen and in the leaderboard; one
// of them logs in from a second browser context and finds the same player, name and games. A bot
// account (`rainet bot`) joins a game and is marked BOT.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, gameIdOf, Player, useServerAndBrowser } from './harness.ts';

const env = useServerAndBrowser();
const players = env.players;

// The account box is on the account page (/account), linked from the header.
async function open(name: string, path = '/account'): Promise<Player> {
  const p = await Player.open(env.browser, name, `${env.server.url}${path}`);
  players.push(p);
  return p;
}

async function me(p: Player): Promise<any> {
  return p.page.evaluate(() => (window as any).rainet.client.player);
}

async function account(p: Player, action: 'register' | 'login', username: string, password: string): Promise<void> {
  await p.page.fill('[data-field="account-username"]', username);
  await p.page.fill('[data-field="account-password"]', password);
  await p.page.click(`[data-action="${action}"]`);
  await p.page.waitForSelector('[data-account="account"]', { timeout: 20000 });
}

async function text(p: Player, selector: string): Promise<string> {
  return ((await p.page.textContent(selector)) ?? '').trim();
}

test('accounts: register, play a rated game, ratings change in the UI and the leaderboard; log in from another browser', async () => {
  const ann = await open('ann');
  await account(ann, 'register', 'Ann_1', 'ann password');
  const annMe = await me(ann);
  assert.equal(annMe.kind, 'account');
  assert.equal(annMe.name, 'Ann_1');
  assert.equal(await text(ann, '[data-me-name]'), 'Ann_1');
  const ben = await open('ben');
  await account(ben, 'register', 'ben-2', 'ben password');
  // A taken username is refused with a clear message, and nothing changes.
  const eve = await open('eve');
  await eve.page.fill('[data-field="account-username"]', 'ann_1');
  await eve.page.fill('[data-field="account-password"]', 'whatever pw');
  await eve.page.click('[data-action="register"]');
  assert.match(await (await eve.page.waitForSelector('[data-account-error]')).textContent() ?? '', /taken/);
  assert.equal(await eve.page.getAttribute('[data-account]', 'data-account'), 'guest');
  await eve.page.fill('[data-field="account-password"]', 'wrong password');
  await eve.page.click('[data-action="login"]');
  await eve.page.waitForSelector('[data-account-error]:has-text("Wrong username or password")');

  // Ann creates a rated game by invitation; Ben opens the link and joins.
  await ann.page.click('a.logo');
  await ann.page.check('[data-field="opponent-invite"]');
  await ann.page.check('[data-field="side-1"]');
  assert.equal(await ann.page.isChecked('[data-field="rated"]'), true, 'games between people are rated by default');
  await ann.page.click('[data-action="create"]');
  await ann.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(ann.page);
  await ben.page.goto(`${env.server.url}/game/${id}`);
  await ben.page.click('[data-action="join"]');
  for (const p of [ann, ben]) {
    await p.page.waitForSelector('[data-status="setup"]');
    await p.page.click('[data-action="setup-random"]');
    await p.page.click('[data-action="setup-confirm"]');
  }
  for (const p of [ann, ben]) await p.page.waitForSelector('[data-status="playing"]');
  assert.equal(await text(ann, '[data-rating="1"]'), '1500');
  assert.equal(await text(ann, '[data-rating="2"]'), '1500');
  assert.match(await text(ben, '[data-info]'), /rated/);

  // Ann resigns: Ben wins; both screens show the new ratings.
  await ann.page.click('[data-action="resign"]');
  await ann.page.click('[data-action="resign-confirm"]');
  for (const p of [ann, ben]) {
    await p.page.waitForSelector('[data-status="finished"]');
    await p.page.waitForFunction(() => document.querySelector('[data-rating="1"]')?.textContent !== '1500');
  }
  const annRating = Number(await text(ann, '[data-rating="1"]'));
  const benRating = Number(await text(ann, '[data-rating="2"]'));
  assert.ok(annRating < 1500 && benRating > 1500, `ratings moved: ${annRating} / ${benRating}`);
  assert.equal(Number(await text(ben, '[data-rating="1"]')), annRating);
  assert.equal(Number(await text(ben, '[data-rating="2"]')), benRating);
  await ben.page.waitForFunction((r) => (window as any).rainet.client.player.rating === r, benRating);  // the header too
  await ben.page.click('[data-action="see-board"]');
  assert.match(await text(ben, '[data-rating-change]'), new RegExp(`ben-2: ${benRating} \\(\\+\\d+\\)`));
  await ben.shot('rated-game-end');

  // The leaderboard lists both, Ben first, with the same ratings.
  await ben.page.click('[data-nav="leaderboard"]');
  await ben.page.waitForSelector('[data-leader]');
  const rows = await ben.page.$$eval('[data-leader]', (els) => els.map((e) => (e as HTMLElement).dataset.leader));
  assert.deepEqual(rows, [(await me(ben)).id, annMe.id]);
  assert.match(await text(ben, `[data-leader-rating="${annMe.id}"]`), new RegExp(`^${annRating}`));
  await ben.shot('leaderboard');
  // Ann's page from there.
  await ben.page.click(`[data-leader="${annMe.id}"] a`);
  await ben.page.waitForSelector(`[data-profile="${annMe.id}"]`);
  assert.equal(await text(ben, '[data-profile-rating]'), String(annRating));
  assert.match(await text(ben, '[data-profile-record]'), /1 games: 0 won, 0 drawn, 1 lost/);
  await ben.page.waitForSelector(`[data-player-game="${id}"]`);

  // Ann logs in from another browser: the same player, name, rating and games.
  const other = await open('someone');
  const guest = await me(other);
  assert.notEqual(guest.id, annMe.id);
  await account(other, 'login', 'ann_1', 'ann password');
  const again = await me(other);
  assert.equal(again.id, annMe.id);
  assert.equal(again.name, 'Ann_1');
  assert.equal(again.rating, annRating);
  assert.equal(await other.page.inputValue('[data-field="name"]'), 'Ann_1', 'the name field shows the username');
  await other.shot('account-other-browser');
  await other.page.click('a.logo');
  await other.page.waitForSelector(`[data-recent="${id}"]`);
  await other.page.click('[data-nav="account"]');
  // A reload keeps the account (the new token is this browser's).
  await other.page.reload();
  await other.page.waitForSelector('[data-account="account"]');
  assert.equal((await me(other)).id, annMe.id);

  // Logging out there gives a new guest; the first browser is still logged in.
  await other.page.click('[data-action="logout"]');
  await other.page.waitForSelector('[data-account="guest"]');
  assert.notEqual((await me(other)).id, annMe.id);
  await ann.page.goto(`${env.server.url}/account`);
  await ann.page.waitForSelector('[data-account="account"]');
  assert.equal((await me(ann)).id, annMe.id);

  // Secrets: nobody received a password hash; nobody but its owner received a token.
  for (const p of players) assert.ok(!p.frames.some((f) => /argon2|ann password|ben password/.test(f)), `${p.name}: no password material`);
  const annTokens = ann.messages().filter((m) => m.type === 'welcome').map((m) => m.token);
  for (const p of [ben, eve]) assert.ok(!p.frames.some((f) => annTokens.some((t) => f.includes(t))), `${p.name}: no token of Ann`);
});

test('a bot account (rainet bot) is marked BOT in the game bars and on its player page', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rainet-bot-'));
  const password = join(dir, 'password');
  writeFileSync(password, 'robot password\n');
  const ws = env.server.url.replace('http', 'ws') + '/ws';
  const bot = spawn(BIN, ['bot', '--server', ws, '--engine', `${BIN} engine --bot random`, '--user', 'robo', '--password-file', password,
    '--register', '--accept', 'challenges', '--games', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  bot.stdout!.on('data', (d) => (out += d));
  bot.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => bot.once('exit', (code) => r(code)));
  try {
    const cid = await open('cid', '/');
    await cid.page.check('[data-field="opponent-open"]');
    await cid.page.check('[data-field="side-1"]');
    await cid.page.click('[data-action="create"]');
    await cid.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
    const id = gameIdOf(cid.page);
    // The bot joins the open game: its bar carries the badge, the person's does not.
    await cid.page.waitForSelector('[data-status="setup"]', { timeout: 20000 });
    await cid.page.waitForSelector('[data-bot="2"]', { timeout: 10000 });
    assert.equal(await text(cid, '[data-bot="2"]'), 'BOT');
    assert.equal(await cid.page.$('[data-bot="1"]'), null, 'the person has no badge');
    const botId = (await cid.game(id)).players['2'].id;
    await cid.page.click('[data-action="setup-random"]');
    await cid.page.click('[data-action="setup-confirm"]');
    await cid.page.waitForSelector('[data-status="playing"]', { timeout: 20000 });
    assert.equal(await text(cid, '[data-bot="2"]'), 'BOT');
    await cid.page.click('[data-action="resign"]');
    await cid.page.click('[data-action="resign-confirm"]');
    await cid.page.waitForSelector('[data-status="finished"]');
    assert.equal(await exited, 0, out);
    // Its player page says so too.
    await cid.page.goto(`${env.server.url}/player/${botId}`);
    await cid.page.waitForSelector(`[data-profile="${botId}"]`);
    await cid.page.waitForSelector(`[data-bot="${botId}"]`, { timeout: 10000 });
    assert.equal(await text(cid, `[data-bot="${botId}"]`), 'BOT');
  } finally {
    if (bot.exitCode === null) bot.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
