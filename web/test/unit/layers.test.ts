// The client's modules form layers: no module imports, directly or through others, one that
// imports it back (a type-only import counts too), so that each file can be read and tested
// with only what lies below it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Each module of web/src and the modules of web/src it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(SRC).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const deps = [...text.matchAll(/^\s*(?:import|export)\b[^'";]*?from\s+'\.\/([^']+)'/gm)].map((m) => m[1]);
    graph.set(file, deps);
  }
  return graph;
}

/** A cycle of the graph as a list of modules (first = last), or null when there is none. */
function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (m: string): string[] | null => {
    if (state.get(m) === 'done') return null;
    if (state.get(m) === 'open') return [...path.slice(path.indexOf(m)), m];
    state.set(m, 'open');
    path.push(m);
    for (const d of graph.get(m) ?? []) {
      const c = visit(d);
      if (c) return c;
    }
    path.pop();
    state.set(m, 'done');
    return null;
  };
  for (const m of graph.keys()) {
    const c = visit(m);
    if (c) return c;
  }
  return null;
}

test('the import graph of web/src has no cycle', () => {
  const graph = importGraph();
  assert.ok(graph.size > 20, 'the modules of web/src were found');
  assert.ok(graph.get('ui.ts')?.includes('cards.ts'), 'imports are read (ui.ts imports cards.ts)');
  const cycle = findCycle(graph);
  assert.equal(cycle, null, `import cycle: ${cycle?.join(' -> ')}`);
});

test('the cycle check finds a cycle, type-only imports included', () => {
  const g = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]);
  assert.deepEqual(findCycle(g), ['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  assert.equal(findCycle(new Map([['a.ts', ['b.ts']], ['b.ts', []]])), null);
});
