// End-to-end support: a real `rainet serve` on loopback with a temporary database, Debian's
// Chromium through playwright-core, WebSocket frame capture, and a UI driver that plays actions by
// clicking (it reads the state to decide, but acts only through the page).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { parseAction } from '../../src/actions.ts';
import { parseView, type Side } from '../../src/view.ts';
import { displayOrder } from '../../src/board.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const WEB = resolve(here, '../..');
export const REPO = resolve(WEB, '..');
export const OUT = join(REPO, 'test-output');
export const BIN = process.env.RAINET_BIN ?? join(REPO, 'build', 'rainet');

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** A `rainet serve` process that can be stopped and started again on the same port and database. */
export class Server {
  proc: ChildProcess | null = null;
  readonly dir: string;
  readonly db: string;
  log = '';
  /** `web`: the client served (`--web`), web/dist unless a test deploys its own copy. */
  constructor(readonly port: number, readonly extra: string[] = [], readonly web = join(WEB, 'dist')) {
    this.dir = mkdtempSync(join(tmpdir(), 'rainet-e2e-'));
    this.db = join(this.dir, 'games.db');
  }
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  /** `extra`: more `rainet serve` options, e.g. ['--grace', '2']. */
  static async start(extra: string[] = [], web?: string): Promise<Server> {
    if (!existsSync(BIN)) throw new Error(`server binary ${BIN} not found: build it first (cmake --build --preset default --target rainet)`);
    if (!existsSync(join(WEB, 'dist', 'index.html'))) throw new Error('web/dist is missing: run npm run build');
    const s = new Server(await freePort(), extra, web);
    await s.run();
    return s;
  }
  async run(): Promise<void> {
    // Every browser of the tests comes from 127.0.0.1: no per-address limits (docs/deployment.md).
    const limits = ['--max-per-address', '0', '--identities-per-minute', '0'];
    const p = spawn(BIN, ['serve', '--listen', `127.0.0.1:${this.port}`, '--db', this.db, '--web', this.web, ...limits, ...this.extra], {
      cwd: WEB,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc = p;
    p.stdout!.on('data', (d) => (this.log += d));
    p.stderr!.on('data', (d) => (this.log += d));
    const deadline = Date.now() + 20000;
    for (;;) {
      if (p.exitCode !== null) throw new Error(`rainet serve exited with ${p.exitCode}:\n${this.log}`);
      try {
        const r = await fetch(`${this.url}/healthz`);
        if (r.ok) return;
      } catch { /* not up yet */ }
      if (Date.now() > deadline) throw new Error(`rainet serve did not come up:\n${this.log}`);
      await sleep(100);
    }
  }
  async stop(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const done = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    const t = setTimeout(() => p.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(t);
    this.proc = null;
  }
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** A browser context (its own localStorage, so its own player) with one page and its WebSocket frames. */
export class Player {
  frames: string[] = [];
  errors: string[] = [];
  sockets = 0;
  constructor(readonly name: string, readonly ctx: BrowserContext, readonly page: Page) {
    page.on('websocket', (ws) => { this.sockets++; ws.on('framereceived', (f) => this.frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString())); });
    page.on('pageerror', (e) => this.errors.push(`${name}: ${e.message}`));
  }
  touch = false;
  static async open(browser: Browser, name: string, url: string, viewport = { width: 1200, height: 900 }, touch = false): Promise<Player> {
    const ctx = await browser.newContext({ viewport, hasTouch: touch, isMobile: touch });
    await ctx.addInitScript((n) => { if (!localStorage.getItem('rainet.name')) localStorage.setItem('rainet.name', n); }, name);
    const page = await ctx.newPage();
    const p = new Player(name, ctx, page);
    p.touch = touch;
    await page.goto(url);
    await page.waitForSelector('[data-conn="online"]');
    return p;
  }
  /** Messages received, parsed. */
  messages(): any[] {
    return this.frames.map((f) => { try { return JSON.parse(f); } catch { return null; } }).filter(Boolean);
  }
  async game(id: string): Promise<any> {
    return this.page.evaluate((g) => (window as any).rainet.client.game(g), id);
  }
  async shot(name: string): Promise<void> {
    mkdirSync(OUT, { recursive: true });
    await this.page.evaluate(() => window.scrollTo(0, 0));
    await this.page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
  }
}

export function gameIdOf(page: Page): string {
  const m = new URL(page.url()).pathname.match(/^\/game\/([A-Za-z0-9]+)/);
  if (!m) throw new Error(`not on a game page: ${page.url()}`);
  return m[1];
}

/** Waits until it is this side's turn (legal actions present) or the game is over; returns the state. */
export async function waitTurn(p: Player, id: string, timeout = 30000): Promise<any> {
  await p.page.waitForFunction((g) => {
    const s = (window as any).rainet.client.game(g);
    return s && (s.status === 'finished' || s.status === 'aborted' || (s.status === 'playing' && s.legal && s.legal.length > 0));
  }, id, { timeout });
  return p.game(id);
}

export async function waitVersion(p: Player, id: string, v: number, timeout = 30000): Promise<void> {
  await p.page.waitForFunction(([g, n]) => ((window as any).rainet.client.game(g)?.v ?? -1) >= (n as number), [id, v] as const, { timeout });
}

/** Waits until the page has version `v` and has drawn it. */
export async function settle(p: Player, id: string, v: number): Promise<void> {
  await waitVersion(p, id, v);
  await p.page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** Plays one action by clicking, as a person would. */
export async function clickAction(p: Player, action: string, me: Side): Promise<void> {
  const a = parseAction(action);
  if (!a) throw new Error(`not an action: ${action}`);
  const page = p.page;
  // A touch player taps (touch events, then the click the browser makes of them).
  const press = (sel: string) => (p.touch ? page.tap(sel) : page.click(sel));
  const sq = (s: string) => press(`[data-square="${s}"]`);
  switch (a.kind) {
    case 'move':
      await sq(a.from);
      await page.waitForSelector(`[data-square="${a.to}"][class*="mark-"]`);
      await sq(a.to);
      break;
    case 'enter':
      await sq(a.from);
      await press(`[data-server="${me === 1 ? 2 : 1}"].target`);
      break;
    case 'lb': case 'fw': case 'vc': {
      const k = a.kind === 'lb' ? 'LB' : a.kind === 'fw' ? 'FW' : 'VC';
      await press(`button[data-tcard="${k}"]:not([disabled])`);
      await page.waitForSelector(`[data-square="${a.square}"].mark-target`);
      await sq(a.square);
      break;
    }
    case 'nf':
      await press('button[data-tcard="NF"]:not([disabled])');
      await sq(a.a);
      await page.waitForSelector(`[data-square="${a.b}"].mark-target`);
      await sq(a.b);
      await press(`[data-nf="${a.swap ? 'swap' : 'keep'}"]`);
      break;
  }
}

/** Plays `action` through the UI and waits until the page has seen its result. */
export async function play(p: Player, id: string, action: string, me: Side): Promise<void> {
  const before = (await p.game(id)).v;
  const legal: string[] = (await p.game(id)).legal ?? [];
  if (!legal.includes(action)) throw new Error(`${p.name}: ${action} is not legal; legal: ${legal.join(' ')}`);
  await clickAction(p, action, me);
  await settle(p, id, before + 1);
}

/**
 * A simple player for the rest of a game: escape own links, capture, advance, in that order, with
 * a seeded choice among equals. It needs its own identities, which its own view shows.
 */
export function chooseAction(viewString: string, legal: string[], me: Side, rnd: () => number): string {
  const v = parseView(viewString);
  const at = (s: string) => v.squares[(s.charCodeAt(1) - 49) * 8 + (s.charCodeAt(0) - 97)].card;
  const forward = (from: string, to: string) => (me === 1 ? 1 : -1) * (to.charCodeAt(1) - from.charCodeAt(1));
  const scored = legal.map((s) => {
    const a = parseAction(s)!;
    let score = 0;
    if (a.kind === 'enter') score = at(a.from)?.kind === 'L' ? 100 : -100;
    else if (a.kind === 'move') {
      const mine = at(a.from);
      const target = at(a.to);
      if (target) score = 50;
      score += 10 * forward(a.from, a.to);
      if (mine?.kind === 'V') score += 3; // viruses lead the attack
    } else score = -50; // terminal cards only when scripted
    return { s, score: score + rnd() };
  });
  scored.sort((x, y) => y.score - x.score);
  return scored[0].s;
}

export function seeded(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
}

/** Plays a move with the keyboard only: focus the card, Enter, arrows to the destination, Enter. */
export async function keyboardMove(p: Player, id: string, from: string, to: string, bottom: Side): Promise<void> {
  const before = (await p.game(id)).v;
  const order = displayOrder(bottom);
  const a = order.indexOf(from), b = order.indexOf(to);
  await p.page.focus(`[data-square="${from}"]`);
  await p.page.keyboard.press('Enter');
  await p.page.waitForSelector(`[data-square="${from}"].selected`);
  const dr = Math.floor(b / 8) - Math.floor(a / 8), dc = (b % 8) - (a % 8);
  for (let i = 0; i < Math.abs(dr); i++) await p.page.keyboard.press(dr > 0 ? 'ArrowDown' : 'ArrowUp');
  for (let i = 0; i < Math.abs(dc); i++) await p.page.keyboard.press(dc > 0 ? 'ArrowRight' : 'ArrowLeft');
  await p.page.waitForFunction((sq) => (document.activeElement as HTMLElement | null)?.dataset?.square === sq, to);
  await p.page.keyboard.press('Enter');
  await waitVersion(p, id, before + 1);
}

/**
 * One server and one browser for a test file: started before its tests, stopped after them, and
 * the file fails if any page it opened (listed in `players`) threw an uncaught error.
 */
export function useServerAndBrowser(extra: string[] = [], web?: () => string): { readonly server: Server; readonly browser: Browser; players: Player[] } {
  const env = { server: null as Server | null, browser: null as Browser | null, players: [] as Player[] };
  before(async () => {
    env.server = await Server.start(extra, web?.());
    env.browser = await launch();
  });
  after(async () => {
    const errors = env.players.flatMap((p) => p.errors);
    await env.browser?.close();
    await env.server?.dispose();
    assert.deepEqual(errors, [], 'no uncaught errors in any page');
  });
  return {
    get server() { return env.server!; },
    get browser() { return env.browser!; },
    players: env.players,
  };
}

/** axe-core on the page as it is now: the serious and critical violations, described. */
export async function axeViolations(page: Page): Promise<string[]> {
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Asserts that no serious or critical accessibility violation is on the page. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await axeViolations(page), [], `axe-core on ${what}`);
}

/**
 * What of `selectors` is not wholly inside the viewport, without scrolling (each must match at least
 * one element; every match is checked); and, unless `mayScroll`, whether the document scrolls.
 */
export async function offscreen(page: Page, selectors: string[], mayScroll = false): Promise<string[]> {
  return page.evaluate(([sels, may]) => {
    const out: string[] = [];
    const W = window.innerWidth, H = window.innerHeight;
    if (!may && document.scrollingElement!.scrollHeight > H) out.push(`the page scrolls: ${document.scrollingElement!.scrollHeight} > ${H}`);
    for (const sel of sels) {
      const els = [...document.querySelectorAll(sel)];
      if (!els.length) out.push(`${sel}: missing`);
      for (const e of els) {
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) out.push(`${sel}: not shown`);
        else if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) out.push(`${sel}: at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} outside ${W}x${H}`);
      }
    }
    return out;
  }, [selectors, mayScroll] as const);
}
