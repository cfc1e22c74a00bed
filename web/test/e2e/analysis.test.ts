// End to end, the analysis of a finished game: two players play a short game through
// the UI and one resigns; the live game could not be analysed meanwhile; its replay's Analysis
// panel shows the win-chance graph (a click jumps to that ply), the virus probability on each
// unidentified opponent card, the best actions highlighted on the board while hovered, the other
// side's analysis after a flip; axe-core is clean; no frame either player received leaks a hidden
// identity. The panel is computed by the engine in the browser, with no request to the server's
// analysis, and its numbers are the server's; a browser without WebAssembly gets the server's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Side } from '../../src/view.ts';
import { allLeaks } from './leaks.ts';
import { assertAccessible, chooseAction, gameIdOf, play, Player, seeded, useServerAndBrowser, waitTurn } from './harness.ts';

const env = useServerAndBrowser();
const players = env.players;

test('a short game, resigned, and its analysis on the replay page', async () => {
  const ana = await Player.open(env.browser, 'Ana', `${env.server.url}/`, { width: 1280, height: 800 });
  const lis = await Player.open(env.browser, 'Lis', `${env.server.url}/`, { width: 1280, height: 800 });
  players.push(ana, lis);
  await ana.page.check('[data-field="side-1"]');
  await ana.page.click('[data-action="play-friend"]');
  await ana.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(ana.page);
  await lis.page.goto(`${env.server.url}/game/${id}`);
  await lis.page.click('[data-action="join"]');
  for (const p of [ana, lis]) {
    await p.page.waitForSelector('[data-status="setup"]');
    await p.page.click('[data-action="setup-random"]');
    await p.page.click('[data-action="setup-confirm"]');
  }
  const turns = new Map<Side, Player>([[1, ana], [2, lis]]);
  const rnd = seeded(11);
  let side: Side = 1;
  for (let i = 0; i < 10; i++) {
    const p = turns.get(side)!;
    const s = await waitTurn(p, id);
    assert.equal(s.status, 'playing');
    await play(p, id, chooseAction(s.view, s.legal, side, rnd), side);
    side = side === 1 ? 2 : 1;
  }
  // While the game is played it cannot be analysed: the answer is an unknown game's.
  const live = await fetch(`${env.server.url}/api/games/${id}/analysis?side=1`);
  assert.equal(live.status, 404);
  assert.deepEqual(await live.json(), { error: 'unknown_game' });

  await lis.page.click('[data-action="resign"]');
  await lis.page.click('[data-action="resign-confirm"]');
  for (const p of [ana, lis]) await p.page.waitForSelector('[data-status="finished"]');

  const page = ana.page;
  const asked: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/analysis')) asked.push(r.url()); });
  await page.goto(`${env.server.url}/replay/${id}`);
  await page.waitForSelector(`[data-replay="${id}"][data-ply="0"]`);
  assert.equal(await page.$('[data-analysis]'), null, 'the panel is closed until asked for');
  await page.click('[data-action="analysis"]');
  assert.equal(await page.getAttribute('[data-action="analysis"]', 'aria-pressed'), 'true');
  await page.waitForSelector('[data-analysis="ready"]', { timeout: 30000 });
  assert.equal(await page.getAttribute('[data-analysis="ready"]', 'data-analysis-where'), 'browser', 'computed by the engine in the browser');
  assert.match(await page.textContent('.analysis') ?? '', /Computed in this browser/);
  const api = await (await fetch(`${env.server.url}/api/games/${id}/analysis?side=1`)).json();
  assert.equal(api.plies.length, 11, 'one analysed position per ply');
  // Every number the page holds is the server's for the same game, side and budget.
  const here = await page.evaluate(() => (window as any).rainet.lastAnalysis);
  assert.deepEqual(here, api, 'the browser\'s analysis is the server\'s');

  // The graph: one point per turn of side 1 (and the end); the current ply marked.
  const points = (await page.getAttribute('[data-win-graph] polyline', 'points'))!.trim().split(/\s+/);
  assert.equal(points.length, api.plies.filter((p: any) => p.to_move === '1' || p.over).length);
  assert.equal(points.length, 6);
  await page.waitForSelector('[data-win-graph] [data-graph-ply="0"]');
  // The virus probabilities on side 2's cards at the start: all eight, as the server computed.
  const shown = async () => page.$$eval('.board [data-square] .vprob', (els) => Object.fromEntries(els.map((e) => [(e.closest('[data-square]') as HTMLElement).dataset.square!, Number((e as HTMLElement).dataset.virus)])));
  const expected = (ply: number) => Object.fromEntries(Object.entries(api.plies[ply].virus as Record<string, number>).map(([sq, p]) => [sq, Math.round(p * 100)]));
  assert.equal(Object.keys(await shown()).length, 8);
  assert.deepEqual(await shown(), expected(0));
  assert.match(await page.getAttribute(`[data-square="${Object.keys(expected(0))[0]}"]`, 'aria-label') ?? '', /virus \d+%/);
  assert.equal(await page.getAttribute('[data-win]', 'data-win'), String(Math.round(api.plies[0].win * 100)));
  // Side 1 moves first: its best actions are listed; hovering one marks its squares.
  const best = await page.$$('[data-best-action]');
  assert.ok(best.length >= 1 && best.length <= 3, `best actions: ${best.length}`);
  assert.equal(await best[0].getAttribute('data-best-action'), api.plies[0].best[0].action);
  await best[0].hover();
  await page.waitForSelector('.board .sq.hint');
  await assertAccessible(page, 'the replay with its analysis');
  await ana.shot('analysis');

  // A click at the graph's right end goes to the last ply; the board follows the analysis.
  const box = (await page.$('[data-win-graph]'))!;
  const r = (await box.boundingBox())!;
  await page.mouse.click(r.x + r.width - 1, r.y + r.height / 2);
  await page.waitForSelector(`[data-replay="${id}"][data-ply="10"]`);
  await page.waitForSelector('[data-win-graph] [data-graph-ply="10"]');
  assert.deepEqual(await shown(), expected(10));
  // Flipped: side 2's analysis, its probabilities on side 1's cards.
  await page.keyboard.press('f');
  await page.waitForSelector('[data-analysis="ready"]', { timeout: 30000 });
  const api2 = await (await fetch(`${env.server.url}/api/games/${id}/analysis?side=2`)).json();
  await page.waitForFunction(() => document.querySelector('.analysis h2')?.textContent?.includes('Lis'));
  assert.deepEqual(await page.evaluate(() => (window as any).rainet.lastAnalysis), api2, 'side 2: the server\'s numbers too');
  assert.deepEqual(asked, [], 'the page asked the server for no analysis');
  const sq2 = Object.keys(api2.plies[10].virus);
  assert.ok(sq2.length > 0);
  for (const sq of sq2) assert.equal(await page.getAttribute(`[data-square="${sq}"] .card`, 'data-owner'), '1', `${sq} holds a card of side 1`);
  await assertAccessible(page, 'the analysis of side 2');

  // Frames: neither player ever received an identity hidden from it.
  assert.deepEqual(allLeaks(ana.messages(), '1'), []);
  assert.deepEqual(allLeaks(lis.messages(), '2'), []);
});

