// Pass and play, through the UI only: two people at one browser set up behind hand-over
// screens and play a game to the end; while a hand-over screen is shown no card identity of either
// side is in the document, and each seat's connection receives only its own side's hidden facts
// (frame level, as leaks.ts checks for two browsers). The four window sizes, axe-core, the
// language switch, and the sound switch (remembered across a reload, with WebAudio counted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { CATALOGUES, format } from '../../src/i18n.ts';
import { parseView, type Side } from '../../src/view.ts';
import { allLeaks, type Role } from './leaks.ts';
import { assertAccessible, chooseAction, clickAction, offscreen, Player, seeded, useServerAndBrowser } from './harness.ts';

const env = useServerAndBrowser();

/** Every WebSocket of the page, each with the frames it received. */
function captureSockets(page: Page): string[][] {
  const sockets: string[][] = [];
  page.on('websocket', (ws) => {
    const frames: string[] = [];
    sockets.push(frames);
    ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString()));
  });
  return sockets;
}

/** The role each socket holds in game `id` (from its snapshots), and the leaks in what it received. */
function socketLeaks(sockets: string[][], id: string): { roles: Role[]; leaks: string[] } {
  const roles: Role[] = [];
  const leaks: string[] = [];
  for (const frames of sockets) {
    const msgs = frames.map((f) => { try { return JSON.parse(f); } catch { return null; } }).filter(Boolean);
    const mine = msgs.filter((m) => m.game === id);
    const you = mine.find((m) => m.type === 'snapshot')?.you as Role | undefined;
    if (!you) continue;
    roles.push(you);
    leaks.push(...allLeaks(mine, you));
  }
  return { roles: roles.sort(), leaks };
}

/** The hand-over screen for `side` is up, and nothing of the game page (no card, no square) is in the document. */
async function handoverShown(page: Page, side: Side): Promise<void> {
  await page.waitForSelector(`[data-handover="${side}"]`);
  const dom = await page.evaluate(() => ({
    gamepage: document.querySelectorAll('.gamepage, .board, [data-square], [data-card], [data-stack]').length,
    html: document.body.innerHTML,
  }));
  assert.equal(dom.gamepage, 0, 'no board while the hand-over screen is shown');
  assert.doesNotMatch(dom.html, /data-card=|data-square=/, 'no card identity in the document');
}

async function seatState(page: Page, side: Side, id: string): Promise<any> {
  return page.evaluate(([s, g]) => (window as any).rainet.seats[s].game(g), [String(side), id] as const);
}

/** Starts a pass-and-play game from the home page; returns its id. */
async function startLocal(p: Player, names: [string, string]): Promise<string> {
  await p.page.click('[data-action="play-local"]');
  await p.page.waitForSelector('[data-action="local-start"]');
  await p.page.fill('[data-field="local-name-1"]', names[0]);
  await p.page.fill('[data-field="local-name-2"]', names[1]);
  await p.page.click('[data-action="local-start"]');
  await p.page.waitForURL(/\/local\/[A-Za-z0-9]+$/);
  return new URL(p.page.url()).pathname.split('/')[2];
}

/** Both setups, each behind its hand-over screen. */
async function setUpBoth(p: Player): Promise<void> {
  for (const side of [1, 2] as Side[]) {
    await handoverShown(p.page, side);
    await p.page.click('[data-action="handover"]');
    await p.page.waitForSelector(`[data-status="setup"][data-you="${side}"]`);
    await p.page.click('[data-action="setup-random"]');
    await p.page.click('[data-action="setup-confirm"]');
  }
}

/** One turn: the hand-over screen of the side to move, then its action by clicks. Returns false at the end. */
async function oneTurn(p: Player, id: string, rnd: () => number): Promise<boolean> {
  await p.page.waitForSelector('[data-handover], [data-local-result]');
  if (await p.page.$('[data-local-result]')) return false;
  const side = Number(await p.page.getAttribute('[data-handover]', 'data-handover')) as Side;
  await handoverShown(p.page, side);
  await p.page.click('[data-action="handover"]');
  await p.page.waitForSelector(`[data-status="playing"][data-you="${side}"]`);
  const s = await seatState(p.page, side, id);
  assert.equal(parseView(s.view).toMove, side, 'the board shown is of the side to move');
  // One screen for both players: no chat, no draw offer (it would wait for a turn that never comes).
  assert.equal(await p.page.locator('[data-chat-input], [data-action="draw-offer"]').count(), 0);
  assert.equal(await p.page.locator('[data-action="resign"]').count(), 1);
  await clickAction(p, chooseAction(s.view, s.legal, side, rnd), side);
  // The board goes as soon as the action is played: the other side's hand-over, or the end.
  await p.page.waitForSelector(`[data-handover]:not([data-handover="${side}"]), [data-local-result]`);
  return true;
}

