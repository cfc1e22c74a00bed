// The engine's speed in headless Chromium beside Node and the native build, and each level's
// think time on a mid-range phone profile (Chromium's CPU throttling ×4). Run by
// scripts/bench/wasm.sh; docs/performance.md gives today's figures.
//   node scripts/bench-browser.mjs [ITERATIONS] [RUNS] [POSITIONS]
// 1. nodes/s of `rainet bench`'s search (strong's, fixed positions and seed: the same node count
//    everywhere) through the call `bench ITERATIONS`: the module in a page's worker (as /practice
//    runs it), in Node, and its native twin rainet_api; RUNS runs of each in turns, the median.
// 2. With Emulation.setCPUThrottlingRate 4: the bench again, in the worker and on the page's main
//    thread (the module loaded there too): the throttle's effect on each. Chromium throttles the
//    page's main thread, not a dedicated worker, so the levels are timed on the main thread: levels
//    1-5 thinking with their own budget (N iterations and 1 s) on POSITIONS positions (game starts
//    and positions after 12 random plies), each think's time from the call to its answer: median
//    and maximum per level.
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const iterations = Number(process.argv[2] ?? 2000);
const runs = Number(process.argv[3] ?? 5);
const positions = Number(process.argv[4] ?? 8);
const api = process.env.RAINET_API ?? join(web, '..', 'build', 'wasm', 'rainet_api');
for (const f of [join(dist, 'engine', 'rainet_engine.wasm'), join(dist, 'engine', 'worker.js'), api])
  if (!existsSync(f)) throw new Error(`${f} is missing (scripts/bench/wasm.sh says how to build it)`);

// dist/ on loopback: a worker needs an http origin. The bench page itself is empty.
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (path === '/bench.html') return res.end('<!doctype html><title>bench</title>');
  const file = join(dist, path);
  if (!file.startsWith(dist) || !existsSync(file)) { res.statusCode = 404; return res.end(); }
  res.setHeader('content-type', types[extname(file)] ?? 'application/octet-stream');
  res.end(readFileSync(file));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();
await page.goto(`${origin}/bench.html`);
await page.evaluate(() => {
  const worker = new Worker('/engine/worker.js');
  let next = 1;
  const pending = new Map();
  worker.onmessage = (e) => { pending.get(e.data.id)(e.data.answer ?? JSON.stringify({ error: e.data.failure })); pending.delete(e.data.id); };
  // One call: its answer and the time from the request to the answer (ms).
  window.call = (request) => new Promise((ok) => {
    const id = next++;
    const t0 = performance.now();
    pending.set(id, (answer) => ok({ answer: JSON.parse(answer), ms: performance.now() - t0 }));
    worker.postMessage({ id, request });
  });
});
const inPage = async (request) => {
  const r = await page.evaluate((q) => window.call(q), request);
  if (r.answer.error) throw new Error(`${request.split('\t')[0]}: ${r.answer.error}`);
  return r;
};

const create = createRequire(import.meta.url)(join(dist, 'engine', 'rainet_engine.js'));
const nodeCall = (await create({ wasmBinary: readFileSync(join(dist, 'engine', 'rainet_engine.wasm')) })).cwrap('rainet_call', 'string', ['string']);

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const nps = (r) => r.nodes / r.seconds;
const chrome = [], node = [], native = [];
let nodes = null;
for (let i = 0; i < runs; ++i) {
  const c = (await inPage(`bench\t${iterations}`)).answer;
  const n = JSON.parse(nodeCall(`bench\t${iterations}`));
  const x = JSON.parse(execFileSync(api, { input: `bench\t${iterations}\n`, encoding: 'utf8' }));
  for (const r of [c, n, x]) if (r.nodes !== (nodes ??= r.nodes)) throw new Error(`node counts differ: ${c.nodes}, ${n.nodes}, ${x.nodes}`);
  chrome.push(nps(c)); node.push(nps(n)); native.push(nps(x));
}
const k = (x) => `${Math.round(x / 1000)} k`;
const pct = (x) => `${Math.round((100 * x) / median(native))}%`;
console.log(`bench: ${iterations} iterations a position, ${nodes} nodes searched by each; median of ${runs} runs each, in turns`);
console.log(`  native            ${k(median(native))} nodes/s`);
console.log(`  wasm, Node        ${k(median(node))} nodes/s (${pct(median(node))} of native)`);
console.log(`  wasm, Chromium    ${k(median(chrome))} nodes/s (${pct(median(chrome))} of native; worker)`);

