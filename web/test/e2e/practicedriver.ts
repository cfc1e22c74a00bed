// Driving /practice through its UI, shared by the practice and offline suites.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { chooseAction } from './harness.ts';
import type { Side } from '../../src/view.ts';

/** The game kept in localStorage (`rainet.practice`). */
export const stored = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('rainet.practice') ?? 'null'));

/** Waits for the player's turn, a hand-over or the end; returns which. */
export async function settled(page: Page): Promise<'turn' | 'over' | 'handover'> {
  await page.waitForSelector(['turn', 'over', 'handover'].map((s) => `main.practice[data-practice="${s}"]`).join(', '), { timeout: 60000 });
  return (await page.getAttribute('main.practice', 'data-practice')) as 'turn' | 'over' | 'handover';
}

/** One action of the player through the page's list of legal actions. */
export async function playOne(page: Page, rnd: () => number): Promise<void> {
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
