// Bundles src/main.ts into dist/app.js and copies the static files (index.html, style.css) to dist/.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await esbuild.build({
  entryPoints: [join(root, 'src/main.ts')],
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  sourcemap: true,
  outfile: join(dist, 'app.js'),
  logLevel: 'warning',
});
for (const f of ['index.html', 'style.css', 'learn.css', 'favicon.svg']) cpSync(join(root, 'static', f), join(dist, f));
// The engine for the browser (docs/architecture.md, "The engine in the browser"): its worker, and
// the WebAssembly module of the wasm preset (RAINET_WASM_DIR, default ../build-wasm/wasm).
await esbuild.build({
  entryPoints: [join(root, 'src/engine.worker.ts')],
  bundle: true,
  format: 'iife',
  target: 'es2020',
  minify: true,
  outfile: join(dist, 'engine', 'worker.js'),
  logLevel: 'warning',
});
// The service worker (src/sw.ts): at the root, so that it controls every page.
await esbuild.build({
  entryPoints: [join(root, 'src/sw.ts')],
  bundle: true,
  format: 'iife',
  target: 'es2020',
  minify: true,
  outfile: join(dist, 'sw.js'),
  logLevel: 'warning',
});
const wasmDir = process.env.RAINET_WASM_DIR ?? join(root, '..', 'build-wasm', 'wasm');
if (existsSync(join(wasmDir, 'rainet_engine.wasm'))) {
  for (const f of ['rainet_engine.js', 'rainet_engine.wasm']) cpSync(join(wasmDir, f), join(dist, 'engine', f));
  // emscripten's glue is a CommonJS script for Node (the tests and the benchmark), not a module.
  writeFileSync(join(dist, 'engine', 'package.json'), '{ "type": "commonjs" }\n');
} else {
  console.warn(`web: no engine in ${wasmDir} (cmake --preset wasm && cmake --build --preset wasm): playing offline is off`);
}
console.log('web: built dist/');