// Positions: game starts and positions after 12 random plies, with the knowledge of the side to move.
const engineCall = (q) => { const a = JSON.parse(nodeCall(q)); if (a.error) throw new Error(a.error); return a; };
let seed = 12345;
const rnd = (n) => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed % n; };
const setups = ['LLLLVVVV', 'VLVLLVLV', 'LVVLVLLV', 'VVLLLLVV', 'LVLVVLVL', 'VLLVLVVL'];
const tasks = [];
for (let i = 0; i < positions; ++i) {
  const rules = i % 2 ? 'official' : 'standard';
  let s = engineCall(`start\t${rules}\t${setups[rnd(6)]}\t${setups[rnd(6)]}`);
  const start = [engineCall(`view\t${rules}\t${s.position}\t1`).view, engineCall(`view\t${rules}\t${s.position}\t2`).view];
  const seen = [[], []];
  const plies = i < positions / 2 ? 0 : 12;
  for (let p = 0; p < plies && !s.over; ++p) {
    const legal = engineCall(`legal\t${rules}\t${s.position}`).actions;
    s = engineCall(`apply\t${rules}\t${s.position}\t${legal[rnd(legal.length)]}`);
    seen[0].push(s.observed[0]); seen[1].push(s.observed[1]);
  }
  if (s.over) continue;
  const side = s.to_move;
  tasks.push({ rules, side, knowledge: `view ${start[side - 1]}` + (seen[side - 1].length ? ` moves ${seen[side - 1].join(' ')}` : '') });
}

// The module on the page's main thread too (its glue finds the .wasm beside its script).
await page.addScriptTag({ url: '/engine/rainet_engine.js' });
await page.evaluate(async () => {
  const m = await window.createRainetEngine();
  const f = m.cwrap('rainet_call', 'string', ['string']);
  window.callMain = (request) => { const t0 = performance.now(); const answer = JSON.parse(f(request)); return { answer, ms: performance.now() - t0 }; };
});
const onMain = async (request) => {
  const r = await page.evaluate((q) => window.callMain(q), request);
  if (r.answer.error) throw new Error(`${request.split('\t')[0]}: ${r.answer.error}`);
  return r;
};
const small = `bench\t${iterations}`;
await onMain(small); // warm-up: the module's code compiled by the optimizing tier
const fast = (await onMain(small)).answer;
const cdp = await page.context().newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
const slowWorker = (await inPage(small)).answer;
const slowMain = (await onMain(small)).answer;
console.log(`CPU throttling ×4 (Emulation.setCPUThrottlingRate), bench at ${iterations} iterations:`);
console.log(`  worker       ${k(nps(slowWorker))} nodes/s (${pct(nps(slowWorker))} of native)`);
console.log(`  main thread  ${k(nps(slowMain))} nodes/s (${pct(nps(slowMain))} of native; unthrottled ${k(nps(fast))}: ×${(nps(fast) / nps(slowMain)).toFixed(1)} slower)`);
console.log(`think time of each level with its own budget on the throttled main thread, ${tasks.length} positions (starts and after 12 plies):`);
for (let level = 1; level <= 5; ++level) {
  const ms = [], its = [];
  for (const [j, t] of tasks.entries()) {
    const r = await onMain(`think\t${t.rules}\t${t.side}\tlevel${level}\t0\t${j + 1}\t${t.knowledge}`);
    ms.push(r.ms);
    its.push(r.answer.iterations);
  }
  // Iterations: how much of its node cap the search reached within its 1 s (level 1 searches none).
  console.log(`  level ${level}   median ${Math.round(median(ms))} ms   max ${Math.round(Math.max(...ms))} ms   iterations median ${median(its)}`);
}
await browser.close();
server.close();
