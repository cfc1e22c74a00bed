// The engine's speed in WebAssembly (Node, the module of dist/engine) beside the native build on
// the same machine: `rainet bench`'s search (strong's, fixed positions and seed) through the same
// call, `bench ITERATIONS`, of the module and of its native twin rainet_api, in turns; the node
// counts must agree. docs/performance.md gives today's figures.
//   node scripts/bench-engine.mjs [ITERATIONS] [RUNS]   (needs npm run build and ../build/wasm/rainet_api)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const iterations = Number(process.argv[2] ?? 2000);
const runs = Number(process.argv[3] ?? 3);
const api = process.env.RAINET_API ?? join(web, '..', 'build', 'wasm', 'rainet_api');

const create = createRequire(import.meta.url)(join(web, 'dist', 'engine', 'rainet_engine.js'));
const m = await create({ wasmBinary: readFileSync(join(web, 'dist', 'engine', 'rainet_engine.wasm')) });
const call = m.cwrap('rainet_call', 'string', ['string']);

const median = (xs) => [...xs].sort((a, b) => a.nps - b.nps)[xs.length >> 1];
const wasm = [], native = [];
for (let i = 0; i < runs; ++i) {
  const r = JSON.parse(call(`bench\t${iterations}`));
  wasm.push({ nodes: r.nodes, nps: r.nodes / r.seconds });
  const n = JSON.parse(execFileSync(api, { input: `bench\t${iterations}\n`, encoding: 'utf8' }));
  native.push({ nodes: n.nodes, nps: n.nodes / n.seconds });
}
const w = median(wasm), n = median(native);
if (w.nodes !== n.nodes) throw new Error(`node counts differ: wasm ${w.nodes}, native ${n.nodes}`);
console.log(`iterations per position: ${iterations}, nodes searched: ${n.nodes} (both), median of ${runs} runs each, in turns`);
console.log(`native     ${Math.round(n.nps)} nodes/s`);
console.log(`wasm/Node  ${Math.round(w.nps)} nodes/s  (${(100 * w.nps / n.nps).toFixed(1)}% of native)`);
