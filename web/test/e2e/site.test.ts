// The site as `rainet serve` sends it, in the browser: the client works under its
// Content-Security-Policy (lobby, rules with their card pictures, a game against the computer,
// the analysis graph) without one violation; the script and styles come compressed, a repeat
// visit downloads nothing but index.html's 304; the manifest and its icons are served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Side } from '../../src/view.ts';
import { chooseAction, gameIdOf, play, Player, seeded, useServerAndBrowser, waitTurn } from './harness.ts';
import { fromServer, visit } from './wire.ts';

const env = useServerAndBrowser();
const players = env.players;

/** A player whose page records every CSP violation (the event and Chromium's console line). */
// `serviceWorkers: 'block'` for the HTTP layer's own caching alone: with the service worker
// (src/sw.ts) the page's answers come from it, and what it fetches is not the page's traffic.
async function openWatched(name: string, serviceWorkers: 'allow' | 'block' = 'allow'): Promise<{ p: Player; violations: string[] }> {
  const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 900 }, serviceWorkers });
  const violations: string[] = [];
  await ctx.exposeBinding('reportCsp', (_source, text: string) => { violations.push(text); });
  await ctx.addInitScript((n) => {
    if (!localStorage.getItem('rainet.name')) localStorage.setItem('rainet.name', n);
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as any).reportCsp(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  }, name);
  const page = await ctx.newPage();
  page.on('console', (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text()); });
  const p = new Player(name, ctx, page);
  players.push(p);
  return { p, violations };
}

test('the client works under the Content-Security-Policy, with no violation', async () => {
  const { p, violations } = await openWatched('csp');
  const res = await p.page.goto(`${env.server.url}/`);
  assert.match(res!.headers()['content-security-policy'] ?? '', /default-src 'none'.*frame-ancestors 'none'/);
  assert.equal(res!.headers()['x-content-type-options'], 'nosniff');
  await p.page.waitForSelector('[data-conn="online"]'); // the WebSocket under connect-src 'self'
  // The rules page: card pictures (SVG coloured without style attributes).
  await p.page.goto(`${env.server.url}/rules`);
  await p.page.waitForSelector('[data-cardpic]');
  // A game against the computer, played to its end, then its replay with the analysis graph.
  await p.page.goto(`${env.server.url}/`);
  await p.page.waitForSelector('[data-conn="online"]');
  await p.page.check('[data-field="opponent-computer"]');
  await p.page.check('[data-field="level-1"]');
  await p.page.click('[data-action="create"]');
  await p.page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameIdOf(p.page);
  await p.page.click('[data-action="setup-random"]');
  await p.page.click('[data-action="setup-confirm"]');
  await p.page.waitForSelector('[data-status="playing"]', { timeout: 30000 });
  const me = Number((await p.game(id)).you) as Side;
  const rnd = seeded(5);
  for (let i = 0; i < 300; i++) {
    const s = await waitTurn(p, id, 60000);
    if (s.status !== 'playing') break;
    await play(p, id, chooseAction(s.view, s.legal, me, rnd), me);
  }
  await p.page.waitForSelector('[data-overlay="end"]', { timeout: 60000 });
  // Its replay with the analysis: the virus probabilities are drawn with a CSS variable.
  await p.page.goto(`${env.server.url}/replay/${id}`);
  await p.page.waitForSelector(`[data-replay="${id}"]`);
  await p.page.click('[data-action="analysis"]');
  await p.page.waitForSelector('[data-analysis="ready"]', { timeout: 60000 });
  const probs = await p.page.$$eval('.vprob', (els) => els.map((e) => (e as HTMLElement).style.getPropertyValue('--p')));
  assert.ok(probs.length > 0 && probs.every((v) => v !== ''), `the probabilities are styled: ${probs.join(' ')}`);
  assert.deepEqual(violations, [], 'no CSP violation');
  // The check itself works: an inline script is refused and reported.
  await p.page.evaluate(() => { const s = document.createElement('script'); s.textContent = 'window.inlineRan = 1'; document.body.append(s); });
  await p.page.waitForFunction(() => true);
  assert.equal(await p.page.evaluate(() => (window as any).inlineRan), undefined, 'an inline script does not run');
  for (let i = 0; i < 50 && violations.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(violations.some((v) => /script-src/.test(v)), `the inline script was reported: ${violations.join(' | ')}`);
});

test('the first visit comes compressed; a repeat visit downloads nothing but index.html\'s 304', async () => {
  const { p } = await openWatched('cache', 'block');
  const online = () => p.page.waitForSelector('[data-conn="online"]');
  const first = fromServer(await visit(p.page, `${env.server.url}/`, online));
  const script = first.find((f) => /\/app\.[0-9a-f]{12}\.js$/.test(f.url));
  assert.ok(script, `the hashed script was loaded: ${first.map((f) => f.url).join(' ')}`);
  assert.equal(script!.encoding, 'br', 'the script comes brotli-compressed');
  const total = first.reduce((n, f) => n + f.bytes, 0);
  assert.ok(total <= 120 * 1024, `first visit ${total} B over the wire, budget 120 KiB`);
  const again = fromServer(await visit(p.page, `${env.server.url}/`, online));
  assert.deepEqual(again.map((f) => [new URL(f.url).pathname, f.status]), [['/', 304]], 'only index.html, answered 304');
});

test('the web app manifest and its icons are served', async () => {
  const { p } = await openWatched('manifest');
  await p.page.goto(`${env.server.url}/`);
  const href = await p.page.getAttribute('link[rel="manifest"]', 'href');
  assert.equal(href, '/manifest.webmanifest');
  const res = await p.page.request.get(`${env.server.url}${href}`);
  assert.equal(res.headers()['content-type'], 'application/manifest+json');
  const manifest = await res.json();
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  const sizes = manifest.icons.map((i: any) => i.sizes);
  assert.ok(sizes.includes('192x192') && sizes.includes('512x512'), sizes.join(' '));
  assert.ok(manifest.icons.some((i: any) => i.purpose === 'maskable'));
  for (const icon of [...manifest.icons.map((i: any) => i.src), '/apple-touch-icon.png']) {
    const r = await p.page.request.get(`${env.server.url}${icon}`);
    assert.equal(r.status(), 200, icon);
    assert.equal(r.headers()['content-type'], 'image/png', icon);
    const body = await r.body();
    assert.equal(body.subarray(1, 4).toString('latin1'), 'PNG', icon);
    const side = Number(/(\d+)/.exec(icon.includes('apple') ? '180' : manifest.icons.find((i: any) => i.src === icon).sizes)![1]);
    assert.equal(body.readUInt32BE(16), side, `${icon} is ${side} px wide`);
  }
});
