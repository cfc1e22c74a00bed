// End to end, through the UI only: a newcomer completes every lesson of the tutorial (mistakes
// included, each explained) and lands in a game against the computer at level 1, on a laptop and on
// a phone; progress survives a reload; the rules page renders; the language follows the browser and
// the switch; no horizontal overflow; axe-core finds no serious or critical violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { en } from '../../src/i18n/en.ts';
import { ja } from '../../src/i18n/ja.ts';
import { ru } from '../../src/i18n/ru.ts';
import { LESSONS } from '../../src/lessons.ts';
import { gameIdOf, Player, useServerAndBrowser } from './harness.ts';

const env = useServerAndBrowser();
const players = env.players;
const SIZES = [{ width: 1280, height: 800, touch: false }, { width: 390, height: 844, touch: true }];

async function open(name: string, path: string, size: { width: number; height: number; touch: boolean }, locale?: string): Promise<Player> {
  const p = locale
    ? await (async () => {
        const ctx = await env.browser.newContext({ viewport: size, hasTouch: size.touch, isMobile: size.touch, locale });
        const page = await ctx.newPage();
        const pl = new Player(name, ctx, page);
        pl.touch = size.touch;
        await page.goto(`${env.server.url}${path}`);
        await page.waitForSelector('[data-conn="online"]');
        return pl;
      })()
    : await Player.open(env.browser, name, `${env.server.url}${path}`, { width: size.width, height: size.height }, size.touch);
  players.push(p);
  return p;
}

async function noHorizontalOverflow(page: Page, where: string): Promise<void> {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client, `${where}: page is ${scroll}px wide in a ${client}px window`);
}

async function axe(page: Page, where: string): Promise<void> {
  const r = await new AxeBuilder({ page }).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [], `axe on ${where}`);
}

