// The connection to the server: a WebSocket that reconnects by itself with exponential backoff,
// and per-stream event versioning (lichess style): an event whose version is not the next one is
// either a duplicate (ignored) or follows a gap (the stream asks the server to resume from the
// last version it applied). Time and the WebSocket are injected so that all of it is unit-tested.
import type { ServerMessage } from './protocol.gen.ts';

export type ConnState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The part of the browser WebSocket this module uses. */
export interface SocketLike {
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Exponential backoff with jitter: base * factor^n, capped, scaled by a random factor in [0.5, 1]. */
export class Backoff {
  private attempt = 0;
  constructor(
    readonly base = 250,
    readonly max = 5000,
    readonly factor = 2,
    private readonly random: () => number = Math.random,
  ) {}
  next(): number {
    const raw = Math.min(this.max, this.base * Math.pow(this.factor, this.attempt));
    this.attempt++;
    return Math.round(raw * (0.5 + 0.5 * this.random()));
  }
  reset(): void {
    this.attempt = 0;
  }
  get attempts(): number {
    return this.attempt;
  }
}

export type Verdict = 'apply' | 'duplicate' | 'gap';

/**
 * The version of one event stream (a game). Events are numbered 1, 2, 3...; a snapshot sets the
 * version it reflects. `accept` says what to do with an incoming event.
 */
export class VersionTracker {
  private v = 0;
  private known = false;
  get version(): number {
    return this.v;
  }
  /** Whether a snapshot has been applied (before that every event is a gap). */
  get synced(): boolean {
    return this.known;
  }
  reset(v: number): void {
    this.v = v;
    this.known = true;
  }
  accept(v: number): Verdict {
    if (!this.known) return 'gap';
    if (v <= this.v) return 'duplicate';
    if (v === this.v + 1) {
      this.v = v;
      return 'apply';
    }
    return 'gap';
  }
  forget(): void {
    this.known = false;
    this.v = 0;
  }
}

export interface ReconnectingSocketOptions {
  /** The URL to (re)connect to; called at every attempt so that it can carry the last version. */
  url: () => string;
  create: (url: string) => SocketLike;
  timers?: Timers;
  backoff?: Backoff;
  /** Called with every parsed JSON message, typed as the server's messages (protocol.gen.ts). */
  onMessage: (msg: ServerMessage) => void;
  /** Called at every state change; `open` is also reported after a successful reconnect. */
  onState?: (state: ConnState, info: { attempt: number; delay?: number }) => void;
  /** Called after each (re)open, before queued messages are flushed: e.g. to subscribe again. */
  onOpen?: (reconnected: boolean) => void;
  /** Close and reconnect when nothing arrives for this long (ms); 0 = never. */
  idleTimeout?: number;
}

/**
 * A WebSocket that keeps itself connected. Messages sent while it is down are queued and sent
 * once it is open again (the server treats a repeated action as a no-op, so resending is safe).
 */
export class ReconnectingSocket {
  private ws: SocketLike | null = null;
  private state_: ConnState = 'closed';
  private timer: unknown = null;
  private idleTimer: unknown = null;
  private queue: string[] = [];
  private stopped = true;
  private everOpened = false;
  private readonly timers: Timers;
  private readonly backoff: Backoff;

  constructor(private readonly opts: ReconnectingSocketOptions) {
    this.timers = opts.timers ?? realTimers;
    this.backoff = opts.backoff ?? new Backoff();
  }

  get state(): ConnState {
    return this.state_;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  /** Closes for good (no reconnection). */
  stop(): void {
    this.stopped = true;
    this.clearTimer();
    this.clearIdle();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try { ws.close(); } catch { /* already closed */ }
    }
    this.setState('closed');
  }

  /** Sends now when open, else queues for the next open. */
  send(msg: unknown): void {
    const text = JSON.stringify(msg);
    if (this.state_ === 'open' && this.ws) this.ws.send(text);
    else this.queue.push(text);
  }

  /** Drops the current connection and reconnects at once (e.g. after an event gap). */
  reconnectNow(): void {
    if (this.stopped) return;
    this.drop();
    this.clearTimer();
    this.connect();
  }

  private setState(s: ConnState, info: { delay?: number } = {}): void {
    this.state_ = s;
    this.opts.onState?.(s, { attempt: this.backoff.attempts, ...info });
  }

  private connect(): void {
    this.timer = null;
    this.setState(this.everOpened ? 'reconnecting' : 'connecting');
    let ws: SocketLike;
    try {
      ws = this.opts.create(this.opts.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.backoff.reset();
      this.setState('open');
      this.touch();
      this.opts.onOpen?.(reconnected);
      const q = this.queue;
      this.queue = [];
      for (const m of q) ws.send(m);
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.touch();
      let msg: unknown;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return; // not JSON: ignore
      }
      this.opts.onMessage(msg as ServerMessage); // the server sends only these (docs/protocol.md §5)
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* a close follows */
    };
  }

  private drop(): void {
    const ws = this.ws;
    this.ws = null;
    this.clearIdle();
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try { ws.close(); } catch { /* ignore */ }
    }
  }

  private scheduleReconnect(): void {
    this.clearIdle();
    if (this.stopped) return;
    const delay = this.backoff.next();
    this.setState('reconnecting', { delay });
    this.clearTimer();
    this.timer = this.timers.setTimeout(() => this.connect(), delay);
  }

  private touch(): void {
    const ms = this.opts.idleTimeout ?? 0;
    if (!ms) return;
    this.clearIdle();
    this.idleTimer = this.timers.setTimeout(() => {
      this.idleTimer = null;
      this.drop();
      this.scheduleReconnect();
    }, ms);
  }

  private clearIdle(): void {
    if (this.idleTimer !== null) this.timers.clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private clearTimer(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
