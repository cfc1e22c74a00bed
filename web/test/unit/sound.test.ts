// Which sound each change of a game makes, and the remembered on/off switch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromSnapshot } from '../../src/game.ts';
import { LOW_TIME_CS, SoundCues, TONES, setSoundOn, soundOfAction, soundOn } from '../../src/sound.ts';
import type { SnapshotMessage } from '../../src/protocol.gen.ts';

// Fixtures hold only what a test needs (and unknown kinds): typed as messages at the call.
const snapshot = (m: object) => m as SnapshotMessage;

test('each kind of action has its sound: moves, captures, escapes, terminal cards', () => {
  assert.equal(soundOfAction('d2-d3', false), 'move');
  assert.equal(soundOfAction('d2-d3', true), 'capture');
  assert.equal(soundOfAction('d8-srv', false), 'move');
  for (const a of ['LB+c3', 'LB-c3', 'FW+e4', 'FW-e4', 'VC+d6', 'NF+a1b1', 'NF+a1b1:swap']) assert.equal(soundOfAction(a, false), 'card', a);
  assert.equal(soundOfAction('not an action', false), null);
  for (const notes of Object.values(TONES)) assert.ok(notes.length > 0 && notes.every((n) => n.f > 0 && n.len > 0 && n.len < 0.5));
});

const board = 'vvvvvvvv/8/8/8/8/8/8/LLLLLLLL';
const snap = (over: Record<string, unknown> = {}) => fromSnapshot(snapshot({ game: 'g1', v: 5, you: '1', status: 'playing', view: `${board} 1 CNcn -/- 0 0`, history: [], ...over }), 0);
const entry = (ply: number, action: string) => ({ ply, side: ply % 2 ? '1' : '2', action });

test('the first state is silent; then each new action, a capture by its stack, and the end sound once', () => {
  const cues = new SoundCues();
  assert.deepEqual(cues.update(snap({ history: [entry(1, 'a1-a2')] }), 0), [], 'a page opened in the middle of a game says nothing');
  assert.deepEqual(cues.update(snap({ history: [entry(1, 'a1-a2')] }), 0), [], 'no change, no sound');
  assert.deepEqual(cues.update(snap({ history: [entry(1, 'a1-a2'), entry(2, 'h8-h7')] }), 0), ['move']);
  const took = snap({ history: [entry(1, 'a1-a2'), entry(2, 'h8-h7'), entry(3, 'a2-a3')], view: `${board} 2 CNcn v/- 0 3` });
  assert.deepEqual(cues.update(took, 0), ['capture'], 'a move that made a stack grow took a card');
  const card = snap({ history: [...took.history, entry(4, 'FW+e4')], view: `${board} 1 CNcn v/- 0 4` });
  assert.deepEqual(cues.update(card, 0), ['card']);
  const end = { ...card, status: 'finished' as const };
  assert.deepEqual(cues.update(end, 0), ['end']);
  assert.deepEqual(cues.update(end, 0), [], 'the end sounds once');
});

test('low time sounds once, on the own clock only, while it runs', () => {
  const clocks = (mine: number, running: '1' | '2') => ({ clock: { initial: 6000, increment: 0 }, clocks: { '1': mine, '2': 500, running } });
  const cues = new SoundCues();
  assert.deepEqual(cues.update(snap(clocks(LOW_TIME_CS + 500, '1')), 0), []);
  assert.deepEqual(cues.update(snap(clocks(LOW_TIME_CS + 500, '2')), 0), [], "the opponent's low clock is not ours");
  assert.deepEqual(cues.update(snap(clocks(LOW_TIME_CS + 500, '1')), 4000), [], '15 s - 4 s: not yet');
  assert.deepEqual(cues.update(snap(clocks(LOW_TIME_CS + 500, '1')), 6000), ['lowtime'], '15 s - 6 s: under ten seconds');
  assert.deepEqual(cues.update(snap(clocks(LOW_TIME_CS - 500, '1')), 0), [], 'once per game');
  const spectator = new SoundCues();
  spectator.update(snap({ you: 'spectator', ...clocks(LOW_TIME_CS + 500, '1') }), 0);
  assert.deepEqual(spectator.update(snap({ you: 'spectator', ...clocks(LOW_TIME_CS - 1, '1') }), 0), [], 'a spectator has no clock of its own');
});

test('the switch is on by default, and off is remembered', () => {
  const store = new Map<string, string>();
  const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
  assert.equal(soundOn(storage), true);
  setSoundOn(storage, false);
  assert.equal(store.get('rainet.sound'), 'off');
  assert.equal(soundOn(storage), false);
  setSoundOn(storage, true);
  assert.equal(soundOn(storage), true);
  assert.equal(soundOn(null), true, 'no storage: on for the page');
});
