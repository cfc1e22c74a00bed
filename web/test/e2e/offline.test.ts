// The client without its server, and a new client deployed under a game in progress. On a copy of
// dist/ served by its own server (so that a test can deploy a "new build" into it): after one
// visit the server is stopped, and the page says in plain words what still works on this device
// (practice, the rules, the lessons, which open offline) and what waits for the connection, never
// on /practice itself, and the note goes once the server is back; a new build deployed while a practice game is played
// does not lose it: the open page plays on, the next visit runs the new build and resumes the game,
// and so does a visit with the network off afterwards.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { assertAccessible, Player, seeded, useServerAndBrowser, WEB } from './harness.ts';
import { playOne, settled, stored } from './practicedriver.ts';

const webDir = mkdtempSync(join(tmpdir(), 'rainet-web-'));
cpSync(join(WEB, 'dist'), webDir, { recursive: true });
after(() => rmSync(webDir, { recursive: true, force: true }));
const env = useServerAndBrowser([], () => webDir);

const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 30000 });
const appScript = (page: Page) => page.evaluate(() => new URL(document.querySelector<HTMLScriptElement>('script[src*="/app."]')!.src).pathname);

/**
 * A new build deployed into the served copy: the app script changed (it marks the window) under a
 * new content-hashed name, named by index.html and by the service worker's list of the shell.
 */
function deployNewBuild(): string {
  const old = readdirSync(webDir).find((f) => /^app\.[0-9a-f]{12}\.js$/.test(f))!;
  const js = `window.__rainetBuild = 'next';\n${readFileSync(join(webDir, old), 'utf8')}`;
  const name = `app.${createHash('sha256').update(js).digest('hex').slice(0, 12)}.js`;
  writeFileSync(join(webDir, name), js);
  for (const f of ['index.html', 'sw.js']) {
    writeFileSync(join(webDir, f), readFileSync(join(webDir, f), 'utf8').replaceAll(old, name));
    for (const z of ['.gz', '.br']) rmSync(join(webDir, f + z), { force: true });
  }
  return `/${name}`;
}

test('without the server, the page says what still works on this device, and the note goes when it is back', async () => {
  const p = await Player.open(env.browser, 'Away', env.server.url);
  env.players.push(p);
  await controlled(p.page);
  assert.equal(await p.page.locator('[data-offline="shown"]').count(), 0, 'no note while online');

  await env.server.stop();
  try {
    // A dropped connection that does not come back: the note, in plain words, with the way to play.
    await p.page.waitForSelector('[data-offline="shown"]', { timeout: 15000 });
    const text = (await p.page.textContent('[data-offline]'))!;
    assert.match(text, /The server cannot be reached\./);
    assert.match(text, /against the computer/);
    assert.match(text, /rules and the lessons/);
    assert.match(text, /Playing people online.*come back with the connection/);
    await assertAccessible(p.page, 'the home page without its server');

    // The network off too: a reload opens from the service worker's copy and says the same at once.
    await p.ctx.setOffline(true);
    await p.page.reload();
    await p.page.waitForSelector('[data-offline="shown"]', { timeout: 5000 });
    await p.page.click('[data-action="offline-practice"]');
    await p.page.waitForSelector('main.practice [data-action="practice-start"]');
    assert.equal(await p.page.locator('[data-offline="shown"]').count(), 0, 'no note on /practice, which works');
    await p.page.click('[data-action="practice-start"]');
    assert.equal(await settled(p.page), 'turn', 'a game against the computer starts offline');
    // The rules and the lessons open offline too, with the note.
    await p.page.click('[data-nav="rules"]');
    await p.page.waitForSelector('main[data-page="rules"]');
    await p.page.click('[data-nav="learn"]');
    await p.page.waitForSelector('main[data-page="learn"] [data-lesson]');
    await p.page.click('[data-lesson]');
    await p.page.waitForSelector('[data-lesson-open] [data-square]');
    await p.page.waitForSelector('[data-offline="shown"]');
    await p.page.click('a.logo');
    await p.page.waitForSelector('[data-offline="shown"]');
  } finally {
    await p.ctx.setOffline(false);
    await env.server.run();
  }
  await p.page.waitForSelector('[data-conn="online"]', { timeout: 30000 });
  await p.page.waitForSelector('[data-offline=""]', { state: 'attached' });
  assert.equal(await p.page.locator('[data-offline] .banner').count(), 0, 'the note is gone once the server is back');
});

test('a new build deployed during a practice game: the open page plays on, the next visit runs the new build and resumes the game, offline too', async () => {
  const p = await Player.open(env.browser, 'Updater', env.server.url);
  env.players.push(p);
  await controlled(p.page);
  const first = await appScript(p.page);
  await p.page.goto(`${env.server.url}/practice`);
  await p.page.selectOption('select[data-field="practice-level"]', '1');
  await p.page.click('[data-action="practice-start"]');
  assert.equal(await settled(p.page), 'turn');
  const rnd = seeded(23);
  await playOne(p.page, rnd);
  assert.equal(await settled(p.page), 'turn');

  // The deployment: the server restarts with a new client.
  await env.server.stop();
  const next = deployNewBuild();
  assert.notEqual(next, first);
  await env.server.run();

  // The page already open keeps its build and its game.
  await playOne(p.page, rnd);
  assert.equal(await settled(p.page), 'turn');
  const before = await stored(p.page);
  assert.equal(before.actions.length, 4);

  // The next visit: the new build, the same game where it was.
  await p.page.reload();
  assert.equal(await settled(p.page), 'turn');
  assert.equal(await appScript(p.page), next, 'the new build is loaded');
  assert.equal(await p.page.evaluate(() => (window as unknown as { __rainetBuild?: string }).__rainetBuild), 'next');
  assert.deepEqual((await stored(p.page)).actions, before.actions, 'the game resumed where it was');
  await playOne(p.page, rnd);
  assert.equal(await settled(p.page), 'turn');
  assert.equal((await stored(p.page)).actions.length, 6);

  // The service worker has taken the new build: with the server gone and the network off, a visit
  // opens the new build and the game again.
  await p.page.waitForFunction(async (name) => !!(await caches.match(name)), next, { timeout: 30000 });
  await env.server.stop();
  await p.ctx.setOffline(true);
  try {
    await p.page.reload();
    assert.equal(await settled(p.page), 'turn');
    assert.equal(await appScript(p.page), next);
    assert.equal((await stored(p.page)).actions.length, 6);
    await playOne(p.page, rnd);
    assert.equal((await stored(p.page)).actions.length, 8);
  } finally {
    await p.ctx.setOffline(false);
    await env.server.run();
  }
});