/** Plays the tutorial's lessons by clicking (tapping on a phone), checking what each one says. */
async function completeLessons(p: Player, ids: string[], label: string): Promise<void> {
  const page = p.page;
  const press = (sel: string) => (p.touch ? page.tap(sel) : page.click(sel));
  const sq = (s: string) => press(`.learn-main [data-square="${s}"]`);
  const feedback = async () => (await page.textContent('[data-feedback]'))?.trim() ?? '';
  const phase = (id: string, step: number, ph: string) => page.waitForSelector(`[data-lesson-open="${id}"][data-step="${step}"][data-phase="${ph}"]`);
  const next = async () => {
    await press('[data-action="learn-next"]');
    // The new lesson's title (or the last panel's) takes the focus.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
  };
  const move = async (from: string, to: string) => { await sq(from); await page.waitForSelector(`[data-square="${to}"][class*="mark-"]`); await sq(to); };
  const card = async (k: string, target: string) => { await press(`button[data-tcard="${k}"]:not([disabled])`); await page.waitForSelector(`[data-square="${target}"].mark-target`); await sq(target); };
  for (const id of ids) {
    await phase(id, 0, 'play');
    await noHorizontalOverflow(page, `${label} ${id}`);
    switch (id) {
      case 'setup':
        await press('[data-action="learn-setup-confirm"]');
        assert.equal(await feedback(), en['lesson.setup.wrong'], 'confirming without a swap is explained');
        assert.equal(await page.getAttribute('[data-square="e2"] .card', 'data-card'), 'V');
        await sq('a1');
        await page.waitForSelector('[data-square="e2"].mark-target');
        await sq('e2');
        assert.equal(await page.getAttribute('[data-square="a1"] .card', 'data-card'), 'V');
        assert.equal(await page.getAttribute('[data-square="e2"] .card', 'data-card'), 'L');
        assert.equal(await page.getAttribute('[data-square="e7"] .card', 'data-card'), 'X', 'the opponent\'s setup is hidden');
        await press('[data-action="learn-setup-confirm"]');
        break;
      case 'move': {
        // The terminal cards carry their names, and their explanation as a tooltip.
        assert.deepEqual(await page.$$eval('.learn-hand [data-tcard] .tname', (els) => els.map((e) => e.textContent)), [en['card.LB.name'], en['card.FW.name'], en['card.VC.name'], en['card.NF.name']]);
        assert.equal(await page.getAttribute('.learn-hand [data-tcard="VC"]', 'title'), en['card.VC.short']);
        if (p.touch) await move('d2', 'd3');
        else {
          // By keyboard alone: focus the card, Enter, arrow up, Enter.
          await page.focus('[data-square="d2"]');
          await page.keyboard.press('Enter');
          await page.waitForSelector('[data-square="d2"].selected');
          await page.keyboard.press('ArrowUp');
          await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset?.square === 'd3');
          await page.keyboard.press('Enter');
        }
        break;
      }
      case 'capture':
        // A legal move that is not the lesson's, and an illegal click: each is explained, nothing is played.
        await move('a1', 'a2');
        assert.equal(await feedback(), en['lesson.capture.wrong']);
        await sq('d4');
        await sq('e5');
        assert.equal(await feedback(), en['why.diagonal']);
        await sq('d4'); // unselect
        await move('d4', 'd5');
        break;
      case 'exit':
        await sq('e8');
        await press('[data-server="2"].target');
        break;
      case 'lineboost':
        await card('LB', 'c3');
        await phase(id, 0, 'result');
        assert.ok((await feedback()).includes('h6-h5'), 'the opponent\'s answer is named');
        await next();
        await phase(id, 1, 'play');
        await sq('c3');
        for (const s of ['c5', 'b4', 'd4', 'a3', 'e3']) assert.match((await page.getAttribute(`[data-square="${s}"]`, 'class')) ?? '', /mark-dest2/, s);
        await sq('c5');
        await phase(id, 1, 'result');
        break;
      case 'firewall':
        await card('FW', 'e4');
        await phase(id, 0, 'result');
        await next();
        await phase(id, 1, 'play');
        await move('e3', 'e4');
        await phase(id, 1, 'result');
        assert.equal(await page.getAttribute('[data-square="e4"] .card', 'data-card'), 'L');
        break;
      case 'viruschecker':
        await press('button[data-tcard="VC"]:not([disabled])');
        assert.ok((await feedback()).startsWith(en['card.VC.short']), 'picking a card explains it');
        await page.waitForSelector('[data-square="d5"].mark-target');
        await sq('d5');
        await phase(id, 0, 'result');
        assert.ok((await feedback()).startsWith('The card on d5 is a link.'), await feedback());
        assert.equal(await page.getAttribute('[data-square="d5"] .card', 'data-card'), 'L');
        break;
      case 'notfound':
        assert.ok(await page.$('[data-square="d4"] .card.faceup'), 'd4 starts face up');
        await press('button[data-tcard="NF"]:not([disabled])');
        await sq('d4');
        await page.waitForSelector('[data-square="e2"].mark-target');
        await sq('e2');
        await p.shot(`learn-nf-${label}`);
        await press('[data-nf="swap"]');
        await phase(id, 0, 'result');
        assert.equal(await page.$('[data-square="d4"] .card.faceup'), null, 'd4 is face down again');
        assert.equal(await page.getAttribute('[data-square="d4"] .card', 'data-card'), 'V', 'swapped: the owner sees a virus on d4');
        break;
      case 'win':
        await sq('d8');
        await press('[data-server="2"].target');
        await phase(id, 0, 'result');
        assert.ok((await feedback()).startsWith(en['learn.youWin']));
        break;
      case 'lose':
        await move('d4', 'd5');
        await phase(id, 0, 'trap');
        assert.equal(await feedback(), `${en['learn.youLose']} ${en['lesson.lose.trap']}`);
        await p.shot(`learn-trap-${label}`);
        await press('[data-action="learn-retry"]');
        await phase(id, 0, 'play');
        await move('d4', 'c4');
        break;
    }
    await phase(id, Math.max(0, LESSONS.find((l) => l.id === id)!.steps.length - 1), 'result');
    await page.waitForSelector('[data-feedback="ok"]');
    await page.waitForSelector(`[data-lesson="${id}"].complete`);
    await next();
  }
}

