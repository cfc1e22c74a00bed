// End to end, through the UI only: two players set up and play a full game (boosted move, firewall,
// virus check, 404 NOT FOUND) while a spectator watches; a page reload and a server restart in the
// middle; every frame the opponent and the spectator receive is checked for hidden identities; the
// replay steps through every action; a game against the computer is played to the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseView, type Side } from '../../src/view.ts';
import { allLeaks } from './leaks.ts';
import { chooseAction, gameIdOf, keyboardMove, play, Player, seeded, useServerAndBrowser, settle, waitTurn, waitVersion } from './harness.ts';

let finishedGame = '';
let alice: Player;
const env = useServerAndBrowser();
const players = env.players;

async function cardsOnBoard(p: Player): Promise<Record<string, string>> {
  return p.page.$$eval('.board [data-square]', (els) => Object.fromEntries(els.map((e) => {
    const c = e.querySelector('.card');
    return [(e as HTMLElement).dataset.square, c ? `${(c as HTMLElement).dataset.owner}${(c as HTMLElement).dataset.card}` : ''];
  })));
}

async function finishGame(turns: Map<Side, Player>, id: string, seed: number, maxPlies = 400, during?: (ply: number) => Promise<void>): Promise<void> {
  const rnd = seeded(seed);
  let side: Side = (parseView((await turns.get(1)!.game(id)).view).toMove);
  for (let i = 0; i < maxPlies; i++) {
    const p = turns.get(side)!;
    const s = await waitTurn(p, id);
    if (s.status !== 'playing') return;
    const ply = parseView(s.view).ply;
    if (during) await during(ply);
    const again = await waitTurn(p, id);
    if (again.status !== 'playing') return;
    await play(p, id, chooseAction(again.view, again.legal, side, rnd), side);
    side = side === 1 ? 2 : 1;
  }
  throw new Error(`the game did not end within ${maxPlies} plies`);
}

