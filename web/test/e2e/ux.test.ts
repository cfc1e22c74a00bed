// End to end, as a new user sees it: the game screen fits the window at four sizes (nothing a
// player needs below the fold), the home page's first screen, the live game's controls (flip,
// browse, confirmations, the computer answering a draw offer), the end in words, the lobby's lists,
// coordinates, touch screens, and axe-core on every page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Side } from '../../src/view.ts';
import { allLeaks } from './leaks.ts';
import { assertAccessible, gameIdOf, offscreen, play, Player, settle, useServerAndBrowser, waitTurn } from './harness.ts';

const env = useServerAndBrowser();
const players = env.players;

const SIZES = [
  { width: 1280, height: 800, touch: false },
  { width: 1366, height: 768, touch: false },
  { width: 1920, height: 1080, touch: false },
  { width: 390, height: 844, touch: true },
];

async function open(name: string, path = '/', size = { width: 1280, height: 800, touch: false }): Promise<Player> {
  const p = await Player.open(env.browser, name, `${env.server.url}${path}`, { width: size.width, height: size.height }, size.touch);
  players.push(p);
  return p;
}

let inviteChecked = false;

/** Creates an invite game as side 1 with a clock; the friend joins; both set up. */
async function friendGame(a: Player, b: Player): Promise<string> {
  await a.page.goto(`${env.server.url}/`);
  await a.page.check('[data-field="side-1"]');
  await a.page.selectOption('[data-field="clock"]', '10+5');
  await a.page.click('[data-action="play-friend"]');
  await a.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(a.page);
  await a.page.waitForSelector('[data-invite]');
  if (!inviteChecked) {
    inviteChecked = true;
    await assertAccessible(a.page, 'the invite page');
  }
  await b.page.goto(`${env.server.url}/game/${id}`);
  await b.page.click('[data-action="join"]');
  await a.page.waitForSelector('[data-status="setup"] [data-action="setup-confirm"]');
  return id;
}

const firstSquare = (p: Player) => p.page.$eval('.board [data-square]', (e) => (e as HTMLElement).dataset.square);

// WCAG contrast of an element's text against the page's base colour (what stands behind the
// coordinates). A string, so that the bundler adds no helper the page does not have.
const CONTRAST = `(e) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const fg = lum(rgb(getComputedStyle(e).color));
  const bg = lum(rgb(getComputedStyle(document.body).backgroundColor));
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}`;

async function contrast(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (e, src) => (0, eval)(src)(e), CONTRAST);
}

