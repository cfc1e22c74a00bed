// Screenshots of each main screen at 1280x800 (desktop) and 390x844 (phone, touch), as a player sees
// them (the viewport, not the whole page), into docs/screenshots/. Run: npm run screenshots (needs
// ../build/rainet and a built dist/, like the end-to-end tests).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { chooseAction, gameIdOf, launch, play, Player, REPO, seeded, Server, waitTurn } from '../test/e2e/harness.ts';
import type { Side } from '../src/view.ts';

const OUT = join(REPO, 'docs', 'screenshots');
const SIZES = { desktop: { width: 1280, height: 800, touch: false }, phone: { width: 390, height: 844, touch: true } } as const;

async function still(page: Page): Promise<void> {
  // No blinking caret or running animation in a committed picture.
  await page.addStyleTag({ content: '*, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }' });
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const server = await Server.start();
  const browser = await launch();
  try {
    for (const [kind, size] of Object.entries(SIZES)) {
      const shot = async (p: Player, name: string) => {
        await still(p.page);
        await p.page.screenshot({ path: join(OUT, `${name}-${kind}.png`) });
        console.log(`docs/screenshots/${name}-${kind}.png`);
      };
      const view = { width: size.width, height: size.height };
      const alice = await Player.open(browser, 'Alice', `${server.url}/`, view, size.touch);
      const bob = await Player.open(browser, 'Bob', `${server.url}/`, { width: 1280, height: 800 });
      await shot(alice, 'home');
      // A game with a friend: setup, play, a spectator, the end, the replay.
      await alice.page.check('[data-field="side-1"]');
      await alice.page.selectOption('[data-field="clock"]', '5+3');
      await alice.page.click('[data-action="play-friend"]');
      await alice.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
      const id = gameIdOf(alice.page);
      await alice.page.waitForSelector('[data-invite]');
      await shot(alice, 'invite');
      await bob.page.goto(`${server.url}/game/${id}`);
      await bob.page.click('[data-action="join"]');
      await alice.page.waitForSelector('[data-action="setup-confirm"]');
      await alice.page.click('[data-action="setup-random"]');
      await shot(alice, 'setup');
      await alice.page.click('[data-action="setup-confirm"]');
      await bob.page.click('[data-action="setup-random"]');
      await bob.page.click('[data-action="setup-confirm"]');
      const carol = await Player.open(browser, 'Carol', `${server.url}/game/${id}`, view, size.touch);
      const turns = new Map<Side, Player>([[1, alice], [2, bob]]);
      const rnd = seeded(5);
      let side: Side = 1;
      for (let i = 0; i < 400; i++) {
        const p = turns.get(side)!;
        const s = await waitTurn(p, id);
        if (s.status !== 'playing') break;
        if (i === 14) {
          // Alice's turn, a card picked: where it may go is shown.
          const from = (s.legal as string[]).find((a) => /^[a-h][1-8]-[a-h][1-8]$/.test(a))!.slice(0, 2);
          await (size.touch ? alice.page.tap(`[data-square="${from}"]`) : alice.page.click(`[data-square="${from}"]`));
          await shot(alice, 'play');
          await shot(carol, 'spectator');
          await (size.touch ? alice.page.tap(`[data-square="${from}"]`) : alice.page.click(`[data-square="${from}"]`));
        }
        await play(p, id, chooseAction(s.view, s.legal, side, rnd), side);
        side = side === 1 ? 2 : 1;
      }
      await alice.page.waitForSelector('[data-overlay="end"]');
      await shot(alice, 'end');
      await alice.page.click('[data-action="see-board"]');
      await shot(alice, 'end-board');
      await alice.page.click('[data-action="replay"]');
      await alice.page.waitForSelector(`[data-replay="${id}"]`);
      const n = (await (await fetch(`${server.url}/api/games/${id}`)).json()).actions.length;
      for (let i = 0; i < Math.floor(n / 2); i++) await alice.page.keyboard.press('ArrowRight');
      await alice.page.waitForSelector(`[data-replay="${id}"][data-ply="${Math.floor(n / 2)}"]`);
      await shot(alice, 'replay');
      // The analysis of the same game for Alice, at the same ply (on a phone the panel is under
      // the board: scrolled to).
      await alice.page.click('[data-action="analysis"]');
      await alice.page.waitForSelector('[data-analysis="ready"]', { timeout: 120000 });
      await alice.page.evaluate(() => document.querySelector('[data-analysis]')?.scrollIntoView({ block: 'start' }));
      await shot(alice, 'analysis');
      await alice.page.goto(`${server.url}/account`);
      await alice.page.waitForSelector('[data-account]');
      await shot(alice, 'account');
      await alice.page.goto(`${server.url}/leaderboard`);
      await alice.page.waitForSelector('[data-leaderboard]');
      await shot(alice, 'leaderboard');
      // Pass and play: the hand-over screen between two turns.
      await alice.page.goto(`${server.url}/local`);
      await alice.page.fill('[data-field="local-name-1"]', 'Alice');
      await alice.page.fill('[data-field="local-name-2"]', 'Bob');
      await alice.page.click('[data-action="local-start"]');
      await alice.page.waitForSelector('[data-handover="1"]');
      await shot(alice, 'handover');
      for (const p of [alice, bob, carol]) await p.ctx.close();
    }
  } finally {
    await browser.close();
    await server.dispose();
  }
}

await main();