for (const size of SIZES) {
  test(`a newcomer completes every lesson and lands in a game against level 1 (${size.width}x${size.height})`, async () => {
    const p = await open(`learner${size.width}`, '/learn', size);
    const page = p.page;
    await completeLessons(p, LESSONS.slice(0, 3).map((l) => l.id), `${size.width}`);
    // Progress is remembered: a reload opens the first lesson not done.
    await page.reload();
    await page.waitForSelector(`[data-lesson-open="${LESSONS[3].id}"][data-phase="play"]`);
    assert.equal(await page.locator('.learn-item.complete').count(), 3);
    await p.shot(`learn-${LESSONS[3].id}-${size.width}`);
    await axe(page, `/learn ${size.width}`);
    await completeLessons(p, LESSONS.slice(3).map((l) => l.id), `${size.width}`);
    await page.waitForSelector('[data-learn-finish]');
    await noHorizontalOverflow(page, `${size.width} finish`);
    assert.ok(await page.isVisible('[data-action="learn-play"]'));
    await p.shot(`learn-finish-${size.width}`);
    await axe(page, `/learn finish ${size.width}`);
    await page.reload();
    await page.waitForSelector('[data-learn-finish]');
    assert.equal(await page.locator('.learn-item.complete').count(), LESSONS.length);
    // The first game: the weakest computer, the learner moving first.
    await (p.touch ? page.tap('[data-action="learn-play"]') : page.click('[data-action="learn-play"]'));
    await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
    const id = gameIdOf(page);
    await page.waitForFunction((g) => (window as any).rainet.client.game(g) !== null, id);
    const s = await p.game(id);
    assert.equal(s.opponent, 'computer');
    assert.equal(s.level, 1);
    assert.equal(s.you, '1');
    assert.equal(s.preset, 'standard');
    await p.ctx.close();
  });

  test(`the rules page renders with the board, the four terminal cards and the presets (${size.width}x${size.height})`, async () => {
    const p = await open(`reader${size.width}`, '/rules', size);
    const page = p.page;
    await page.waitForSelector('[data-page="rules"]');
    assert.equal(await page.textContent('h1'), en['rules.title']);
    assert.equal(await page.locator('.rules-board [data-square]').count(), 64);
    assert.deepEqual(await page.$$eval('[data-rule-card] h3', (els) => els.map((e) => e.textContent)), [en['card.LB.name'], en['card.FW.name'], en['card.VC.name'], en['card.NF.name']]);
    assert.equal(await page.locator('[data-cardpic]').count(), 4);
    // The boosted link's figure marks exactly the squares the engine allows it.
    assert.deepEqual((await page.$$eval('[data-figure="lineboost"] .mark-dest2', (els) => els.map((e) => (e as HTMLElement).dataset.square))).sort(), ['a3', 'b2', 'b4', 'c1', 'c5', 'd4', 'e3']);
    assert.deepEqual((await page.$$eval('[data-figure="lineboost"] .mark-dest', (els) => els.map((e) => (e as HTMLElement).dataset.square))).sort(), ['b3', 'c2', 'c4', 'd3']);
    assert.equal(await page.locator('table.presets tbody tr').count(), 5);
    await noHorizontalOverflow(page, `rules ${size.width}`);
    await p.shot(`rules-${size.width}`);
    await axe(page, `/rules ${size.width}`);
    // The link to the lessons works inside the app.
    await (p.touch ? page.tap('[data-learn-link]') : page.click('[data-learn-link]'));
    await page.waitForSelector('[data-page="learn"]');
    await p.ctx.close();
  });
}

test('the language follows the browser, the switch changes it and it is remembered', async () => {
  // A Russian browser gets Russian.
  const r = await open('ivan', '/rules', SIZES[0], 'ru-RU');
  assert.equal(await r.page.textContent('h1'), ru['rules.title']);
  assert.equal(await r.page.getAttribute('html', 'lang'), 'ru');
  await r.ctx.close();

  const p = await open('polyglot', '/rules', SIZES[0]);
  const page = p.page;
  assert.equal(await page.textContent('h1'), en['rules.title']);
  await page.selectOption('[data-field="lang"]', 'ja');
  await page.waitForFunction((t) => document.querySelector('h1')?.textContent === t, ja['rules.title']);
  assert.equal(await page.getAttribute('html', 'lang'), 'ja');
  assert.equal(await page.textContent('[data-rule-card="VC"] h3'), ja['card.VC.name']);
  await p.shot('rules-ja');
  // Remembered across a reload and on the tutorial.
  await page.reload();
  await page.waitForSelector('[data-page="rules"]');
  assert.equal(await page.textContent('h1'), ja['rules.title']);
  await page.goto(`${env.server.url}/learn/capture`);
  await page.waitForSelector('[data-lesson-open="capture"]');
  assert.equal(await page.textContent('.learn-main h1'), ja['lesson.capture.title']);
  assert.equal(await page.textContent('.learn-task'), ja['lesson.capture.task']);
  await p.shot('learn-ja');
  // Switching in the middle of a lesson keeps its state and translates what is shown.
  await page.click('[data-square="d4"]');
  await page.click('[data-square="e5"]');
  assert.equal((await page.textContent('[data-feedback]'))?.trim(), ja['why.diagonal']);
  await page.selectOption('[data-field="lang"]', 'ru');
  await page.waitForFunction((t) => document.querySelector('.learn-main h1')?.textContent === t, ru['lesson.capture.title']);
  assert.equal(await page.textContent('.learn-task'), ru['lesson.capture.task']);
  assert.equal((await page.textContent('[data-feedback]'))?.trim(), ru['why.diagonal']);
  await axe(page, '/learn in Russian');
  await page.selectOption('[data-field="lang"]', 'en');
  await page.waitForFunction((t) => document.querySelector('.learn-main h1')?.textContent === t, en['lesson.capture.title']);
  await p.ctx.close();
});

test('the Japanese and Russian pages fit a phone', async () => {
  for (const locale of ['ja-JP', 'ru-RU']) {
    const p = await open(`phone-${locale}`, '/rules', SIZES[1], locale);
    await p.page.waitForSelector('[data-page="rules"]');
    assert.equal(await p.page.getAttribute('html', 'lang'), locale.slice(0, 2));
    await noHorizontalOverflow(p.page, `/rules ${locale}`);
    for (const l of LESSONS) {
      await p.page.goto(`${env.server.url}/learn/${l.id}`);
      await p.page.waitForSelector(`[data-lesson-open="${l.id}"]`);
      await noHorizontalOverflow(p.page, `/learn/${l.id} ${locale}`);
    }
    await p.shot(`learn-phone-${locale}`);
    await p.ctx.close();
  }
});
