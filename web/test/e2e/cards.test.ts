// End to end, in a real game against the computer: the terminal cards of both player bars show
// their picture and translated name, with the explanation (and, when the player can play one, what
// playing it does) as tooltip and accessible description, and in the hint while a card is picked;
// the language switch on the game screen redraws the screen in Japanese and Russian, remembered
// across a reload, up to the end of the game in words and its replay; the home page's switch and the
// other screens (leaderboard, account page and its switch, a player's page) following it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { en } from '../../src/i18n/en.ts';
import { ja } from '../../src/i18n/ja.ts';
import { ru } from '../../src/i18n/ru.ts';
import { format } from '../../src/i18n.ts';
import { gameIdOf, play, Player, useServerAndBrowser, waitTurn } from './harness.ts';

const env = useServerAndBrowser();
const KINDS = ['LB', 'FW', 'VC', 'NF'] as const;

/** The accessible name and description Chromium computes for each terminal-card button of a hand. */
async function accessibleCards(page: Page): Promise<Record<string, { name: string; description: string }>> {
  const cdp = await page.context().newCDPSession(page);
  const ids = await page.$$eval('[data-hand="1"] button[data-tcard]', (els) => els.map((e) => (e as HTMLElement).dataset.tcard!));
  const out: Record<string, { name: string; description: string }> = {};
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  for (const k of ids) {
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `[data-hand="1"] button[data-tcard="${k}"]` });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const n = nodes[0] as { name?: { value: string }; description?: { value: string } };
    out[k] = { name: n.name?.value ?? '', description: n.description?.value ?? '' };
  }
  await cdp.detach();
  return out;
}

const texts = (page: Page, sel: string) => page.$$eval(sel, (els) => els.map((e) => e.textContent?.trim() ?? ''));

/** A game against the computer as side 1, set up and at the player's first turn. */
async function computerGame(p: Player): Promise<string> {
  await p.page.check('[data-field="side-1"]');
  await p.page.click('[data-action="play-computer"]');
  await p.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(p.page);
  await p.page.click('[data-action="setup-confirm"]');
  await waitTurn(p, id);
  await p.page.waitForSelector('[data-hand="1"] button[data-tcard="LB"]:not([disabled])');
  return id;
}

test('a player sees the terminal cards with pictures, names and explanations in a real game', async () => {
  const p = await Player.open(env.browser, 'Cardia', `${env.server.url}/`, { width: 1280, height: 800 });
  env.players.push(p);
  const id = await computerGame(p);
  const page = p.page;

  // Both bars: the four cards by name, each with its picture, in the order of the rules.
  for (const side of ['1', '2']) {
    assert.deepEqual(await texts(page, `[data-hand="${side}"] [data-tcard] .tname`), KINDS.map((k) => en[`card.${k}.name`]));
    assert.deepEqual(await page.$$eval(`[data-hand="${side}"] [data-tcard]`, (els) => els.map((e) => e.querySelector('[data-cardpic]')?.getAttribute('data-cardpic'))), [...KINDS]);
  }
  // The computer's cards explain themselves; the player's also say how to play them now.
  assert.equal(await page.getAttribute('[data-hand="2"] [data-tcard="VC"]', 'title'), en['card.VC.short']);
  const playable = (k: (typeof KINDS)[number]) => `${en[`card.${k}.short`]} ${k === 'LB' || k === 'FW' ? en[`game.card.play.${k}.hand`] : en[`game.card.play.${k}`]}`;
  for (const k of KINDS) assert.equal(await page.getAttribute(`[data-hand="1"] [data-tcard="${k}"]`, 'title'), playable(k));
  // What a screen reader announces: the visible name, then the explanation.
  const ax = await accessibleCards(page);
  for (const k of KINDS) {
    assert.equal(ax[k].name, en[`card.${k}.name`], k);
    assert.equal(ax[k].description, playable(k), k);
  }

  // Picking LINE BOOST shows what it does on screen (touch screens have no tooltips).
  await page.click('[data-hand="1"] button[data-tcard="LB"]');
  await page.waitForSelector('[data-hint="LB"]');
  assert.equal(await page.textContent('[data-hint-explain="LB"]'), ` ${en['card.LB.short']}`);
  assert.ok(await page.isVisible('[data-hint-explain="LB"]'));

  // Played on d2, the card says where it is and, on the next turn, how to take it back.
  await page.keyboard.press('Escape');
  await play(p, id, 'LB+d2', 1);
  await waitTurn(p, id);
  await page.waitForSelector('[data-hand="1"] button[data-tcard="LB"]:not([disabled])');
  assert.equal(await page.textContent('[data-hand="1"] [data-tcard="LB"] .where'), format(en['card.state.board'], { square: 'd2' }));
  assert.equal(await page.getAttribute('[data-hand="1"] [data-tcard="LB"]', 'title'), `${en['card.LB.short']} ${format(en['game.card.play.LB.board'], { square: 'd2' })}`);
  assert.deepEqual(await axeLike(page), []);
});

