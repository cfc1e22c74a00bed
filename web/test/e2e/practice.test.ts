// Playing the computer in the browser (/practice): the engine's WebAssembly worker referees and
// plays, so after the page has loaded the network can go. Through the UI: the home page does not
// load the engine; a game is started, then with the server stopped and the network off the page is
// reloaded (the service worker's copy), the game resumes from localStorage, is played to its end
// and analysed by the same worker.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAccessible, Player, seeded, useServerAndBrowser } from './harness.ts';
import { playOne, settled, stored } from './practicedriver.ts';

const env = useServerAndBrowser();

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

test('placing one\'s own cards, kept across a reload, and a clock that ends the game on time', async () => {
  const p = await Player.open(env.browser, 'Placer', env.server.url);
  env.players.push(p);
  await p.page.goto(`${env.server.url}/practice`);
  await p.page.selectOption('select[data-field="practice-level"]', '1');
  await p.page.selectOption('select[data-field="practice-arrangement"]', 'place');
  await p.page.selectOption('select[data-field="practice-clock"]', '1+1');
  await p.page.click('[data-action="practice-start"]');
  await p.page.waitForSelector('[data-arrange="1"]');
  assert.equal(await p.page.getAttribute('main.practice', 'data-practice'), 'arrange');
  assert.equal(await p.page.locator('[data-card]').count(), 8, 'only the player\'s own eight cards are drawn');
  await assertAccessible(p.page, 'the practice setup screen');

  // Two squares of different kinds picked in turn swap their cards.
  const before = (await p.page.getAttribute('[data-arrange]', 'data-setup-string'))!;
  assert.match(before, /^[LV]{8}$/);
  const squares = ['a1', 'b1', 'c1', 'f1', 'g1', 'h1', 'd2', 'e2'];
  const j = [...before].findIndex((c) => c !== before[0]);
  await p.page.click('[data-square="a1"]');
  await p.page.click(`[data-square="${squares[j]}"]`);
  const swapped = [...before];
  [swapped[0], swapped[j]] = [swapped[j], swapped[0]];
  await p.page.waitForSelector(`[data-arrange][data-setup-string="${swapped.join('')}"]`);
  assert.equal(await p.page.getAttribute('[data-square="a1"] [data-card]', 'data-card'), swapped[0]);
  // A reload keeps the arrangement being placed.
  await p.page.reload();
  await p.page.waitForSelector(`[data-arrange="1"][data-setup-string="${swapped.join('')}"]`);
  await p.page.click('[data-action="practice-setup-confirm"]');
  assert.equal(await settled(p.page), 'turn');
  const g = await stored(p.page);
  assert.equal(g.setup1, swapped.join(''), 'the game starts from the placed cards');
  assert.deepEqual(g.arranging, undefined);
  for (const [i, q] of squares.entries()) assert.equal(await p.page.getAttribute(`.practice-game [data-square="${q}"] [data-card]`, 'data-card'), swapped[i]);

  // The clock: one minute and one second a move for each side, the player's running.
  assert.deepEqual(g.clock, { initial: 6000, increment: 100 });
  assert.match((await p.page.textContent('[data-clock="1"] .time'))!, /^[01]:\d\d$/);
  assert.ok(await p.page.getAttribute('[data-clock="1"]', 'class').then((c) => c?.includes('running')));
  await assertAccessible(p.page, 'a practice game with a clock');
  await playOne(p.page, seeded(5));
  assert.equal(await settled(p.page), 'turn');
  const after = await stored(p.page);
  assert.equal(after.left.length, 2);
  assert.ok(after.left[0] > 5000 && after.left[0] <= 6100, `the player's time after one move: ${after.left[0]}`);
  assert.ok(after.left[1] > 0 && after.left[1] <= 6100, `the computer's time: ${after.left[1]}`);

  // With a second and a half left, the player's time runs out: the game is lost on time.
  await p.page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('rainet.practice')!);
    s.left[0] = 150;
    localStorage.setItem('rainet.practice', JSON.stringify(s));
  });
  await p.page.reload();
  await p.page.waitForSelector('main.practice[data-practice="over"]', { timeout: 15000 });
  assert.equal(await p.page.getAttribute('[data-practice-result]', 'data-practice-result'), '0-1');
  assert.equal(await p.page.getAttribute('[data-practice-result]', 'data-practice-reason'), 'time');
  const lost = await stored(p.page);
  assert.equal(lost.flagged, 1);
  assert.equal(lost.actions.length, after.actions.length, 'no action after the time ran out');
  const [download] = await Promise.all([p.page.waitForEvent('download'), p.page.click('[data-action="practice-download"]')]);
  const record = readFileSync((await download.path())!, 'utf8');
  assert.match(record, /\[Termination "time"\]/);
  assert.match(record, /\[Setup1 "[LV]{8}"\]/);
});

test('pass and play with both sides placing their cards, each behind a hand-over screen', async () => {
  const p = await Player.open(env.browser, 'Placers', env.server.url);
  env.players.push(p);
  await p.page.goto(`${env.server.url}/practice`);
  await p.page.selectOption('select[data-field="practice-opponent"]', 'friend');
  await p.page.selectOption('select[data-field="practice-arrangement"]', 'place');
  await p.page.click('[data-action="practice-start"]');
  const placed: string[] = [];
  for (const side of [1, 2]) {
    await p.page.waitForSelector(`[data-handover="${side}"][data-handover-setup]`);
    assert.doesNotMatch(await p.page.evaluate(() => document.body.innerHTML), /data-square=|data-card=/, 'no card behind the hand-over screen');
    await p.page.click('[data-action="practice-continue"]');
    await p.page.waitForSelector(`[data-arrange="${side}"]`);
    assert.equal(await p.page.locator(`[data-card]`).count(), 8);
    assert.equal(await p.page.locator(`[data-card][data-owner="${3 - side}"]`).count(), 0, 'nothing of the other side');
    await p.page.click('[data-action="practice-setup-random"]');
    placed.push((await p.page.getAttribute('[data-arrange]', 'data-setup-string'))!);
    await p.page.click('[data-action="practice-setup-confirm"]');
  }
  assert.equal(await settled(p.page), 'handover');
  const g = await stored(p.page);
  assert.deepEqual([g.setup1, g.setup2], placed);
});
