// End to end: an arena of four browsers from kickoff to podium on the test clock (`--test-mode`,
// POST /api/test/advance). An account creates it from the tournaments page; the four join from
// its page; at the start each one's game opens by itself; the host berserks; results come in
// (resigned over each page's own connection, to keep the test short) and the host's wins show
// the streak flame and the berserk mark; after the end the podium shows the host first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAccessible, offscreen, Player, useServerAndBrowser } from './harness.ts';

const env = useServerAndBrowser(['--test-mode']);
const players = env.players;

async function open(name: string, path: string, viewport?: { width: number; height: number }): Promise<Player> {
  const p = await Player.open(env.browser, name, `${env.server.url}${path}`, viewport);
  players.push(p);
  return p;
}

async function advance(cs: number): Promise<void> {
  const r = await fetch(`${env.server.url}/api/test/advance?cs=${cs}`, { method: 'POST' });
  assert.ok(r.ok, `advance: HTTP ${r.status}`);
}

const me = (p: Player): Promise<string> => p.page.evaluate(() => (window as any).rainet.client.player.id);

/** Waits until the page shows a game other than `not` (opened by itself on `matched`); its id. */
async function gameOpened(p: Player, not: string | null = null): Promise<string> {
  await p.page.waitForURL((u) => /^\/game\/[A-Za-z0-9]+$/.test(u.pathname) && u.pathname !== `/game/${not}`, { timeout: 15000 });
  return new URL(p.page.url()).pathname.split('/')[2];
}

async function resign(p: Player, game: string): Promise<void> {
  await p.page.evaluate((g) => (window as any).rainet.client.request({ type: 'resign', game: g }), game);
}

