import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endText } from '../../src/endtext.ts';
import type { EndReason, GameResult } from '../../src/protocol.gen.ts';

const names = { '1': 'Alice', '2': 'Bob' } as const;
// Side 2 (Bob) holds four escaped links; side 1 (Alice) four captured viruses of Bob's.
const bobEscaped = '8/8/8/8/8/8/8/8 1 - vvvv/llll 0 40';
const aliceTook = '8/8/8/8/8/8/8/8 2 - vvvv/- 0 40';
const bobTookLinks = '8/8/8/8/8/8/8/8 1 - -/LLLL 0 40';
const mixed = '8/8/8/8/8/8/8/8 1 - -/LLll 0 40';

test('four viruses: the loser took them, in words with names, for a spectator and both players', () => {
  const r = { result: '0-1', winner: '2', reason: 'four_viruses' } as const;
  assert.equal(endText({ result: r, names, you: 'spectator', lastAction: 'c4-c5', position: aliceTook }).sentence, 'Bob wins: Alice took a fourth virus');
  assert.equal(endText({ result: r, names, you: '2', lastAction: 'c4-c5', position: aliceTook }).sentence, 'You win: Alice took a fourth virus');
  assert.equal(endText({ result: r, names, you: '1', lastAction: 'c4-c5', position: aliceTook }).sentence, 'You lose: you took a fourth virus');
  assert.equal(endText({ result: r, names, you: '1', lastAction: 'd8-srv', position: aliceTook }).reason, "Your virus entered Bob's server: a fourth virus in your stack.");
});

test('four links: through the server or by captures, said as it happened', () => {
  const r = { result: '0-1', winner: '2', reason: 'four_links' } as const;
  assert.equal(endText({ result: r, names, you: 'spectator', lastAction: 'e1-srv', position: bobEscaped }).sentence, "Bob wins: Bob's fourth link reached Alice's server");
  assert.equal(endText({ result: r, names, you: '2', lastAction: 'e1-srv', position: bobEscaped }).sentence, "You win: your fourth link reached Alice's server");
  assert.equal(endText({ result: r, names, you: '1', lastAction: 'c3-c2', position: bobTookLinks }).sentence, 'You lose: Bob took your fourth link');
  assert.equal(endText({ result: r, names, you: 'spectator', lastAction: 'c3-c2', position: mixed }).sentence, "Bob wins: Bob took a link: four links in Bob's stack");
  assert.equal(endText({ result: r, names, you: 'spectator', lastAction: 'd1-srv', position: mixed }).sentence, "Bob wins: Bob's link reached Alice's server: four links in Bob's stack");
});

test('resignation, time, abandonment, draws and aborts', () => {
  const t = (reason: EndReason, winner: '1' | '2' | null, result: GameResult | null, you: '1' | '2' | 'spectator' = 'spectator') =>
    endText({ result: { result, winner, reason }, names, you }).sentence;
  assert.equal(t('resign', '1', '1-0'), 'Alice wins: Bob resigned');
  assert.equal(t('resign', '1', '1-0', '2'), 'You lose: you resigned');
  assert.equal(t('time', '2', '0-1', '2'), 'You win: Alice ran out of time');
  assert.equal(t('abandoned', '1', '1-0'), 'Alice wins: Bob left the game');
  assert.equal(t('agreement', null, '1/2-1/2'), 'Draw by agreement');
  assert.equal(t('no_progress', null, '1/2-1/2'), 'Draw: 100 actions in a row without a capture or an escape');
  assert.equal(t('aborted', null, null), 'Aborted: the game was aborted before both sides had played');
  assert.doesNotMatch(t('four_links', '2', '0-1'), /Side \\d/);
});
