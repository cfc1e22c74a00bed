// Bundles src/main.ts into dist/app.js and copies the static files (index.html, style.css) to dist/.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
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
console.log('web: built dist/');
