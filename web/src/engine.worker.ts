// The engine's worker: loads the WebAssembly module (rainet_engine.js and .wasm beside this
// script) and answers each request in turn. A classic worker (importScripts), as emscripten's
// glue expects; built to dist/engine/worker.js by scripts/build.mjs.
interface EngineModule {
  cwrap(name: string, ret: 'string', args: ['string']): (request: string) => string;
}
declare function importScripts(...urls: string[]): void;
declare const createRainetEngine: (options?: object) => Promise<EngineModule>;

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<{ id: number; request: string }>) => void) | null;
  postMessage(message: { id: number; answer?: string; failure?: string }): void;
};

importScripts('rainet_engine.js');
const ready = createRainetEngine().then((m) => m.cwrap('rainet_call', 'string', ['string']));

scope.onmessage = (e) => {
  const { id, request } = e.data;
  ready.then(
    (call) => scope.postMessage({ id, answer: call(request) }),
    (err: unknown) => scope.postMessage({ id, failure: `the engine did not load: ${String(err)}` }),
  );
};