test('a browser without WebAssembly: the replay\'s analysis comes from the server', async () => {
  const p = await Player.open(env.browser, 'Old', `${env.server.url}/`, { width: 1280, height: 800 });
  players.push(p);
  await p.page.check('[data-field="side-1"]');
  await p.page.click('[data-action="play-friend"]');
  await p.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(p.page);
  const q = await Player.open(env.browser, 'Other', `${env.server.url}/game/${id}`, { width: 1280, height: 800 });
  players.push(q);
  await q.page.click('[data-action="join"]');
  for (const x of [p, q]) {
    await x.page.waitForSelector('[data-status="setup"]');
    await x.page.click('[data-action="setup-random"]');
    await x.page.click('[data-action="setup-confirm"]');
  }
  const s = await waitTurn(p, id);
  await play(p, id, chooseAction(s.view, s.legal, 1, seeded(3)), 1);
  await q.page.click('[data-action="resign"]');
  await q.page.click('[data-action="resign-confirm"]');
  await p.page.waitForSelector('[data-status="finished"]');

  await p.ctx.addInitScript(() => { delete (window as any).WebAssembly; });
  const asked: string[] = [];
  p.page.on('request', (r) => { if (r.url().includes('/analysis') || r.url().includes('/engine/')) asked.push(new URL(r.url()).pathname); });
  await p.page.goto(`${env.server.url}/replay/${id}`);
  await p.page.click('[data-action="analysis"]');
  await p.page.waitForSelector('[data-analysis="ready"]', { timeout: 30000 });
  assert.equal(await p.page.getAttribute('[data-analysis="ready"]', 'data-analysis-where'), 'server');
  assert.deepEqual(asked, [`/api/games/${id}/analysis`], 'the server\'s endpoint, and no engine loaded');
  assert.deepEqual(await p.page.evaluate(() => (window as any).rainet.lastAnalysis), await (await fetch(`${env.server.url}/api/games/${id}/analysis?side=1`)).json());
});
