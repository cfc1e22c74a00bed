import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayOrder, stepCursor } from '../../src/board.ts';

test('side 1 sees a8 top-left and a1 bottom-left; side 2 sees the board turned (h1 top-left, a8 bottom-right)', () => {
  const one = displayOrder(1);
  assert.equal(one[0], 'a8');
  assert.equal(one[56], 'a1');
  assert.equal(one[63], 'h1');
  const two = displayOrder(2);
  assert.equal(two[0], 'h1');
  assert.equal(two[7], 'a1');
  assert.equal(two[56], 'h8');
  assert.equal(two[63], 'a8');
  assert.equal(new Set(two).size, 64);
});

test('arrow keys move in screen directions and stop at the edges', () => {
  assert.equal(stepCursor('e4', 'ArrowUp', 1), 'e5');
  assert.equal(stepCursor('e4', 'ArrowUp', 2), 'e3');
  assert.equal(stepCursor('e4', 'ArrowRight', 1), 'f4');
  assert.equal(stepCursor('e4', 'ArrowRight', 2), 'd4');
  assert.equal(stepCursor('a8', 'ArrowUp', 1), 'a8');
  assert.equal(stepCursor('a8', 'ArrowLeft', 1), 'a8');
  assert.equal(stepCursor('a1', 'ArrowUp', 2), 'a1', 'a1 is the top-right corner for side 2');
  assert.equal(stepCursor('a1', 'ArrowRight', 2), 'a1');
  assert.equal(stepCursor('a1', 'ArrowDown', 2), 'a2');
});
