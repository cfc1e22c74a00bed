// The service worker (dist/sw.js): after one visit the client and the engine open without the
// network. Network first, so an update of the client is picked up on the next visit that reaches
// the server; what came from the network is kept for the visits that do not. The app shell and
// the engine are fetched once in the background after the first page has loaded (main.ts
// registers this worker on `load`). The API, the WebSocket and other origins are left alone; a
// game in progress lives in localStorage, which an update does not touch.
const CACHE = 'rainet-client';
// The shell's names carry their content's hash: the build writes the list (web/scripts/build.mjs).
declare const SHELL_FILES: string[];
const SHELL = SHELL_FILES;
const HASHED = /\.[0-9a-f]{12}\.(js|css|svg)$/; // web/scripts/build.mjs, hashedName

function keep(key: string, res: Response): Response {
  if (res.ok) {
    const copy = res.clone();
    void caches.open(CACHE).then((c) => c.put(key, copy));
  }
  return res;
}

interface FetchEventLike extends Event {
  request: Request;
  respondWith(r: Promise<Response>): void;
}
interface ExtendableEventLike extends Event {
  waitUntil(p: Promise<unknown>): void;
}
const sw = self as unknown as {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', fn: (e: FetchEventLike) => void): void;
};

sw.addEventListener('install', (e) => e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => sw.skipWaiting())));
sw.addEventListener('activate', (e) => e.waitUntil(sw.clients.claim()));
sw.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== sw.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/ws') return;
  // Every page of the client is index.html (the router draws it): kept once, as '/'.
  const key = req.mode === 'navigate' ? '/' : url.pathname;
  // A name carrying its content's hash never changes content: the kept copy is served without
  // asking the network, so a repeat visit fetches nothing but index.html (revalidated, 304).
  if (HASHED.test(url.pathname)) {
    e.respondWith(caches.match(key).then((hit) => hit ?? fetch(req).then((res) => keep(key, res))));
    return;
  }
  e.respondWith(
    fetch(req)
      .then((res) => keep(key, res))
      .catch(() => caches.match(key).then((hit) => hit ?? Response.error())),
  );
});
