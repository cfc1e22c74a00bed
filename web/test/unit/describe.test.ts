import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeAction } from '../../src/describe.ts';

test('each action in words, for the screen-reader announcement', () => {
  assert.equal(describeAction('b7-b6', 'Bob'), 'Bob moves b7 to b6');
  assert.equal(describeAction('b7-b6', null), 'You move b7 to b6');
  assert.equal(describeAction('d8-srv', 'Alice'), 'Alice enters the server from d8');
  assert.equal(describeAction('LB+d2', 'Alice'), 'Alice puts LINE BOOST on d2');
  assert.equal(describeAction('FW-h4', null), 'You take FIRE WALL back from h4');
  assert.equal(describeAction('VC+d4', 'Bob', 'link'), 'Bob checks d4 with VIRUS CHECKER: a link');
  assert.equal(describeAction('NF+e2d4', 'Alice'), 'Alice plays 404 NOT FOUND on e2 and d4');
  assert.equal(describeAction('NF+e2d4:swap', null), 'You play 404 NOT FOUND on e2 and d4 (swapped)');
});
