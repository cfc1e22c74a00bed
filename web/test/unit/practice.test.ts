// The pure parts of /practice: the clock's arithmetic and the shuffled arrangement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shuffledSetup, spend } from '../../src/practicepage.ts';

test('a turn spends the mover\'s time and adds the increment; running out is a loss', () => {
  assert.equal(spend(6000, 500, 100), 5600);
  assert.equal(spend(150, 149, 0), 1);
  assert.equal(spend(150, 150, 100), null, 'no time left: lost, whatever the increment');
  assert.equal(spend(0, 0, 100), null);
});

test('a shuffled arrangement holds four links and four viruses, every arrangement reachable', () => {
  const seen = new Set<string>();
  let s = 1;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let i = 0; i < 5000; ++i) {
    const a = shuffledSetup(rnd);
    assert.match(a, /^[LV]{8}$/);
    assert.equal([...a].filter((c) => c === 'L').length, 4);
    seen.add(a);
  }
  assert.equal(seen.size, 70, 'all 70 arrangements');
});