test('pass and play at 1280x800: both setups and every turn behind a hand-over screen, a full game, both names in the result, no leak', async () => {
  const p = await Player.open(env.browser, 'host', `${env.server.url}/`, { width: 1280, height: 800 });
  env.players.push(p);
  const sockets = captureSockets(p.page);
  await p.page.reload();
  await p.page.waitForSelector('[data-conn="online"]');
  await assertAccessible(p.page, 'home with the pass-and-play button');
  await p.page.click('[data-action="play-local"]');
  await p.page.waitForSelector('[data-action="local-start"]');
  await assertAccessible(p.page, 'pass-and-play start');
  await p.page.goBack();
  const id = await startLocal(p, ['Alice', 'Bob']);
  await handoverShown(p.page, 1);
  assert.equal((await p.page.textContent('[data-handover] h1'))?.trim(), 'Alice, set up your cards');
  await assertAccessible(p.page, 'hand-over screen');
  await setUpBoth(p);
  const rnd = seeded(13);
  let plies = 0;
  while (await oneTurn(p, id, rnd)) if (++plies > 400) throw new Error('no end within 400 plies');
  assert.ok(plies > 0);

  const s = await seatState(p.page, 1, id);
  assert.equal(s.status, 'finished');
  const lines = await p.page.$$eval('[data-result-side]', (els) => els.map((e) => e.textContent ?? ''));
  const outcome = (side: '1' | '2') => (s.result.winner === null ? 'draw' : s.result.winner === side ? 'won' : 'lost');
  assert.deepEqual(lines, [`Alice (side 1): ${outcome('1')}`, `Bob (side 2): ${outcome('2')}`]);
  assert.match((await p.page.textContent('[data-local-result] h2')) ?? '', s.result.winner ? new RegExp(`^${s.result.winner === '1' ? 'Alice' : 'Bob'} wins`) : /^Draw/);
  await assertAccessible(p.page, 'pass-and-play result');
  await p.shot('local-result-1280x800');

  const { roles, leaks } = socketLeaks(sockets, id);
  assert.deepEqual(roles, ['1', '2'], 'one connection per seat');
  assert.deepEqual(leaks, [], 'each seat received only its own hidden facts');
});

for (const [w, hgt] of [[1366, 768], [1920, 1080], [390, 844]] as const) {
  test(`pass and play at ${w}x${hgt}: hand-over screens fit, setups and a few turns, axe clean${w === 1920 ? ', a resignation named in the result' : ''}`, async () => {
    const p = await Player.open(env.browser, 'host', `${env.server.url}/`, { width: w, height: hgt }, w < 500);
    env.players.push(p);
    const id = await startLocal(p, ['Ann', 'Ben']);
    await handoverShown(p.page, 1);
    assert.deepEqual(await offscreen(p.page, ['[data-action="handover"]', '[data-handover] h1'], true), [], 'the hand-over fits the window');
    await assertAccessible(p.page, `hand-over at ${w}x${hgt}`);
    await p.shot(`local-handover-${w}x${hgt}`);
    await setUpBoth(p);
    const rnd = seeded(w);
    for (let i = 0; i < 4; i++) assert.ok(await oneTurn(p, id, rnd));
    await assertAccessible(p.page, `pass and play at ${w}x${hgt}`);
    if (w === 1920) {
      // Side 1 (Ann, to move after four plies) resigns: the end names both results.
      await p.page.click('[data-action="handover"]');
      await p.page.click('[data-action="resign"]');
      await p.page.click('[data-action="resign-confirm"]');
      await p.page.waitForSelector('[data-local-result]');
      assert.deepEqual(await p.page.$$eval('[data-result-side]', (els) => els.map((e) => e.textContent)), ['Ann (side 1): lost', 'Ben (side 2): won']);
    }
  });
}

