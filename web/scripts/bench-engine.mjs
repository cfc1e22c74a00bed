// The engine's speed in WebAssembly (Node, the module of dist/engine) beside the native
// `rainet bench` on the same machine: the same search (strong's, fixed positions and seed), so the
// node counts must agree; the speeds are compared. docs/performance.md gives today's figures.
//   node scripts/bench-engine.mjs [ITERATIONS] [RUNS]     (needs npm run build and ../build/rainet)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const iterations = Number(process.argv[2] ?? 2000);
const runs = Number(process.argv[3] ?? 3);
const bin = process.env.RAINET_BIN ?? join(web, '..', 'build', 'rainet');

const create = createRequire(import.meta.url)(join(web, 'dist', 'engine', 'rainet_engine.js'));
const m = await create({ wasmBinary: readFileSync(join(web, 'dist', 'engine', 'rainet_engine.wasm')) });
const call = m.cwrap('rainet_call', 'string', ['string']);

const best = (xs) => xs.reduce((a, b) => (b.nps > a.nps ? b : a));
const wasm = [], native = [];
for (let i = 0; i < runs; ++i) {
  const r = JSON.parse(call(`bench\t${iterations}`));
  wasm.push({ nodes: r.nodes, nps: r.nodes / r.seconds });
  const out = execFileSync(bin, ['bench', String(iterations)], { encoding: 'utf8' });
  native.push({ nodes: Number(/Nodes searched: (\d+)/.exec(out)[1]), nps: Number(/Nodes\/second: (\d+)/.exec(out)[1]) });
}
const w = best(wasm), n = best(native);
if (w.nodes !== n.nodes) throw new Error(`node counts differ: wasm ${w.nodes}, native ${n.nodes}`);
console.log(`iterations per position: ${iterations}, nodes searched: ${n.nodes} (both), best of ${runs}`);
console.log(`native     ${Math.round(n.nps)} nodes/s`);
console.log(`wasm/Node  ${Math.round(w.nps)} nodes/s  (${(100 * w.nps / n.nps).toFixed(1)}% of native)`);
