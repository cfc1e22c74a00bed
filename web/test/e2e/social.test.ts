// End to end, through the UI: notifications, follows and challenges. Two players register; one
// follows the other (who sees the unread count and the inbox), challenges it from its profile,
// and the other accepts from the notification in its inbox: both are taken to the new game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gameIdOf, Player, useServerAndBrowser } from './harness.ts';

const env = useServerAndBrowser();
const players = env.players;

async function open(name: string, path = '/account'): Promise<Player> {
  const p = await Player.open(env.browser, name, `${env.server.url}${path}`);
  players.push(p);
  return p;
}

async function register(p: Player, username: string): Promise<string> {
  await p.page.fill('[data-field="account-username"]', username);
  await p.page.fill('[data-field="account-password"]', `${username} password`);
  await p.page.click('[data-action="register"]');
  await p.page.waitForSelector('[data-account="account"]', { timeout: 20000 });
  return p.page.evaluate(() => (window as any).rainet.client.player.id);
}

test('follow, then challenge by name: the other accepts from its inbox and both play', async () => {
  const ann = await open('ann');
  const ben = await open('ben');
  await register(ann, 'ann_social');
  const benId = await register(ben, 'ben_social');
  // Ann follows Ben from his profile: Ben's header counts it.
  await ann.page.goto(`${env.server.url}/player/${benId}`);
  await ann.page.click('[data-action="follow"]');
  await ann.page.waitForSelector('[data-following="online"]');
  await ben.page.waitForSelector('.inbox-link [data-unread="1"]');
  // Ann challenges Ben (casual, side 1).
  await ann.page.selectOption('[data-challenge-opt="rated"]', 'casual');
  await ann.page.selectOption('[data-challenge-opt="side"]', '1');
  await ann.page.click('[data-action="challenge"]');
  await ann.page.waitForSelector('[data-challenge-sent]');
  // Ben sees it live (the banner) and in his inbox, where he accepts it.
  await ben.page.waitForSelector('[data-challenge]');
  await ben.page.waitForSelector('.inbox-link [data-unread="2"]');
  await ben.page.click('[data-nav="inbox"]');
  await ben.page.waitForSelector('[data-kind="challenge"][data-read="false"]');
  await ben.page.waitForSelector('[data-kind="followed"]');
  await ben.page.click('[data-action="inbox-accept"]');
  await ben.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  await ann.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(ben.page);
  assert.equal(gameIdOf(ann.page), id);
  const g = await ann.game(id);
  assert.equal(g.you, '1');
  assert.equal(g.rated, false);
  // Marked read from the inbox: the count goes.
  await ben.page.click('[data-nav="inbox"]');
  await ben.page.click('[data-action="mark-read"]');
  await ben.page.waitForSelector('.inbox-link [data-unread]', { state: 'detached' });
  for (const p of [ann, ben]) assert.deepEqual(p.errors, []);
});

test('a correspondence challenge (days per move): the game is listed under your turn on the home page', async () => {
  const cat = await open('cat');
  const dan = await open('dan');
  await register(cat, 'cat_corr');
  const danId = await register(dan, 'dan_corr');
  await cat.page.goto(`${env.server.url}/player/${danId}`);
  await cat.page.selectOption('[data-challenge-opt="clock"]', '3d');
  await cat.page.selectOption('[data-challenge-opt="side"]', '1');
  await cat.page.click('[data-action="challenge"]');
  await cat.page.waitForSelector('[data-challenge-sent]');
  await dan.page.click('[data-nav="inbox"]');
  await dan.page.click('[data-action="inbox-accept"]');
  await dan.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  await cat.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(dan.page);
  for (const p of [cat, dan]) {
    await p.page.waitForSelector('[data-action="setup-random"]');
    await p.page.click('[data-action="setup-random"]');
    await p.page.click('[data-action="setup-confirm"]');
  }
  for (const p of [cat, dan]) await p.page.waitForSelector('[data-status="playing"]');
  // Cat (side 1) moves first: "your move" on her home page, "their move" on Dan's.
  await cat.page.goto(`${env.server.url}/`);
  await cat.page.waitForSelector(`[data-my-game="${id}"][data-your-turn="1"]`);
  await dan.page.goto(`${env.server.url}/`);
  await dan.page.waitForSelector(`[data-my-game="${id}"][data-your-turn="0"]`);
  for (const p of [cat, dan]) assert.deepEqual(p.errors, []);
});
