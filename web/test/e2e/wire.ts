// What a visit costs over the wire, as Chromium's network layer counts it (DevTools protocol:
// encoded bytes received, headers included; whether an answer came from the browser's cache):
// the budget of docs/performance.md, measured by web/scripts/budget.mts and checked by
// site.test.ts.
import type { Page } from 'playwright-core';

export interface Fetched {
  url: string;
  status: number;
  bytes: number; // over the wire, headers included; 0 from the cache
  cached: boolean; // served from the memory or disk cache, without asking the server
  encoding: string;
}

/** Navigates `page` to `url` and lists what the page loaded until `ready` resolved and the network was idle. */
export async function visit(page: Page, url: string, ready: () => Promise<unknown>): Promise<Fetched[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const byId = new Map<string, Fetched>();
  const fromCache = new Set<string>();
  const wireStatus = new Map<string, number>(); // what the server answered (a 304 shows as its cached 200 otherwise)
  cdp.on('Network.requestServedFromCache', (e: any) => {
    fromCache.add(e.requestId);
    const f = byId.get(e.requestId);
    if (f) f.cached = true;
  });
  cdp.on('Network.responseReceivedExtraInfo', (e: any) => {
    wireStatus.set(e.requestId, e.statusCode);
    const f = byId.get(e.requestId);
    if (f) f.status = e.statusCode;
  });
  cdp.on('Network.responseReceived', (e: any) => {
    if (e.type === 'WebSocket') return;
    byId.set(e.requestId, {
      url: e.response.url,
      status: wireStatus.get(e.requestId) ?? e.response.status,
      bytes: 0,
      cached: fromCache.has(e.requestId) || Boolean(e.response.fromDiskCache || e.response.fromMemoryCache || e.response.fromPrefetchCache),
      encoding: (e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? '') as string,
    });
  });
  cdp.on('Network.loadingFinished', (e: any) => {
    const f = byId.get(e.requestId);
    if (f) f.bytes = e.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await ready();
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return [...byId.values()];
}

/** The files of the site (not the API, not the WebSocket), from the server (not the cache). */
export function fromServer(list: Fetched[]): Fetched[] {
  return list.filter((f) => !f.cached && !new URL(f.url).pathname.startsWith('/api/'));
}
