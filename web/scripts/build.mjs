// Builds dist/, what `rainet serve --web` serves:
// - src/main.ts bundled into app.<hash>.js (with its source map), the styles as style.<hash>.css
//   and learn.<hash>.css: names carrying a hash of their content, which the server caches for a
//   year as immutable (a new build makes new names, so nothing stale is ever used);
// - index.html naming them, with the web app manifest and its icons (PNGs drawn here, from the
//   same picture as favicon.svg);
// - every text file compressed once, here, with gzip and brotli (`<file>.gz`, `<file>.br`, kept
//   only when smaller); the server sends the copy the browser accepts (docs/deployment.md).
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zconst, gzipSync } from 'node:zlib';
import { iconPng } from './icons.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

/** `base.<12 hex digits of the content's SHA-256>.ext`: the server's test for an immutable name. */
export function hashedName(base, ext, content) {
  return `${base}.${createHash('sha256').update(content).digest('hex').slice(0, 12)}.${ext}`;
}

// The script: bundled in memory, then named by its content; its source map follows the name.
const built = await esbuild.build({
  entryPoints: [join(root, 'src/main.ts')],
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  sourcemap: 'linked',
  outfile: join(dist, 'app.js'),
  write: false,
  logLevel: 'warning',
});
const js = built.outputFiles.find((f) => f.path.endsWith('.js')).text;
const map = built.outputFiles.find((f) => f.path.endsWith('.js.map')).text;
const appName = hashedName('app', 'js', js);
writeFileSync(join(dist, appName), js.replace(/\/\/# sourceMappingURL=app\.js\.map\s*$/, `//# sourceMappingURL=${appName}.map\n`));
writeFileSync(join(dist, `${appName}.map`), map);

const names = { '/app.js': `/${appName}` };
// The favicon too (a browser asks for it on every visit otherwise); favicon.svg stays for old links.
const favicon = readFileSync(join(root, 'static', 'favicon.svg'));
names['/favicon.svg'] = `/${hashedName('favicon', 'svg', favicon)}`;
writeFileSync(join(dist, names['/favicon.svg'].slice(1)), favicon);
for (const css of ['style', 'learn']) {
  const text = readFileSync(join(root, 'static', `${css}.css`));
  const name = hashedName(css, 'css', text);
  writeFileSync(join(dist, name), text);
  names[`/${css}.css`] = `/${name}`;
}

// The manifest and icons: installable on a phone's home screen (Android: 192 and 512 px, one of
// them maskable; iOS: the 180 px apple-touch-icon).
const icons = [
  { file: 'icon-192.png', size: 192, purpose: 'any', rounded: true },
  { file: 'icon-512.png', size: 512, purpose: 'any', rounded: true },
  { file: 'icon-maskable-512.png', size: 512, purpose: 'maskable', rounded: false },
  { file: 'apple-touch-icon.png', size: 180, purpose: null, rounded: false },
];
for (const i of icons) writeFileSync(join(dist, i.file), iconPng(i.size, i.rounded));
const manifest = {
  name: 'rainet · Rai-Net Access Battlers',
  short_name: 'rainet',
  description: 'Play Rai-Net Access Battlers online, against people or the computer.',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: '#07090d',
  theme_color: '#07090d',
  icons: icons.filter((i) => i.purpose).map((i) => ({ src: `/${i.file}`, sizes: `${i.size}x${i.size}`, type: 'image/png', purpose: i.purpose })),
};
writeFileSync(join(dist, 'manifest.webmanifest'), JSON.stringify(manifest, null, 1) + '\n');

let html = readFileSync(join(root, 'static', 'index.html'), 'utf8');
for (const [from, to] of Object.entries(names)) {
  if (!html.includes(`"${from}"`)) throw new Error(`static/index.html does not name ${from}`);
  html = html.replace(`"${from}"`, `"${to}"`);
}
writeFileSync(join(dist, 'index.html'), html);
writeFileSync(join(dist, 'favicon.svg'), favicon);

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
const wasmDir = process.env.RAINET_WASM_DIR ?? join(root, '..', 'build-wasm', 'wasm');
const haveEngine = existsSync(join(wasmDir, 'rainet_engine.wasm'));
if (haveEngine) {
  for (const f of ['rainet_engine.js', 'rainet_engine.wasm']) cpSync(join(wasmDir, f), join(dist, 'engine', f));
  // emscripten's glue is a CommonJS script for Node (the tests and the benchmark), not a module.
  writeFileSync(join(dist, 'engine', 'package.json'), '{ "type": "commonjs" }\n');
} else {
  console.warn(`web: no engine in ${wasmDir} (cmake --preset wasm && cmake --build --preset wasm): playing offline is off`);
}

// The service worker (src/sw.ts): at the root, so that it controls every page.
await esbuild.build({
  entryPoints: [join(root, 'src/sw.ts')],
  // What it fetches on install: the shell under its content-hashed names, and the engine.
  define: {
    SHELL_FILES: JSON.stringify(['/', ...Object.values(names), ...(haveEngine ? ['/engine/worker.js', '/engine/rainet_engine.js', '/engine/rainet_engine.wasm'] : [])]),
  },
  bundle: true,
  format: 'iife',
  target: 'es2020',
  minify: true,
  outfile: join(dist, 'sw.js'),
  logLevel: 'warning',
});
// Compressed copies of every text file (and WebAssembly), made once here at the highest levels.
const compressible = /\.(html|js|mjs|css|svg|json|map|webmanifest|wasm|txt)$/;
function compressAll(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) { compressAll(path); continue; }
    if (!compressible.test(entry)) continue;
    const data = readFileSync(path);
    const gz = gzipSync(data, { level: 9 });
    const br = brotliCompressSync(data, {
      params: { [zconst.BROTLI_PARAM_QUALITY]: 11, [zconst.BROTLI_PARAM_SIZE_HINT]: data.length,
        [zconst.BROTLI_PARAM_MODE]: entry.endsWith('.wasm') ? zconst.BROTLI_MODE_GENERIC : zconst.BROTLI_MODE_TEXT },
    });
    if (gz.length < data.length) writeFileSync(`${path}.gz`, gz);
    if (br.length < data.length) writeFileSync(`${path}.br`, br);
  }
}
compressAll(dist);
const size = (f) => statSync(join(dist, f)).size;
console.log(`web: built dist/ (${relative(root, join(dist, appName))}: ${size(appName)} B, br ${size(`${appName}.br`)} B, gzip ${size(`${appName}.gz`)} B)`);
