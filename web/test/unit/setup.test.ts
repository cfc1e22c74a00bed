import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shuffledArrangement } from '../../src/gamepage.ts';
import { clockOf } from '../../src/lobby.ts';
import { SETUP_SQUARES } from '../../src/view.ts';

test("a random arrangement puts 4 links and 4 viruses on the side's 8 setup squares", () => {
  let x = 12345;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const seen = new Set<string>();
  for (let i = 0; i < 300; i++) {
    const a = shuffledArrangement(2, rnd);
    assert.deepEqual([...a.keys()], SETUP_SQUARES[2]);
    assert.equal([...a.values()].filter((k) => k === 'L').length, 4);
    seen.add([...a.values()].join(''));
  }
  assert.ok(seen.size > 50, `many of the 70 arrangements occur (${seen.size})`);
});

test('clock choices in centiseconds', () => {
  assert.equal(clockOf('none'), null);
  assert.deepEqual(clockOf('3+2'), { initial: 18000, increment: 200 });
  assert.deepEqual(clockOf('30+0'), { initial: 180000, increment: 0 });
});