test('two players set up and play a full game through the UI while a spectator watches; nothing hidden leaks', async () => {
  alice = await Player.open(env.browser, 'alice', `${env.server.url}/`);
  players.push(alice);
  await alice.shot('lobby');
  // Create an open game as side 1 with a clock.
  await alice.page.check('[data-field="opponent-open"]');
  await alice.page.check('[data-field="side-1"]');
  await alice.page.selectOption('[data-field="clock"]', '10+5');
  await alice.page.click('[data-action="create"]');
  await alice.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(alice.page);
  await alice.page.waitForSelector('[data-status="open"][data-you="1"]');

  // Bob finds it in the live lobby list and joins.
  const bob = await Player.open(env.browser, 'bob', `${env.server.url}/`);
  players.push(bob);
  await bob.page.click(`[data-join="${id}"]`, { timeout: 15000 });
  await bob.page.waitForURL(new RegExp(`/game/${id}$`));
  await bob.page.waitForSelector('[data-status="setup"][data-you="2"]');

  // Carol watches from the game's link.
  const carol = await Player.open(env.browser, 'carol', `${env.server.url}/game/${id}`);
  players.push(carol);
  await carol.page.waitForSelector('[data-status="setup"][data-you="spectator"]');

  // Setup. Alice: default links a1 b1 c1 d2; swap a1<->f1 by clicks and b1<->g1 by drag and drop.
  await alice.page.waitForSelector('[data-status="setup"]');
  await alice.page.click('[data-square="a1"]');
  await alice.page.click('[data-square="f1"]');
  await alice.page.dragAndDrop('[data-square="b1"]', '[data-square="g1"]');
  const arranged = await cardsOnBoard(alice);
  assert.deepEqual(['a1', 'b1', 'c1', 'd2', 'f1', 'g1', 'e2', 'h1'].map((q) => arranged[q]), ['1V', '1V', '1L', '1L', '1L', '1L', '1V', '1V']);
  await alice.shot('setup-side1');
  await alice.page.click('[data-action="setup-confirm"]');
  await bob.page.waitForSelector('[data-ready="1-yes"]');
  await carol.page.waitForSelector('[data-ready="1-yes"]');
  await bob.page.click('[data-action="setup-random"]');
  await bob.shot('setup-side2');
  await bob.page.click('[data-action="setup-confirm"]');
  for (const p of [alice, bob, carol]) await p.page.waitForSelector('[data-status="playing"]');

  // Side 2 sees the board flipped: its home (rank 8) at the bottom.
  const firstSquare = (p: Player) => p.page.$eval('.board [data-square]', (e) => (e as HTMLElement).dataset.square);
  assert.equal(await firstSquare(alice), 'a8');
  assert.equal(await firstSquare(bob), 'h1');
  assert.equal(await firstSquare(carol), 'a8');

  // Scripted opening: LB attach, FW, boosted 2-square move, VC, NF (swap), all by clicking.
  await play(alice, id, 'LB+d2', 1);
  await waitTurn(bob, id);
  await play(bob, id, 'FW+h4', 2);
  const vBoost = (await waitTurn(alice, id)).v;
  await alice.page.click('[data-square="d2"]');
  assert.match((await alice.page.getAttribute('[data-square="d4"]', 'class')) ?? '', /mark-dest2/, 'd4 is a boosted 2-square destination');
  await alice.page.click('[data-square="d4"]');
  await waitVersion(alice, id, vBoost + 1);
  let s = await waitTurn(bob, id);
  await play(bob, id, 'VC+d4', 2);
  s = await waitTurn(alice, id);
  assert.ok(s.history.some((e: any) => e.action === 'VC+d4' && e.revealed === 'link'), 'VC revealed the link on d4');
  await settle(carol, id, s.v);
  assert.equal(await carol.page.getAttribute('[data-square="d4"] .card', 'data-card'), 'L', 'the spectator sees the revealed link');
  const nf: string = s.legal.find((a: string) => /^NF\+e2d4:swap$/.test(a));
  assert.ok(nf, 'NF on e2 and d4 is legal');
  await play(alice, id, nf, 1);
  await settle(bob, id, (await waitTurn(bob, id)).v);
  const bobSaw = (await bob.game(id)).history.at(-1).action;
  assert.equal(bobSaw, 'NF+e2d4', 'the opponent sees the squares, not the choice');
  assert.equal(await bob.page.getAttribute('[data-square="d4"] .card', 'data-card'), 'X', 'NF turned the card face down again');
  assert.equal(await alice.page.getAttribute('[data-square="d4"] .card', 'data-card'), 'V', 'after the swap the owner sees a virus on d4');
  await alice.shot('midgame-side1');
  await carol.shot('midgame-spectator');

  // The lobby lists the game among those being played, with a link to watch it.
  const lobby = await carol.ctx.newPage();
  await lobby.goto(`${env.server.url}/`);
  await lobby.click(`[data-watch="${id}"]`, { timeout: 15000 });
  await lobby.waitForSelector('[data-status="playing"][data-you="spectator"]');
  await lobby.close();

  // The rest of the game, with a reload and a server restart in the middle.
  let reloaded = false;
  let restarted = false;
  await finishGame(new Map([[1, alice], [2, bob]]), id, 7, 400, async (ply) => {
    if (!reloaded && ply >= 6) {
      reloaded = true;
      const v = (await alice.game(id)).v;
      await settle(bob, id, v);
      const before = await cardsOnBoard(bob);
      await bob.page.reload();
      await bob.page.waitForSelector('[data-conn="online"]');
      await bob.page.waitForSelector('[data-status="playing"][data-you="2"]');
      await settle(bob, id, v);
      assert.deepEqual(await cardsOnBoard(bob), before, 'a reload restores the game');
    }
    if (!restarted && ply >= 9) {
      restarted = true;
      const v = (await alice.game(id)).v;
      await env.server.stop();
      for (const p of [alice, bob, carol]) await p.page.waitForSelector('[data-conn="reconnecting"]');
      await alice.shot('reconnecting');
      await env.server.run();
      for (const p of [alice, bob, carol]) {
        await p.page.waitForSelector('[data-conn="online"]', { timeout: 20000 });
        await waitVersion(p, id, v);
      }
    }
  });
  assert.ok(reloaded && restarted, 'the game lasted long enough for the reload and the restart');

  // The end: a clear panel on every page, and every identity revealed.
  for (const p of [alice, bob, carol]) {
    await p.page.waitForSelector('[data-overlay="end"]');
    await p.page.waitForSelector('[data-status="finished"]');
  }
  // Who won and why, in words with names: "You win"/"You lose" for players, names for the spectator.
  const said = async (p: Player) => `${await p.page.textContent('[data-overlay="end"] .result')} | ${await p.page.textContent('[data-overlay="end"] .reason')}`;
  assert.match(await said(carol), /^(alice wins|bob wins|Draw) \| (Alice|Bob|alice|bob|100 actions).*\.$/);
  assert.match(await said(alice), /^(You win|You lose|Draw) \| /);
  for (const p of [alice, bob, carol]) assert.doesNotMatch(await said(p), /side \d|stack\b.*reached/i);
  await alice.shot('end-overlay-side1');
  await alice.page.click('[data-action="see-board"]');
  await alice.page.waitForSelector('.endpanel[data-end]');
  await alice.shot('end-side1');
  const end = await alice.game(id);
  assert.ok(['four_links', 'four_viruses', 'no_progress'].includes(end.result.reason), `ended by the rules: ${end.result.reason}`);
  for (const p of [alice, bob, carol]) {
    const unknown = await p.page.$$('.board .card[data-card="X"]');
    assert.equal(unknown.length, 0, `${p.name}: all identities are revealed at the end`);
  }

  // Frames: nothing hidden ever reached the opponent or the spectator (nor side 1 about side 2).
  assert.ok(bob.messages().some((m) => m.kind === 'action' && m.action === 'NF+e2d4'), 'the NF event was captured');
  assert.ok(carol.messages().filter((m) => m.type === 'event' && m.kind === 'action').length > 20, 'the spectator received the actions');
  assert.deepEqual(allLeaks(bob.messages(), '2'), []);
  assert.deepEqual(allLeaks(carol.messages(), 'spectator'), []);
  assert.deepEqual(allLeaks(alice.messages(), '1'), []);
  finishedGame = id;
});