test('the game screen fits the window: board, both bars, clocks, controls, Confirm and offers without scrolling, at four sizes', async () => {
  const bob = await open('bob');
  for (const size of SIZES) {
    const tag = `${size.width}x${size.height}`;
    const alice = await open('Alexandria_Longname', '/', size);
    // The home page's first screen offers the four ways in, large, and the header holds the rest.
    assert.deepEqual(await offscreen(alice.page, ['[data-action="play-computer"]', '[data-action="play-friend"]', '[data-action="seek"]', '[data-action="learn"]', '#hero-title', '[data-nav="rules"]', '[data-nav="account"]'], true), [], `home at ${tag}`);
    const header = await alice.page.$eval('header.top', (e) => ({ h: e.getBoundingClientRect().height, name: (e.querySelector('.me a') as HTMLElement).getBoundingClientRect().height }));
    assert.ok(header.h <= 52 && header.name <= 24, `the header is one line at ${tag}: ${JSON.stringify(header)}`);
    const id = await friendGame(alice, bob);
    // Setup: the board, both bars with their terminal cards, both clocks and Confirm.
    const needed = ['.board', '[data-player="1"]', '[data-player="2"]', '[data-hand="1"]', '[data-hand="2"]', '[data-clock="1"]', '[data-clock="2"]', '[data-server="1"]', '[data-server="2"]'];
    assert.deepEqual(await offscreen(alice.page, [...needed, '[data-action="setup-confirm"]', '[data-action="setup-random"]', '[data-action="abort"]']), [], `setup at ${tag}`);
    assert.equal(await alice.page.$('[data-action="resign"]'), null, 'no resign button during setup (abort instead)');
    if (size.width === 1280 || size.width === 390) await assertAccessible(alice.page, `the setup at ${tag}`);
    await alice.page.click('[data-action="setup-confirm"]');
    await bob.page.click('[data-action="setup-random"]');
    await bob.page.click('[data-action="setup-confirm"]');
    await waitTurn(alice, id);
    // Play: the move controls too; a draw offer from the opponent shows with its buttons.
    await play(alice, id, 'b1-b2', 1);
    await waitTurn(bob, id);
    await bob.page.click('[data-action="draw-offer"]');
    await bob.page.click('[data-action="draw-confirm"]');
    await alice.page.waitForSelector('[data-draw-offer="2"]');
    assert.deepEqual(await offscreen(alice.page, [...needed, '[data-action="draw-accept"]', '[data-action="draw-decline"]', '[data-draw-offer]', '[data-action="resign"]', '[data-action="flip"]', '[data-nav="prev"]', '[data-nav="live"]', '.coords.ranks span', '.coords.files span']), [], `play at ${tag}`);
    // A wide screen has room for the chat beside the board too.
    if (size.width >= 1700) assert.deepEqual(await offscreen(alice.page, ['[data-chat-input]', '[data-history]']), [], `chat at ${tag}`);
    // Coordinates: readable and never under a card.
    assert.ok(await contrast(alice.page, '.coords.files span') >= 4.5, 'coordinate contrast of at least 4.5:1');
    const covered = await alice.page.evaluate(() => {
      const cards = [...document.querySelectorAll('.board .card')].map((c) => c.getBoundingClientRect());
      return [...document.querySelectorAll('.coords span')].filter((s) => {
        const r = s.getBoundingClientRect();
        return cards.some((c) => r.left < c.right && r.right > c.left && r.top < c.bottom && r.bottom > c.top);
      }).length;
    });
    assert.equal(covered, 0, 'no coordinate is under a card');
    // Keyboard hints only where there is a keyboard.
    const kbdShown = await alice.page.$$eval('.kbd', (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length);
    if (size.touch) assert.equal(kbdShown, 0, 'no keyboard hint on a touch screen');
    else assert.ok(kbdShown > 0, 'keyboard hints on a desktop');
    assert.doesNotMatch(await alice.page.textContent('main') ?? '', /legal actions/, 'no debug figures');
    if (size.width === 1280 || size.width === 390) await assertAccessible(alice.page, `the game page at ${tag}`);
    await alice.page.click('[data-action="draw-decline"]');
    await bob.page.waitForSelector('[data-draw-declined="1"]');
    await alice.page.click('[data-action="abort"]'); // one ply each at most: abort is still offered
    await alice.page.waitForSelector('[data-overlay="end"]');
    await alice.ctx.close();
  }
});

test('a live game: flip for players and spectators, browse earlier positions, confirmations, last move, announcements, the end in words', async () => {
  const alice = await open('Alice');
  const bob = await open('Bob', '/', { width: 390, height: 844, touch: true });
  const id = await friendGame(alice, bob);
  const carol = await open('Carol', `/game/${id}`);
  await alice.page.click('[data-action="setup-confirm"]');
  await bob.page.click('[data-action="setup-random"]');
  await bob.page.click('[data-action="setup-confirm"]');
  for (const p of [alice, bob, carol]) await p.page.waitForSelector('[data-status="playing"]');
  // Flip: the spectator starts with side 1 at the bottom and can turn the board; so can a player.
  assert.equal(await firstSquare(carol), 'a8');
  await carol.page.click('[data-action="flip"]');
  assert.equal(await firstSquare(carol), 'h1');
  assert.equal(await firstSquare(bob), 'h1');
  await bob.page.tap('[data-action="flip"]');
  assert.equal(await firstSquare(bob), 'a8');
  await bob.page.tap('[data-action="flip"]');
  await assertAccessible(carol.page, 'the spectator\'s game page');

  const moves: [Player, string, Side][] = [[alice, 'b1-b2', 1], [bob, 'g8-g7', 2], [alice, 'b2-b3', 1], [bob, 'g7-g6', 2]];
  for (const [p, a, side] of moves) {
    await waitTurn(p, id);
    await play(p, id, a, side);
  }
  const s = await alice.game(id);
  await settle(carol, id, s.v);
  await settle(bob, id, s.v);
  // The last move: its two squares lit, and nothing else.
  for (const p of [alice, carol]) {
    assert.deepEqual((await p.page.$$eval('.sq.last', (els) => els.map((e) => (e as HTMLElement).dataset.square))).sort(), ['g6', 'g7']);
    assert.equal(await p.page.getAttribute('[data-square="g7"]', 'class').then((c) => /last-from/.test(c ?? '')), true);
  }
  // No outline left behind after a tapped move: no square but the last move's shows a ring.
  const rings = await bob.page.$$eval('.board .sq', (els) => els.filter((e) => !e.classList.contains('last') && getComputedStyle(e, '::after').boxShadow !== getComputedStyle(els.find((x) => !x.classList.contains('last') && !x.querySelector('.card'))!, '::after').boxShadow && !e.classList.contains('exit')).map((e) => (e as HTMLElement).dataset.square));
  assert.deepEqual(rings, [], 'no ring left on any square after a move');
  // Each move is read out in words.
  assert.equal(await alice.page.textContent('[data-announce]'), 'Bob moves g7 to g6');
  assert.equal(await bob.page.textContent('[data-announce]'), 'You move g7 to g6');

  // Browse: back two actions, the board shows what this player saw then; the game goes on meanwhile.
  await alice.page.click('[data-nav="prev"]');
  await alice.page.click('[data-nav="prev"]');
  await alice.page.waitForSelector('[data-browsing="2"]');
  assert.equal(await alice.page.getAttribute('[data-square="b2"] .card', 'data-card'), 'L', 'after two actions the link stood on b2');
  assert.equal(await alice.page.$('[data-square="b3"] .card'), null);
  assert.equal(new URL(alice.page.url()).pathname, `/game/${id}`, 'still in the game');
  await alice.page.click('[data-action="back-to-game"]');
  await alice.page.waitForSelector('[data-square="b3"] .card');
  assert.equal(await alice.page.$('[data-browsing]'), null);
  // A reload keeps what this tab saw: the first position is still there to look at.
  await alice.page.reload();
  await alice.page.waitForSelector('[data-status="playing"]');
  await alice.page.click('[data-nav="first"]');
  await alice.page.waitForSelector('[data-browsing="0"]');
  assert.equal(await alice.page.getAttribute('[data-square="b1"] .card', 'data-card'), 'L');
  await alice.page.click('[data-nav="live"]');
  await alice.page.waitForSelector('[data-square="b3"] .card');

  // A draw offer and resigning each take a confirmation; "No" changes nothing.
  await alice.page.click('[data-action="draw-offer"]');
  await alice.page.click('[data-confirm="draw"] [data-action="confirm-cancel"]');
  await alice.page.click('[data-action="resign"]');
  await alice.page.waitForSelector('[data-confirm="resign"]');
  assert.equal((await alice.game(id)).drawOffer, null, 'no draw was offered');
  await alice.page.click('[data-action="confirm-cancel"]');
  assert.equal((await alice.game(id)).status, 'playing');
  // Bob resigns: the end in words with names, for both players and the spectator.
  await bob.page.tap('[data-action="resign"]');
  await bob.page.tap('[data-action="resign-confirm"]');
  const end = async (p: Player) => {
    await p.page.waitForSelector('[data-overlay="end"]');
    return `${await p.page.textContent('[data-overlay="end"] .result')}: ${await p.page.textContent('[data-overlay="end"] .reason')}`;
  };
  assert.equal(await end(alice), 'You win: Bob resigned.');
  assert.equal(await end(bob), 'You lose: You resigned.');
  assert.equal(await end(carol), 'Alice wins: Bob resigned.');
  await assertAccessible(carol.page, 'the end dialog');
  await alice.page.click('[data-action="see-board"]');
  // Labels stay true after the game.
  assert.match(await alice.page.textContent('[data-server="1"]') ?? '', /your server/i);
  assert.match(await alice.page.textContent('[data-server="2"]') ?? '', /opponent's server/i);
  assert.match(await carol.page.textContent('[data-server="2"]') ?? '', /Bob's server/i);
  await assertAccessible(alice.page, 'the finished game page');
  // The replay: the current action marked and the controls on screen, on a laptop and a phone.
  for (const p of [carol, bob]) {
    await p.page.goto(`${env.server.url}/replay/${id}`);
    await p.page.waitForSelector(`[data-replay="${id}"][data-ply="0"]`);
    await p.page.click('[data-nav="next"]');
    await p.page.click('[data-nav="next"]');
    await p.page.waitForSelector(`[data-replay="${id}"][data-ply="2"]`);
    assert.equal(await p.page.getAttribute('.moves .cur', 'data-ply'), '1');
    assert.match(await p.page.textContent('[data-replay-ply]') ?? '', /Action 2 of 4: Bob g8-g7/);
    assert.deepEqual(await offscreen(p.page, ['.board', '[data-nav="first"]', '[data-nav="prev"]', '[data-nav="next"]', '[data-nav="last"]', '[data-nav="flip"]', '.moves .cur', '[data-replay-ply]', '.endpanel .result']), [], `the replay on ${p.name}'s screen`);
    await assertAccessible(p.page, `the replay on ${p.name}'s screen`);
  }
  assert.deepEqual(allLeaks(carol.messages(), 'spectator'), []);
  assert.deepEqual(allLeaks(bob.messages(), '2'), []);
});

test('a draw offer to the computer is answered at once', async () => {
  const dan = await open('Dan');
  await dan.page.check('[data-field="side-1"]');
  await dan.page.check('[data-field="level-1"]');
  await dan.page.click('[data-action="play-computer"]');
  await dan.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(dan.page);
  assert.equal((await dan.game(id))?.opponent ?? (await dan.page.waitForFunction((g) => (window as any).rainet.client.game(g)?.opponent, id).then((h) => h.jsonValue())), 'computer');
  await dan.page.click('[data-action="setup-confirm"]');
  await waitTurn(dan, id);
  await dan.page.click('[data-action="draw-offer"]');
  await dan.page.click('[data-action="draw-confirm"]');
  await dan.page.waitForSelector('[data-draw-declined="2"]');
  assert.match(await dan.page.textContent('[data-draw-declined]') ?? '', /declined the draw/);
  const s = await dan.game(id);
  assert.equal(s.status, 'playing');
  assert.equal(s.drawOffer, null);
  assert.deepEqual(await offscreen(dan.page, ['[data-draw-declined]']), []);
});

test('home, account, leaderboard and player pages: styled fields, the lobby lists each game once in plain words, axe-core clean', async () => {
  const eve = await open('Eve');
  await assertAccessible(eve.page, 'the home page');
  // An unfinished game shows once among "your games"; an aborted one says so once.
  await eve.page.click('[data-action="play-friend"]');
  await eve.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const open1 = gameIdOf(eve.page);
  await eve.page.click('a.logo');
  await eve.page.click('[data-action="play-computer"]');
  await eve.page.waitForURL((u) => /\/game\/[A-Za-z0-9]+$/.test(u.pathname) && !u.pathname.endsWith(open1));
  const aborted = gameIdOf(eve.page);
  await eve.page.click('[data-action="abort"]');
  await eve.page.waitForSelector('[data-status="aborted"]');
  await eve.page.click('[data-action="see-board"]');
  // The server lists the unfinished games in its welcome: a fresh page has both lists.
  await eve.page.goto(`${env.server.url}/`);
  await eve.page.waitForSelector(`[data-recent="${aborted}"]`);
  await eve.page.waitForSelector(`[data-unfinished="${open1}"]`);
  assert.equal(await eve.page.$$eval(`a[href="/game/${open1}"]`, (els) => els.filter((e) => e.closest('section')?.textContent?.includes('Your games')).length), 1, 'the unfinished game is listed once');
  const row = await eve.page.textContent(`[data-recent="${aborted}"]`) ?? '';
  assert.doesNotMatch(row, /\b(\w+)\s+\1\b/i, `no repeated word: ${row}`);
  // Every form field is styled like the rest (the password field too).
  for (const path of ['/', '/account']) {
    await eve.page.goto(`${env.server.url}${path}`);
    await eve.page.waitForSelector('[data-conn="online"]');
    const unstyled = await eve.page.$$eval('input:not([type=radio]):not([type=checkbox]):not([type=range]), select', (els) => els.filter((e) => {
      const cs = getComputedStyle(e);
      return cs.backgroundColor === 'rgb(255, 255, 255)' || cs.borderRadius === '0px' || cs.color === 'rgb(0, 0, 0)';
    }).map((e) => e.outerHTML.slice(0, 80)));
    assert.deepEqual(unstyled, [], `styled fields on ${path}`);
    if (path === '/account') {
      assert.ok(await eve.page.$('input[type=password]'), 'the account page has the password field');
      await assertAccessible(eve.page, 'the account page');
    }
  }
  await eve.page.click('[data-nav="leaderboard"]');
  await eve.page.waitForSelector('[data-leaderboard]');
  await assertAccessible(eve.page, 'the leaderboard');
  const me = await eve.page.evaluate(() => (window as any).rainet.client.player.id);
  await eve.page.goto(`${env.server.url}/player/${me}`);
  await eve.page.waitForSelector(`[data-profile="${me}"]`);
  await assertAccessible(eve.page, 'a player page');
  await eve.page.goto(`${env.server.url}/game/gNOSUCHGAME`);
  await eve.page.waitForSelector('[data-error="unknown_game"]');
  await assertAccessible(eve.page, 'an unknown game');
  // The header's links go where the other screens live.
  assert.equal(await eve.page.getAttribute('[data-nav="rules"]', 'href'), '/rules');
  await eve.page.goto(`${env.server.url}/`);
  assert.equal(await eve.page.getAttribute('[data-action="learn"]', 'href'), '/learn');
});
