// One engine, checked: the WebAssembly build the browser loads (dist/engine, made by the wasm
// preset and npm run build) against the native engine on the same inputs. Positions come from
// random games played through the WebAssembly engine; for each, the native twin of the module
// (`rainet_api`, built from the same wasm/api.cpp) must answer every request byte for byte alike:
// states, legal lists, the three views, perft, every bot's action for a fixed seed and node budget,
// the analysis of finished games, and the errors of bad requests. A sample is checked against the
// `rainet` CLI as well (legal, view, perft, apply) and every bot's action against `rainet engine`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseAnswer, requests, type Answers, type BotName, type RulesName, type SideNumber } from '../../src/engineapi.ts';
import { writeRecord } from '../../src/localrecord.ts';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ENGINE_DIR = join(WEB, 'dist', 'engine');
const API = process.env.RAINET_API ?? join(WEB, '..', 'build', 'wasm', 'rainet_api');
const BIN = process.env.RAINET_BIN ?? join(WEB, '..', 'build', 'rainet');
const BOTS: BotName[] = ['random', 'greedy', 'bait', 'strong', 'ismcts-v1', 'level1', 'level2', 'level3', 'level4', 'level5'];
const SETUPS = ['LLLLVVVV', 'VVVVLLLL', 'LVLVLVLV', 'VLLVVLVL', 'LLVVLLVV', 'VVLLVLLV'];

type Call = (request: string) => string;

async function loadWasm(): Promise<Call> {
  const js = join(ENGINE_DIR, 'rainet_engine.js');
  if (!existsSync(js)) throw new Error(`${js} is missing: cmake --preset wasm && cmake --build --preset wasm, then npm run build`);
  const create = createRequire(import.meta.url)(js) as (o: object) => Promise<{ cwrap: (...a: unknown[]) => Call }>;
  // emscripten 3.1.6 fetches its .wasm with Node's fetch, which takes no file path: given here.
  const m = await create({ wasmBinary: readFileSync(join(ENGINE_DIR, 'rainet_engine.wasm')) });
  return m.cwrap('rainet_call', 'string', ['string']);
}

