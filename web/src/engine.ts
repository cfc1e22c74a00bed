// The engine in the browser: a typed client of the WebAssembly worker (engine.worker.ts). The
// worker and its module are fetched when a page first asks for the engine (never by the home
// page), then kept for the page's life; calls are answered in order.
import { parseAnswer, requests, type Answers, type BotName, type RulesName, type SideNumber, type ViewerName } from './engineapi.ts';

type Pending = { ok: (answer: string) => void; fail: (e: Error) => void };

export class Engine {
  private worker: Worker | null = null;
  private next = 1;
  private pending = new Map<number, Pending>();

  constructor(private readonly url = '/engine/worker.js') {}

  private send<K extends keyof Answers>(request: string): Promise<Answers[K]> {
    if (!this.worker) {
      this.worker = new Worker(this.url);
      this.worker.onmessage = (e: MessageEvent<{ id: number; answer?: string; failure?: string }>) => {
        const p = this.pending.get(e.data.id);
        if (!p) return;
        this.pending.delete(e.data.id);
        if (e.data.answer !== undefined) p.ok(e.data.answer);
        else p.fail(new Error(e.data.failure ?? 'the engine failed'));
      };
      this.worker.onerror = (e) => {
        for (const p of this.pending.values()) p.fail(new Error(`the engine failed: ${e.message}`));
        this.pending.clear();
      };
    }
    const id = this.next++;
    return new Promise<string>((ok, fail) => {
      this.pending.set(id, { ok, fail });
      this.worker!.postMessage({ id, request });
    }).then((text) => parseAnswer<Answers[K]>(text));
  }

  newGame(rules: RulesName, setup1: string, setup2: string) { return this.send<'start'>(requests.start(rules, setup1, setup2)); }
  state(rules: RulesName, position: string) { return this.send<'state'>(requests.state(rules, position)); }
  legal(rules: RulesName, position: string) { return this.send<'legal'>(requests.legal(rules, position)).then((a) => a.actions); }
  apply(rules: RulesName, position: string, action: string) { return this.send<'apply'>(requests.apply(rules, position, action)); }
  view(rules: RulesName, position: string, viewer: ViewerName) { return this.send<'view'>(requests.view(rules, position, viewer)).then((a) => a.view); }
  perft(rules: RulesName, position: string, depth: number) { return this.send<'perft'>(requests.perft(rules, position, depth)).then((a) => a.nodes); }
  setup(rules: RulesName, side: SideNumber, bot: BotName, seed: number) { return this.send<'setup'>(requests.setup(rules, side, bot, seed)).then((a) => a.setup); }
  think(rules: RulesName, side: SideNumber, bot: BotName, knowledge: string, nodes: number, seed: number) {
    return this.send<'think'>(requests.think(rules, side, bot, nodes, seed, knowledge));
  }
  analyse(record: string, side: SideNumber, nodes: number) { return this.send<'analyse'>(requests.analyse(side, nodes, record)); }

  /** Ends the worker (a page leaving for good); pending calls fail. */
  close(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const p of this.pending.values()) p.fail(new Error('the engine was closed'));
    this.pending.clear();
  }
}

let shared: Engine | null = null;
/** The page's engine, made on first use. */
export function engine(): Engine {
  return (shared ??= new Engine());
}