test('tournament: an arena of four from kickoff to podium', async () => {
  const ann = await open('Ann', '/');
  await ann.page.evaluate(() => (window as any).rainet.client.register('ann_arena', 'ann password'));
  // The header links to the tournaments; an account creates an arena there.
  await ann.page.click('[data-nav="tournaments"]');
  await ann.page.waitForSelector('[data-tour-group="created"] .empty');
  await assertAccessible(ann.page, 'the tournaments list');
  await ann.page.fill('[data-field="name"]', 'Night arena');
  await ann.page.selectOption('[data-field="clock"]', '5+3');
  await ann.page.fill('[data-field="startsIn"]', '1');
  await ann.page.fill('[data-field="minutes"]', '10');
  await ann.page.click('[data-action="tournament-create"]');
  await ann.page.waitForURL(/\/tournament\/t[A-Za-z0-9]+$/);
  const tid = new URL(ann.page.url()).pathname.split('/')[2];
  await ann.page.waitForSelector(`[data-tournament="${tid}"][data-status="created"]`);
  assert.match(await ann.page.textContent('[data-countdown]') ?? '', /^starts in (1:00|0:5\d)$/);
  assert.match(await ann.page.textContent(`[data-tournament="${tid}"]`) ?? '', /5\+3/);
  await ann.page.click('[data-action="tournament-join"]');
  await ann.page.waitForSelector('[data-my-state="active"]');
  await ann.page.waitForSelector('[data-action="tournament-pause"]');
  await assertAccessible(ann.page, 'a tournament page before the start');

  // Three more join from the list (ben on a phone-sized window), one through the home page's feature.
  const ben = await open('Ben', '/tournaments', { width: 390, height: 844 });
  const cat = await open('Cat', '/tournaments');
  const dan = await open('Dan', '/');
  await dan.page.click(`[data-featured="${tid}"] a`);
  for (const p of [ben, cat]) await p.page.click(`[data-tour="${tid}"] a`);
  for (const p of [ben, cat, dan]) {
    await p.page.waitForSelector(`[data-tournament="${tid}"]`);
    await p.page.click('[data-action="tournament-join"]');
    await p.page.waitForSelector('[data-my-state="active"]');
  }
  assert.deepEqual(await offscreen(ben.page, ['[data-action="tournament-pause"]', '[data-countdown]', '[data-conn]'], true), []);
  const header = await ben.page.$eval('header.top', (e) => e.getBoundingClientRect().height);
  assert.ok(header <= 52, `the header stays one line on a phone: ${header}`);
  assert.ok(await ben.page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth), 'no sideways scrolling on a phone');
  // Pausing and coming back; a fifth player joins and withdraws for good before the start.
  await ben.page.click('[data-action="tournament-pause"]');
  await ben.page.waitForSelector('[data-my-state="paused"]');
  await ben.page.click('[data-action="tournament-join"]');
  await ben.page.waitForSelector('[data-my-state="active"]');
  const eve = await open('Eve', `/tournament/${tid}`);
  await eve.page.click('[data-action="tournament-join"]');
  await eve.page.click('[data-action="tournament-withdraw"]');
  await eve.page.waitForSelector('[data-my-state="withdrawn"]');
  assert.equal(await eve.page.$('[data-action="tournament-join"]'), null, 'no coming back after a withdrawal');
  const eveId = await me(eve);
  await ann.page.waitForSelector(`[data-standing="${eveId}"] [data-state="withdrawn"]`);
  await ann.page.waitForFunction(() => document.querySelectorAll('[data-standing]').length === 5);
  await ben.shot('tournament-before-start-phone');

  // The start: every player's game opens by itself.
  await advance(6000);
  const ids = new Map<Player, string>();
  for (const p of [ann, ben, cat, dan]) ids.set(p, await me(p));
  const gameOf = new Map<Player, string>();
  for (const p of [ann, ben, cat, dan]) gameOf.set(p, await gameOpened(p));
  assert.equal(new Set(gameOf.values()).size, 2);
  const g1 = gameOf.get(ann)!;
  const annOpp = [ben, cat, dan].find((p) => gameOf.get(p) === g1)!;
  const others = [ben, cat, dan].filter((p) => p !== annOpp);
  // The game names its tournament; the host berserks (once: the button gives way to the mark).
  await ann.page.waitForSelector(`[data-tournament-link="${tid}"]`);
  await ann.page.click('[data-action="berserk"]');
  await ann.page.waitForSelector('[data-berserked]');
  assert.equal(await ann.page.$('[data-action="berserk"]'), null);
  await ann.shot('tournament-game-berserked');

  // Two wins for the host (nobody else free: the same two meet again), the others still playing.
  await resign(annOpp, g1);
  const g2 = await gameOpened(ann, g1);
  assert.equal(await gameOpened(annOpp, g1), g2);
  await resign(annOpp, g2);
  const g3 = await gameOpened(ann, g2);
  assert.equal(await gameOpened(annOpp, g2), g3);

  // The end: games in play finish and count; then the tournament is over.
  await advance(60000);
  await resign(annOpp, g3); // a win on a streak: doubled
  await resign(others[0], gameOf.get(others[0])!);
  // The host's ended game leads back to the tournament (no rematch in a tournament).
  await ann.page.waitForSelector('[data-action="goto-tournament"]');
  assert.equal(await ann.page.$('[data-action="rematch"]'), null);
  await ann.page.click('[data-overlay="end"] [data-action="goto-tournament"]');
  await ann.page.waitForSelector(`[data-tournament="${tid}"][data-status="finished"]`, { timeout: 15000 });

  // The podium: the host first with 2 + 2 + 4 points, on a streak, one berserk counted.
  const annId = ids.get(ann)!;
  assert.equal(await ann.page.getAttribute('[data-podium-place="1"]', 'data-podium-place'), '1');
  assert.match(await ann.page.textContent('[data-podium-place="1"]') ?? '', /ann_arena.*8 points/);
  assert.match(await ann.page.textContent('[data-podium-place="2"]') ?? '', /2 points/);
  assert.equal(await ann.page.textContent(`[data-points="${annId}"]`), '8');
  assert.equal(await ann.page.textContent(`[data-standing="${annId}"] .sheet`), '224');
  assert.equal(await ann.page.textContent(`[data-standing="${annId}"] .sheet .streak`), '4');
  assert.ok(await ann.page.$(`[data-standing="${annId}"] [data-fire]`), 'the streak flame');
  assert.equal(await ann.page.getAttribute(`[data-standing="${annId}"] [data-berserks]`, 'data-berserks'), '1');
  assert.match(await ann.page.textContent('[data-countdown]') ?? '', /finished/);
  assert.match(await ann.page.textContent('[data-my-state]') ?? '', /finished #1 with 8 points/);
  assert.equal(await ann.page.$('[data-action="tournament-join"]'), null, 'no joining after the end');
  await assertAccessible(ann.page, 'a finished tournament');
  await ann.shot('tournament-podium');

  // The list shows it finished; in Japanese too.
  await cat.page.goto(`${env.server.url}/tournaments`);
  await cat.page.waitForSelector(`[data-tour-group="finished"] [data-tour="${tid}"]`);
  await cat.page.goto(`${env.server.url}/tournament/${tid}`);
  await cat.page.evaluate(() => localStorage.setItem('rainet.lang', 'ja'));
  await cat.page.reload();
  await cat.page.waitForSelector('[data-podium]');
  assert.match(await cat.page.textContent('[data-podium] h2') ?? '', /表彰台/);
});