test('a link to a game that is not this device\'s pass-and-play game shows nothing of it', async () => {
  const host = await Player.open(env.browser, 'host', `${env.server.url}/`);
  env.players.push(host);
  await host.page.click('[data-action="play-computer"]');
  await host.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const other = new URL(host.page.url()).pathname.split('/')[2];
  await host.page.goto(`${env.server.url}/local/${other}`);
  await host.page.waitForSelector('[data-not-local]');
  assert.equal(await host.page.locator('[data-handover], .board, [data-square]').count(), 0);
  await assertAccessible(host.page, 'not a local game');
});

test('pass and play in Japanese: the hand-over screen speaks the chosen language', async () => {
  const p = await Player.open(env.browser, 'host', `${env.server.url}/local`);
  env.players.push(p);
  await p.page.selectOption('[data-field="lang"]', 'ja');
  await p.page.waitForSelector(`[data-action="local-start"]:text("${CATALOGUES.ja['local.start']}")`);
  await p.page.fill('[data-field="local-name-1"]', 'アキ');
  await p.page.fill('[data-field="local-name-2"]', 'ユキ');
  await p.page.click('[data-action="local-start"]');
  await p.page.waitForSelector('[data-handover="1"]');
  assert.equal((await p.page.textContent('[data-handover] h1'))?.trim(), format(CATALOGUES.ja['local.handover.setup'], { name: 'アキ' }));
  assert.equal((await p.page.textContent('[data-action="handover"]'))?.trim(), CATALOGUES.ja['local.handover.tap']);
});

test('sound: moves make WebAudio tones; switched off, it stays off after a reload and plays nothing', async () => {
  const p = await Player.open(env.browser, 'host', `${env.server.url}/`);
  env.players.push(p);
  // A stand-in AudioContext that counts the oscillators started (headless Chromium has no speaker).
  // (As source text: the test's TypeScript is compiled with helpers the page does not have.)
  await p.ctx.addInitScript({ content: `
    window.__tones = 0;
    const param = () => ({ value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {} });
    const node = () => ({ frequency: param(), gain: param(), type: '', connect: (n) => n, start() { window.__tones++; }, stop() {} });
    window.AudioContext = function () {
      return { state: 'running', currentTime: 0, destination: {}, resume: () => Promise.resolve(), createOscillator: node, createGain: node };
    };` });
  await p.page.reload();
  await p.page.waitForSelector('[data-action="sound"][aria-pressed="true"]');
  const id = await startLocal(p, ['Ann', 'Ben']);
  await setUpBoth(p);
  const rnd = seeded(7);
  assert.ok(await oneTurn(p, id, rnd));
  await p.page.waitForFunction(() => (window as any).__tones > 0);

  await p.page.click('[data-action="sound"]');
  await p.page.waitForSelector('[data-action="sound"][aria-pressed="false"]');
  await p.page.reload();
  await p.page.waitForSelector('[data-action="sound"][aria-pressed="false"]');
  assert.equal(await p.page.evaluate(() => localStorage.getItem('rainet.sound')), 'off');
  const before = (await seatState(p.page, 1, id))?.v ?? -1;
  assert.ok(await oneTurn(p, id, rnd));
  await p.page.waitForFunction(([g, v]) => ((window as any).rainet.seats['1'].game(g)?.v ?? -1) > (v as number), [id, before] as const);
  assert.equal(await p.page.evaluate(() => (window as any).__tones), 0, 'sound off: no tone');

  await p.page.click('[data-action="sound"]');
  await p.page.reload();
  await p.page.waitForSelector('[data-action="sound"][aria-pressed="true"]');

  // The settings page has the same switch (phones show no header switch).
  await p.page.goto(`${env.server.url}/account`);
  assert.equal(await p.page.isChecked('[data-field="sound"]'), true);
  await p.page.uncheck('[data-field="sound"]');
  await p.page.waitForSelector('[data-action="sound"][aria-pressed="false"]');
  await p.page.setViewportSize({ width: 390, height: 844 });
  assert.equal(await p.page.isVisible('[data-action="sound"]'), false, 'no header switch on a phone');
  await p.page.reload();
  assert.equal(await p.page.isChecked('[data-field="sound"]'), false);
});