test('the replay of the finished game steps through every action, identities shown', async () => {
  assert.ok(finishedGame, 'needs the finished game');
  const id = finishedGame;
  const record = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.equal(record.status, 'finished');
  const positions: string[] = record.positions;
  assert.equal(positions.length, record.actions.length + 1, 'one position per ply from the server');
  assert.equal(positions.at(-1), record.position, 'the replay reaches the recorded final position');

  // The archive in the lobby links to it.
  const lobby = await alice.ctx.newPage();
  await lobby.goto(`${env.server.url}/`);
  await lobby.waitForSelector(`[data-replay-link="${id}"]`);
  await lobby.close();

  const page = alice.page;
  await page.click('[data-action="replay"]');
  await page.waitForSelector(`[data-replay="${id}"][data-ply="0"]`);
  await alice.shot('replay-start');
  // The record can be downloaded as a file, in the record format.
  const href = await page.getAttribute('[data-action="download-record"]', 'href');
  const file = await fetch(`${env.server.url}${href}`);
  assert.match(file.headers.get('content-disposition') ?? '', new RegExp(`attachment; filename="rainet-${id}.txt"`));
  assert.equal(await file.text(), record.record);
  const n = record.actions.length;
  for (let i = 1; i <= n; i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector(`[data-replay="${id}"][data-ply="${i}"]`);
    if (i % 25 === 0 || i === n) {
      const board = await cardsOnBoard(alice);
      const v = parseView(positions[i]);
      for (const [sq, txt] of Object.entries(board)) {
        const c = v.squares[(sq.charCodeAt(1) - 49) * 8 + (sq.charCodeAt(0) - 97)].card;
        assert.equal(txt, c ? `${c.owner}${c.kind}` : '', `ply ${i}, ${sq}`);
      }
    }
  }
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector(`[data-replay="${id}"][data-ply="${n}"]`);
  assert.equal((await page.$$('.board .card[data-card="X"]')).length, 0, 'the replay shows every identity');
  await alice.shot('replay-end');
  await page.keyboard.press('Home');
  await page.waitForSelector(`[data-replay="${id}"][data-ply="0"]`);
  // The virus check of the opening (action 4, VC+d4) shows what it revealed, as in the live game.
  await page.click('[data-history] [data-ply="3"]');
  await page.waitForSelector(`[data-replay="${id}"][data-ply="4"]`);
  assert.match(await page.textContent('[data-history] [data-ply="3"]') ?? '', /VC\+d4 \{L\}/);
  await page.waitForSelector('[data-square="d4"] .card.faceup');
  assert.match(await page.getAttribute('[data-history] [data-ply="3"]', 'class') ?? '', /\bcur\b/, 'the current action is marked');
});