/** The native answers of many requests, one `rainet_api` process. */
function native(reqs: string[]): string[] {
  if (!existsSync(API)) throw new Error(`${API} is missing: cmake --build --preset default --target rainet_api`);
  const r = spawnSync(API, { input: reqs.map((q) => q.replace(/\n/g, '\\n')).join('\n') + '\n', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, String(r.stderr));
  const lines = String(r.stdout).split('\n');
  lines.pop();
  return lines;
}

function cli(...args: string[]): string {
  const r = spawnSync(BIN, args);
  assert.equal(r.status, 0, `rainet ${args.join(' ')}: ${r.stderr}`);
  return String(r.stdout);
}

/** A small seeded generator for the test's choices (the same games every run). */
function lcg(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

interface Ply {
  rules: RulesName;
  position: string;
  action: string; // the action played here
  knowledge: string; // the side to move's knowledge in the engine protocol's form
  toMove: SideNumber;
}
interface Game {
  rules: RulesName;
  setup1: string;
  setup2: string;
  plies: Ply[];
  end: Answers['state'];
}

/** Random games through the WebAssembly engine, each to its end. */
function playGames(call: Call, count: number): Game[] {
  const games: Game[] = [];
  for (let g = 0; g < count; ++g) {
    const pick = lcg(1000 + g);
    const rules: RulesName = g % 2 ? 'official' : 'standard';
    const setup1 = SETUPS[pick(SETUPS.length)], setup2 = SETUPS[pick(SETUPS.length)];
    let state = parseAnswer<Answers['start']>(call(requests.start(rules, setup1, setup2)));
    const startViews = [1, 2].map((s) => parseAnswer<Answers['view']>(call(requests.view(rules, state.position, String(s) as '1' | '2'))).view);
    const seen: [string[], string[]] = [[], []];
    const plies: Ply[] = [];
    while (!state.over && plies.length < 400) {
      const legal = parseAnswer<Answers['legal']>(call(requests.legal(rules, state.position))).actions;
      // Greedy towards the end: prefer moves (captures and escapes end games) to card plays.
      const moves = legal.filter((a) => !a.includes('+'));
      const choices = moves.length && pick(4) ? moves : legal;
      const action = choices[pick(choices.length)];
      const side = state.to_move;
      const knowledge = `view ${startViews[side - 1]}` + (seen[side - 1].length ? ` moves ${seen[side - 1].join(' ')}` : '');
      plies.push({ rules, position: state.position, action, knowledge, toMove: side });
      const applied = parseAnswer<Answers['apply']>(call(requests.apply(rules, state.position, action)));
      seen[0].push(applied.observed[0]);
      seen[1].push(applied.observed[1]);
      state = applied;
    }
    games.push({ rules, setup1, setup2, plies, end: state });
  }
  return games;
}

test('the WebAssembly engine answers as the native one: states, legal lists, views, perft, apply, errors', async () => {
  const call = await loadWasm();
  const games = playGames(call, 8);
  const reqs: string[] = [];
  let i = 0;
  for (const g of games) {
    for (const p of g.plies) {
      reqs.push(requests.state(p.rules, p.position), requests.legal(p.rules, p.position), requests.apply(p.rules, p.position, p.action));
      for (const v of ['1', '2', 'spectator'] as const) reqs.push(requests.view(p.rules, p.position, v));
      reqs.push(requests.perft(p.rules, p.position, i++ % 25 === 0 ? 3 : 2));
    }
    reqs.push(requests.legal(g.rules, g.end.position), requests.state(g.rules, g.end.position));
  }
  // Bad requests: the same clear errors.
  reqs.push('nonsense', 'legal\tstandard\tnot a position', 'apply\tstandard\tlll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0\td2-d5',
    'perft\tblitz\tx\t1', 'think\tstandard\t3\tstrong\t10\t1\tview', 'analyse\t1\t10\tnot a record', 'legal');
  const expected = native(reqs);
  assert.equal(expected.length, reqs.length);
  assert.ok(games.filter((g) => g.end.over).length >= 6, 'most games reach their end');
  assert.ok(reqs.length > 2000, `${reqs.length} requests`);
  let errors = 0;
  reqs.forEach((q, k) => {
    const got = call(q);
    if (got.startsWith('{"error"')) ++errors;
    assert.equal(got, expected[k], `request ${k}: ${q}`);
  });
  assert.equal(errors, 7, 'only the bad requests are errors');
});

test('every bot chooses the same setup and the same action in WebAssembly as natively (fixed seed and nodes)', async () => {
  const call = await loadWasm();
  const games = playGames(call, 4);
  const reqs: string[] = [];
  games.forEach((g, n) => {
    g.plies.filter((_, k) => k % 9 === n % 9).slice(0, 4).forEach((p, k) => {
      for (const bot of BOTS) reqs.push(requests.think(p.rules, p.toMove, bot, 300, 17 + k, p.knowledge));
    });
    for (const bot of BOTS) reqs.push(requests.setup(g.rules, (n % 2 + 1) as SideNumber, bot, n));
  });
  const expected = native(reqs);
  reqs.forEach((q, k) => assert.equal(call(q), expected[k], `request ${k}: ${q}`));
  const thoughts = reqs.map((q, k) => [q, expected[k]]).filter(([q]) => q.startsWith('think'));
  assert.ok(thoughts.length >= 100, `${thoughts.length} actions compared`);
  assert.ok(thoughts.every(([, a]) => 'action' in JSON.parse(a)), 'every request got an action');
});

test('the analysis of finished games is the same in WebAssembly as natively, for both sides', async () => {
  const call = await loadWasm();
  const games = playGames(call, 4).filter((g) => g.end.over).slice(0, 2);
  assert.equal(games.length, 2);
  const reqs: string[] = [];
  for (const g of games) {
    const record = writeRecord({ rules: g.rules, setup1: g.setup1, setup2: g.setup2, actions: g.plies.map((p) => p.action), result: g.end.result, termination: g.end.reason });
    for (const side of [1, 2] as const) reqs.push(requests.analyse(side, 40, record));
  }
  const expected = native(reqs);
  reqs.forEach((q, k) => {
    const got = call(q);
    assert.equal(got, expected[k], `analysis ${k}`);
    const a = parseAnswer<Answers['analyse']>(got);
    assert.equal(a.plies.length, games[k >> 1].plies.length + 1, 'one entry per position, the end included');
    // The server's GameAnalysis: sides are the protocol's SideId strings.
    assert.equal(a.side, k % 2 === 0 ? '1' : '2');
    assert.ok(a.plies.every((p) => p.to_move === '1' || p.to_move === '2'), 'to_move as a SideId');
  });
});

test('a sample agrees with the rainet CLI (legal, view, perft, apply) and rainet engine (every bot)', async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: cmake --build --preset default --target rainet`);
  const call = await loadWasm();
  const plies = playGames(call, 2).flatMap((g) => g.plies).filter((_, k) => k % 15 === 3);
  assert.ok(plies.length >= 5);
  for (const p of plies) {
    const flags = ['--position', p.position, '--preset', p.rules];
    assert.equal(parseAnswer<Answers['legal']>(call(requests.legal(p.rules, p.position))).actions.join('\n') + '\n', cli('legal', ...flags));
    assert.equal(parseAnswer<Answers['view']>(call(requests.view(p.rules, p.position, '2'))).view + '\n', cli('view', ...flags, '--as', '2'));
    assert.match(cli('perft', '2', ...flags), new RegExp(`^Nodes: ${parseAnswer<Answers['perft']>(call(requests.perft(p.rules, p.position, 2))).nodes}$`, 'm'));
    assert.equal(parseAnswer<Answers['apply']>(call(requests.apply(p.rules, p.position, p.action))).position + '\n', cli('apply', ...flags, p.action));
  }
  // One `rainet engine` per search: a `go` queued behind another search counts its time from its
  // arrival, which can change a search's course; one alone starts at once, as `think` does.
  for (const bot of BOTS) {
    plies.slice(0, 3).forEach((p, k) => {
      const input = [`setoption name Bot value ${bot}`, `setoption name Seed value ${5 + k}`, `newgame side ${p.toMove} rules ${p.rules}`,
        `position ${p.knowledge}`, 'go nodes 300'].join('\n') + '\n';
      const out = String(spawnSync(BIN, ['engine'], { input }).stdout);
      const best = /^bestaction (\S+)$/m.exec(out)?.[1];
      assert.equal(best, parseAnswer<Answers['think']>(call(requests.think(p.rules, p.toMove, bot, 300, 5 + k, p.knowledge))).action, `${bot} at ${p.knowledge}`);
    });
  }
});

test('the engine\'s download (module, glue, worker) is at most 400 KB compressed', () => {
  const bytes = ['rainet_engine.wasm', 'rainet_engine.js', 'worker.js']
    .map((f) => gzipSync(readFileSync(join(ENGINE_DIR, f)), { level: 9 }).length)
    .reduce((a, b) => a + b, 0);
  assert.ok(bytes > 10_000 && bytes <= 400 * 1024, `${bytes} bytes gzipped`);
});
