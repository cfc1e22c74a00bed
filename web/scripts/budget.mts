// The home page's budget over the wire (docs/performance.md): a real `rainet serve` (../build/rainet,
// or $RAINET_BIN) on the built dist/, Debian's Chromium; prints every file of a first visit with
// its bytes over the wire (headers included) and encoding, their sum against the 120 KiB budget,
// then what a repeat visit in the same browser fetched from the server.
//   cd web && npm run build && node --import tsx scripts/budget.mts
import { launch, Server } from '../test/e2e/harness.ts';
import { fromServer, visit, type Fetched } from '../test/e2e/wire.ts';

const BUDGET = 120 * 1024;
const server = await Server.start();
const browser = await launch();
let status = 0;
try {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, serviceWorkers: 'block' }); // the HTTP layer's caching alone (site.test.ts)
  const page = await ctx.newPage();
  const online = () => page.waitForSelector('[data-conn="online"]');
  const show = (what: string, list: Fetched[]) => {
    console.log(what);
    for (const f of list) console.log(`  ${String(f.status).padEnd(4)} ${String(f.bytes).padStart(7)} B  ${(f.encoding || 'identity').padEnd(8)} ${new URL(f.url).pathname}`);
    const total = list.reduce((n, f) => n + f.bytes, 0);
    console.log(`  total ${total} B (${(total / 1024).toFixed(1)} KiB) in ${list.length} responses`);
    return total;
  };
  const first = show('first visit (files from the server):', fromServer(await visit(page, `${server.url}/`, online)));
  const again = fromServer(await visit(page, `${server.url}/`, online));
  show('repeat visit (files from the server):', again);
  const onlyIndex = again.length === 1 && new URL(again[0].url).pathname === '/' && again[0].status === 304;
  console.log(`budget: first visit ${first} B ${first <= BUDGET ? '<=' : '>'} ${BUDGET} B; repeat visit ${onlyIndex ? 'only index.html 304' : 'fetched more than index.html 304'}`);
  if (first > BUDGET || !onlyIndex) status = 1;
} finally {
  await browser.close();
  await server.dispose();
}
process.exit(status);