test('a game against the computer is played to the end', async () => {
  const dave = await Player.open(env.browser, 'dave', `${env.server.url}/`, { width: 390, height: 844 }, true);
  players.push(dave);
  await dave.page.check('[data-field="opponent-computer"]');
  await dave.page.check('[data-field="level-1"]');
  await dave.page.click('[data-action="create"]');
  await dave.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(dave.page);
  await dave.page.waitForSelector('[data-action="setup-random"]');
  await dave.page.click('[data-action="setup-random"]');
  await dave.page.click('[data-action="setup-confirm"]');
  await dave.page.waitForSelector('[data-status="playing"]', { timeout: 30000 });
  const me = Number((await dave.game(id)).you) as Side;
  await dave.shot('computer-phone');
  const rnd = seeded(11);
  // The first move with the keyboard only.
  const first = await waitTurn(dave, id, 60000);
  const move = (first.legal as string[]).find((a) => /^[a-h][1-8]-[a-h][1-8]$/.test(a))!;
  await keyboardMove(dave, id, move.slice(0, 2), move.slice(3, 5), me);
  for (let i = 0; i < 300; i++) {
    const s = await waitTurn(dave, id, 60000);
    if (s.status !== 'playing') break;
    await play(dave, id, chooseAction(s.view, s.legal, me, rnd), me);
  }
  await dave.page.waitForSelector('[data-overlay="end"]', { timeout: 60000 });
  await dave.shot('computer-end-phone');
  assert.deepEqual(allLeaks(dave.messages(), String(me) as '1' | '2'), []);
});

test('an unknown game shows a clear message', async () => {
  await alice.page.goto(`${env.server.url}/game/gNOSUCHGAME`);
  await alice.page.waitForSelector('[data-error="unknown_game"]');
  await alice.page.goto(`${env.server.url}/replay/gNOSUCHGAME`);
  await alice.page.waitForSelector('[data-error]');
});