/** Every card button's accessible name contains its visible text (axe's label-content-name-mismatch). */
async function axeLike(page: Page): Promise<string[]> {
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  const r = await new AxeBuilder({ page }).include('[data-hand]').analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

test('the language switch on the game screen redraws it in Japanese and Russian, remembered, to the end in words', async () => {
  const p = await Player.open(env.browser, 'Lingua', `${env.server.url}/`, { width: 1280, height: 800 });
  env.players.push(p);
  const id = await computerGame(p);
  const page = p.page;
  assert.equal(await page.textContent('[data-turn="me"]'), en['game.status.yourTurn']);
  assert.equal(await page.textContent('[data-action="resign"]'), en['game.resign']);

  await page.selectOption('.game [data-field="lang"]', 'ja');
  await page.waitForFunction((t) => document.querySelector('[data-turn="me"]')?.textContent === t, ja['game.status.yourTurn']);
  assert.equal(await page.getAttribute('html', 'lang'), 'ja');
  assert.equal(await page.textContent('[data-action="resign"]'), ja['game.resign']);
  assert.deepEqual(await texts(page, '[data-hand="1"] [data-tcard] .tname'), KINDS.map((k) => ja[`card.${k}.name`]));
  assert.equal(await page.getAttribute('[data-hand="2"] [data-tcard="NF"]', 'title'), ja['card.NF.short']);
  assert.equal(await page.textContent('[data-server="1"] .srv-label'), ja['board.server.mine']);
  assert.equal(await page.textContent('.chat h2'), ja['game.chat']);
  assert.equal(await page.textContent('[data-nav="leaderboard"]'), ja['nav.leaderboard']);

  // Remembered: a reload shows the game in Japanese again.
  await page.reload();
  await page.waitForFunction((t) => document.querySelector('[data-turn="me"]')?.textContent === t, ja['game.status.yourTurn']);

  // Russian, then resign: the end of the game in words in Russian.
  await page.selectOption('.game [data-field="lang"]', 'ru');
  await page.waitForFunction((t) => document.querySelector('[data-action="resign"]')?.textContent === t, ru['game.resign']);
  assert.equal(await page.textContent('.hint'), ru['game.hint.pick']);
  await page.click('[data-action="resign"]');
  await page.click('[data-action="resign-confirm"]');
  await page.waitForSelector('[data-overlay="end"]');
  assert.equal(await page.textContent('[data-overlay="end"] .result'), ru['end.youLose']);
  assert.equal(await page.textContent('[data-overlay="end"] .reason'), format(ru['end.reason'], { why: 'Вы сдались' }));

  // Back to English: the same overlay in English.
  await page.selectOption('.game [data-field="lang"]', 'en');
  await page.waitForFunction((t) => document.querySelector('[data-overlay="end"] .result')?.textContent === t, en['end.youLose']);
  assert.equal(await page.textContent('[data-overlay="end"] .reason'), 'You resigned.');

  // The replay of that game, in the language remembered: Japanese.
  await page.evaluate(() => localStorage.setItem('rainet.lang', 'ja'));
  await page.goto(`${env.server.url}/replay/${id}`);
  await page.waitForSelector('[data-replay-ply]');
  assert.equal(await page.textContent('[data-replay-ply]'), format(ja['replay.start'], { total: 0 }));
  assert.equal(await page.textContent('[data-action="download-record"]'), ja['replay.download']);
  assert.equal(await page.textContent('.replay .endpanel .reason'), format(ja['end.reason'], { why: format(ja['end.why.resign.watch'], { loser: 'Lingua' }) }));
  assert.deepEqual(await texts(page, '[data-hand="1"] [data-tcard] .tname'), KINDS.map((k) => ja[`card.${k}.name`]));
});

test('the home page switches language: the four ways in, the custom game form and the lists', async () => {
  const p = await Player.open(env.browser, 'Hermes', `${env.server.url}/`, { width: 1280, height: 800 });
  env.players.push(p);
  const page = p.page;
  assert.equal(await page.textContent('[data-action="play-computer"] .big-title'), en['home.computer']);
  await page.check('[data-field="preset-official"]');
  await page.selectOption('.hero [data-field="lang"]', 'ru');
  await page.waitForFunction((t) => document.querySelector('[data-action="play-computer"] .big-title')?.textContent === t, ru['home.computer']);
  assert.equal(await page.textContent('.lead b.l'), ru['home.lead.links']);
  assert.equal(await page.textContent('form.create h2'), ru['home.custom']);
  assert.equal(await page.textContent('[data-action="create"]'), ru['home.create']);
  assert.equal(await page.textContent('[data-nav="rules"]'), ru['nav.rules']);
  // The form's choices survive the redraw.
  assert.equal(await page.isChecked('[data-field="preset-official"]'), true);
  await page.selectOption('.hero [data-field="lang"]', 'ja');
  await page.waitForFunction((t) => document.querySelector('[data-action="create"]')?.textContent === t, ja['home.create']);
  assert.equal(await page.textContent('[data-action="learn"] .big-title'), ja['nav.learn']);
  // The other screens follow: the leaderboard, the player's page, the account page and its switch.
  await page.click('[data-nav="leaderboard"]');
  await page.waitForSelector('[data-leaderboard]');
  assert.equal(await page.textContent('[data-leaderboard] h2'), ja['nav.leaderboard']);
  await page.click('[data-nav="account"]');
  await page.waitForSelector('h1.page-title');
  assert.equal(await page.textContent('h1.page-title'), ja['account.title']);
  assert.equal(await page.textContent('[data-action="login"]'), ja['account.login']);
  await page.selectOption('.settings [data-field="lang"]', 'ru');
  await page.waitForFunction((t) => document.querySelector('h1.page-title')?.textContent === t, ru['account.title']);
  assert.equal(await page.textContent('.account h2'), ru['account.account']);
  const me = await page.evaluate(() => (window as any).rainet.client.player.id);
  await page.goto(`${env.server.url}/player/${me}`);
  // A guest that has not played is not stored (lazy guests): its page says so, in Russian.
  await page.waitForSelector('[data-error]');
  assert.equal(await page.textContent('[data-error]'), format(ru['players.unknown'], { id: me }));
  await page.goto(`${env.server.url}/`);
  await page.selectOption('.hero [data-field="lang"]', 'en');
  await page.waitForFunction((t) => document.querySelector('[data-action="create"]')?.textContent === t, en['home.create']);
});
