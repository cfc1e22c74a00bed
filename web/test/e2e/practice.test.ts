// Playing the computer in the browser (/practice): the engine's WebAssembly worker referees and
// plays, so after the page has loaded the network can go. Through the UI: the home page does not
// load the engine; a game is started, then with the server stopped and the network off the page is
// reloaded (the service worker's copy), the game resumes from localStorage, is played to its end
// and analysed by the same worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { chooseAction, Player, seeded, useServerAndBrowser } from './harness.ts';
import type { Side } from '../../src/view.ts';

const env = useServerAndBrowser();

const stored = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('rainet.practice') ?? 'null'));

/** Waits for the player's turn or the end; returns which. */
async function settled(page: Page): Promise<'turn' | 'over' | 'handover'> {
  await page.waitForSelector(['turn', 'over', 'handover'].map((s) => `main.practice[data-practice="${s}"]`).join(', '), { timeout: 60000 });
  return (await page.getAttribute('main.practice', 'data-practice')) as 'turn' | 'over' | 'handover';
}

/** One action of the player through the page's list of legal actions. */
async function playOne(page: Page, rnd: () => number): Promise<void> {
  const game = page.locator('.practice-game');
  const view = (await game.getAttribute('data-view'))!;
  const me = Number(await game.getAttribute('data-side')) as Side;
  const legal = await page.$$eval('select[data-field="practice-action"] option', (os) => os.map((o) => (o as HTMLOptionElement).value));
  assert.ok(legal.length > 0);
  await page.selectOption('select[data-field="practice-action"]', chooseAction(view, legal, me, rnd));
  const played = (await stored(page)).actions.length;
  await page.click('[data-action="practice-play"]');
  await page.waitForFunction((n) => JSON.parse(localStorage.getItem('rainet.practice')!).actions.length > n, played);
}

test('a game against the computer: started online; offline, reloaded, resumed, finished and analysed', async () => {
  const p = await Player.open(env.browser, 'Practiser', env.server.url);
  env.players.push(p);
  const engineRequests: string[] = [];
  p.page.on('request', (r) => { if (r.url().includes('/engine/')) engineRequests.push(r.url()); });
  await p.page.waitForTimeout(300);
  assert.equal(engineRequests.length, 0, 'the home page does not load the engine');

  await p.page.click('[data-action="practice"]');
  await p.page.selectOption('select[data-field="practice-level"]', '1');
  await p.page.click('[data-action="practice-start"]');
  assert.equal(await settled(p.page), 'turn');
  assert.ok(engineRequests.some((u) => u.endsWith('rainet_engine.wasm')), 'the engine is loaded for the game');
  const rnd = seeded(7);
  for (let i = 0; i < 3; ++i) {
    await playOne(p.page, rnd);
    assert.equal(await settled(p.page), 'turn');
  }
  const before = await stored(p.page);
  assert.equal(before.actions.length, 6, 'three actions each');

  // The service worker has kept the client and the engine: with the server gone and the network
  // off, a reload opens the page and the game resumes from localStorage.
  await p.page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 30000 });
  await env.server.stop();
  await p.ctx.setOffline(true);
  try {
    await p.page.reload();
    assert.equal(await settled(p.page), 'turn');
    assert.deepEqual((await stored(p.page)).actions, before.actions, 'the game resumed where it was');
    assert.ok(await p.page.locator('.practice-game [data-square]').count() > 0, 'the board is back');

    let plies = 0;
    while ((await settled(p.page)) === 'turn') {
      await playOne(p.page, rnd);
      assert.ok(++plies < 400, 'the game ends');
    }
    const result = await p.page.getAttribute('[data-practice-result]', 'data-practice-result', { timeout: 5000 }).catch(async () => {
      throw new Error(await p.page.evaluate(() => document.querySelector('main')!.outerHTML.slice(0, 3000)));
    });
    assert.match(result ?? '', /^(1-0|0-1|1\/2-1\/2)$/);
    const done = await stored(p.page);
    await p.page.click('[data-action="practice-analyse"]');
    await p.page.waitForSelector('[data-practice-analysis]', { timeout: 120000 });
    assert.equal(Number(await p.page.getAttribute('[data-practice-analysis]', 'data-practice-analysis')), done.actions.length + 1, 'one point per position');
  } finally {
    await p.ctx.setOffline(false);
    await env.server.run();
  }
});

test('official rules with the computer as side 1: it opens, and its action is kept', async () => {
  const p = await Player.open(env.browser, 'Second', env.server.url);
  env.players.push(p);
  await p.page.goto(`${env.server.url}/practice`);
  await p.page.selectOption('select[data-field="practice-level"]', '5');
  await p.page.selectOption('select[data-field="practice-rules"]', 'official');
  await p.page.selectOption('select[data-field="practice-side"]', '2');
  await p.page.click('[data-action="practice-start"]');
  assert.equal(await settled(p.page), 'turn');
  const g = await stored(p.page);
  assert.equal(g.rules, 'official');
  assert.equal(g.actions.length, 1, 'the computer played first');
  assert.equal(await p.page.getAttribute('.practice-game', 'data-side'), '2');
});

test('pass and play on this device, refereed by the engine: hand-over screens hide every card, played to its end offline', async () => {
  const p = await Player.open(env.browser, 'Table', env.server.url);
  env.players.push(p);
  await p.page.goto(`${env.server.url}/practice`);
  await p.page.selectOption('select[data-field="practice-opponent"]', 'friend');
  await p.page.click('[data-action="practice-start"]');
  await p.ctx.setOffline(true);
  const rnd = seeded(11);
  let due = 1;
  let state: 'turn' | 'over' | 'handover';
  let turns = 0;
  while ((state = await settled(p.page)) !== 'over') {
    assert.equal(state, 'handover', 'every turn starts with the hand-over screen');
    assert.equal(await p.page.getAttribute('[data-handover]', 'data-handover'), String(due));
    const html = await p.page.evaluate(() => document.body.innerHTML);
    assert.doesNotMatch(html, /data-square=|data-card=|data-view=/, 'no card and no square behind the hand-over screen');
    await p.page.click('[data-action="practice-continue"]');
    assert.equal(await settled(p.page), 'turn');
    assert.equal(await p.page.getAttribute('.practice-game', 'data-side'), String(due), 'the board of the side due');
    await playOne(p.page, rnd);
    due = 3 - due;
    assert.ok(++turns < 500, 'the game ends');
  }
  assert.match((await p.page.getAttribute('[data-practice-result]', 'data-practice-result')) ?? '', /^(1-0|0-1|1\/2-1\/2)$/);
  assert.equal((await stored(p.page)).actions.length, turns);
  await p.ctx.setOffline(false);
});