test('invite link, draw by agreement and rematch', async () => {
  const erin = await Player.open(env.browser, 'erin', `${env.server.url}/`);
  players.push(erin);
  await erin.page.check('[data-field="opponent-invite"]');
  await erin.page.check('[data-field="side-1"]');
  await erin.page.click('[data-action="create"]');
  await erin.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(erin.page);
  const link = await erin.page.inputValue('[data-invite]');
  assert.equal(link, `${env.server.url}/game/${id}`);
  const frank = await Player.open(env.browser, 'frank', link);
  players.push(frank);
  await frank.page.click('[data-action="join"]');
  await erin.page.waitForSelector('[data-status="setup"]');
  await erin.page.click('[data-action="setup-confirm"]'); // the default arrangement: a link on d2
  await frank.page.waitForSelector('[data-status="setup"]');
  await frank.page.click('[data-action="setup-random"]');
  await frank.page.click('[data-action="setup-confirm"]');
  // Erin's link runs up the d file, takes whatever stands on d7, and enters the server; Frank
  // walks his h8 card down the h file meanwhile.
  const run = ['d2-d3', 'd3-d4', 'd4-d5', 'd5-d6', 'd6-d7', 'd7-d8', 'd8-srv'];
  const walk = ['h8-h7', 'h7-h6', 'h6-h5', 'h5-h4', 'h4-h3', 'h3-h2'];
  for (let i = 0; i < run.length; i++) {
    await waitTurn(erin, id);
    await play(erin, id, run[i], 1);
    if (i < walk.length) {
      await waitTurn(frank, id);
      await play(frank, id, walk[i], 2);
    }
  }
  await waitTurn(frank, id);
  await settle(erin, id, (await frank.game(id)).v);
  assert.equal(await erin.page.getAttribute('[data-stack="1"] .card.escaped', 'data-card'), 'L', 'the owner sees its escaped link');
  assert.equal(await frank.page.getAttribute('[data-stack="1"] .card.escaped', 'data-card'), 'X', 'the opponent does not');
  await erin.shot('escape-side1');
  // Offering a draw takes a confirmation.
  await frank.page.click('[data-action="draw-offer"]');
  await frank.page.waitForSelector('[data-confirm="draw"]');
  assert.equal(await erin.page.$('[data-action="draw-accept"]'), null, 'nothing is offered before the confirmation');
  await frank.page.click('[data-action="draw-confirm"]');
  await erin.page.click('[data-action="draw-accept"]');
  for (const p of [erin, frank]) await p.page.waitForSelector('[data-overlay="end"]');
  await erin.page.click('[data-action="see-board"]');
  await erin.page.waitForSelector('.endpanel[data-end="agreement"]');
  // Rematch: Erin asks, Frank declines; Erin asks again and Frank accepts from the end dialog.
  await erin.page.click('[data-action="rematch"]');
  await erin.page.waitForSelector('[data-action="rematch-offered"]');
  await frank.page.waitForSelector('[data-overlay="end"] [data-rematch-offer="1"]');
  await frank.shot('rematch-offer-side2');
  await frank.page.click('[data-overlay="end"] [data-action="rematch-decline"]');
  await erin.page.waitForSelector('[data-rematch-declined]');
  await erin.page.click('[data-action="rematch"]');
  await frank.page.click('[data-overlay="end"] [data-action="rematch-accept"]');
  // Both land in the new game, sides swapped, setting up.
  for (const p of [erin, frank]) await p.page.waitForURL((u) => /\/game\/[A-Za-z0-9]+$/.test(u.pathname) && !u.pathname.endsWith(`/${id}`));
  const next = gameIdOf(erin.page);
  assert.equal(gameIdOf(frank.page), next, 'both players are in the same new game');
  await erin.page.waitForSelector('[data-status="setup"][data-you="2"]');
  await frank.page.waitForSelector('[data-status="setup"][data-you="1"]');
  assert.equal((await erin.game(next)).players['1'].name, 'frank');
  // Erin changes her mind: abort it.
  await erin.page.click('[data-action="abort"]');
  await frank.page.waitForSelector('[data-status="aborted"]');
  assert.deepEqual(allLeaks(frank.messages(), '2'), []);
});

test('resigning takes a confirmation and ends the game', async () => {
  const gina = await Player.open(env.browser, 'gina', `${env.server.url}/`);
  players.push(gina);
  await gina.page.check('[data-field="opponent-computer"]');
  await gina.page.click('[data-action="create"]');
  await gina.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  await gina.page.click('[data-action="setup-random"]');
  await gina.page.click('[data-action="setup-confirm"]');
  await gina.page.waitForSelector('[data-status="playing"]');
  await gina.page.click('[data-action="resign"]');
  await gina.page.click('[data-action="resign-confirm"]');
  await gina.page.waitForSelector('[data-overlay="end"]');
  await gina.page.click('[data-action="see-board"]');
  await gina.page.waitForSelector('.endpanel[data-end="resign"]');
  assert.match(await gina.page.textContent('.endpanel .result') ?? '', /You lose/);
});
