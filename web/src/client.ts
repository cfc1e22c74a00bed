// The protocol client (docs/protocol.md): identity (hello/welcome), game subscriptions with event
// versioning and resume, requests with ids that are resent after a reconnection until acknowledged,
// the lobby feed and keep-alive pings. Transport, time and storage are injected for unit tests.
import { Backoff, ReconnectingSocket, VersionTracker, type ConnState, type SocketLike, type Timers, realTimers } from './socket.ts';
import { addChat, applyEvent, fromSnapshot, lastChat, type GameState } from './game.ts';
import type { AckMessage, Challenge, ChallengeMessage, ChallengesMessage, ErrorMessage, FollowedEntry, FollowingMessage, LobbyEntry, MyGamesMessage, Notification, NotificationsMessage, Player, PlayerGame, SeekEntry, ServerMessage, TournamentInfo, TournamentMessage, WelcomeMessage } from './protocol.gen.ts';

export interface StorageLike {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
}

export interface ClientOptions {
  url: string;
  create: (url: string) => SocketLike;
  storage: StorageLike;
  timers?: Timers;
  backoff?: Backoff;
  now?: () => number;
  random?: () => number;
  /** Keep-alive ping interval in ms (0 = none). The connection is dropped after 2.5 intervals of silence. */
  pingInterval?: number;
}

/** A request refused by the server (its `error` message without `type`). */
export type ServerError = Omit<ErrorMessage, 'type'>;

/** What answers a request: its `ack`, or for a login the `welcome` carrying the request's id. */
/** A clock as requests carry it, or as the server shows it (a correspondence one has `days`). */
export type ClockValue = { initial: number; increment: number; days?: number } | { days: number } | null;

export type Answer = AckMessage | WelcomeMessage | NotificationsMessage | ChallengeMessage | ChallengesMessage | FollowingMessage | MyGamesMessage;

interface Pending {
  msg: Record<string, unknown> & { id: string };
  resolve: (answer: Answer) => void;
  reject: (err: ServerError) => void;
}

interface Followed {
  tracker: VersionTracker;
  state: GameState | null;
  /** The version a resume was asked from, to ask only once per gap. */
  resumeFrom: number | null;
}

export type Listener = () => void;

/** The identity the server gave this client (docs/protocol.md §5 welcome). */
export type Me = Player;

export class Client {
  readonly socket: ReconnectingSocket;
  player: Me | null = null;
  myGames: PlayerGame[] = [];
  lobby: LobbyEntry[] | null = null;
  /** Quick-pairing seeks waiting at the server, by kind (from the lobby feed). */
  lobbySeeks: SeekEntry[] = [];
  /** Our own seek while it waits; sent again after a reconnection (a seek ends with its connection). */
  seeking: { preset: string; clock: ClockValue; rated: boolean } | null = null;
  /** The game our last seek was paired in. */
  matched: string | null = null;
  lastError: ServerError | null = null;
  /** Unread notifications (docs/protocol.md, "Notifications"). */
  unread = 0;
  /** The inbox's newest page, once asked for (loadInbox); new notifications are added on top. */
  inbox: Notification[] | null = null;
  private readonly notifyListeners = new Set<(n: Notification) => void>();
  /** Challenges waiting for an answer: received (to answer) and sent (docs/protocol.md, "Challenges"). */
  challengesIn: Challenge[] = [];
  challengesOut: Challenge[] = [];
  /** The players followed, once asked for (loadFollowing). */
  following: FollowedEntry[] | null = null;
  /** The tournaments followed (tournament_watch): their latest state, with `skew` = server − local ms. */
  readonly tournaments = new Map<string, TournamentMessage & { skew: number }>();
  /** The last `tournaments` list, and the server − local ms when it came. */
  tournamentList: TournamentInfo[] | null = null;
  /** The tournament of each game seen in a followed tournament's standings or named by its snapshot. */
  readonly tournamentGames = new Map<string, string>();
  /** Tournament games this player berserked in (from the snapshot's `berserk` and this client's own). */
  readonly berserked = new Set<string>();
  private readonly tournamentsWanted = new Set<string>();
  private authed = false;
  private readonly games = new Map<string, Followed>();
  private readonly pending = new Map<string, Pending>();
  private lobbyWanted = false;
  private seq = 0;
  private readonly prefix: string;
  private readonly listeners = new Set<Listener>();
  private readonly timers: Timers;
  private readonly now: () => number;
  private pingTimer: unknown = null;
  private readonly presence = new Map<string, boolean>();

  constructor(private readonly opts: ClientOptions) {
    this.timers = opts.timers ?? realTimers;
    this.now = opts.now ?? (() => performance.now());
    const rnd = opts.random ?? Math.random;
    // Request ids must be unique per player across page loads: a random prefix and a counter.
    this.prefix = Array.from({ length: 10 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(rnd() * 36)]).join('');
    const ping = opts.pingInterval ?? 0;
    this.socket = new ReconnectingSocket({
      url: () => opts.url,
      create: opts.create,
      timers: this.timers,
      backoff: opts.backoff,
      idleTimeout: ping ? Math.round(ping * 2.5) : 0,
      onMessage: (m) => this.onMessage(m),
      onState: (s) => {
        if (s !== 'open') {
          this.authed = false;
          this.stopPing();
        }
        this.emit();
      },
      onOpen: () => this.sendHello(),
    });
  }

  get state(): ConnState {
    return this.socket.state;
  }
  get token(): string | null {
    return this.opts.storage.getItem('rainet.token') || null;
  }
  get name(): string {
    return this.opts.storage.getItem('rainet.name') ?? '';
  }
  setName(name: string): void {
    this.opts.storage.setItem('rainet.name', name.slice(0, 24));
  }

  /** Changes the display name: kept for the next hello, and sent now when connected. */
  async rename(name: string): Promise<void> {
    this.setName(name);
    if (!name.trim()) return; // an empty name keeps the current one
    const ack = await this.request({ type: 'rename', name: name.slice(0, 24) });
    if (ack.player) this.player = ack.player;
    this.emit();
  }
  get authenticated(): boolean {
    return this.authed;
  }

  start(): void {
    this.socket.start();
  }
  stop(): void {
    this.stopPing();
    this.socket.stop();
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  private emit(): void {
    for (const fn of [...this.listeners]) fn();
  }

  game(id: string): GameState | null {
    return this.games.get(id)?.state ?? null;
  }

  /** Follows a game: a snapshot now (or a resume if already known), and again after reconnects. */
  follow(id: string): void {
    let f = this.games.get(id);
    if (!f) {
      f = { tracker: new VersionTracker(), state: null, resumeFrom: null };
      this.games.set(id, f);
    }
    if (this.authed) this.subscribeGame(id, f);
  }

  unfollow(id: string): void {
    if (!this.games.delete(id)) return;
    if (this.authed) this.raw({ type: 'leave', game: id });
  }

  followLobby(on: boolean): void {
    if (on === this.lobbyWanted) return;
    this.lobbyWanted = on;
    if (this.authed) this.raw({ type: on ? 'lobby_subscribe' : 'lobby_unsubscribe' });
  }

  /** Follows a tournament: its state now and on every change, again after reconnects. */
  watchTournament(id: string): void {
    if (this.tournamentsWanted.has(id)) return;
    this.tournamentsWanted.add(id);
    if (this.authed) this.raw({ type: 'tournament_watch', tournament: id });
  }

  unwatchTournament(id: string): void {
    if (!this.tournamentsWanted.delete(id)) return;
    this.tournaments.delete(id);
    if (this.authed) this.raw({ type: 'tournament_unwatch', tournament: id });
  }

  /** Asks for the list of tournaments (answered by `tournaments`, kept in `tournamentList`). */
  listTournaments(): void {
    if (this.authed) this.raw({ type: 'tournaments' });
  }

  /** Berserk in a tournament game: half the clock, no increment, a bonus point for a long win. */
  async berserk(game: string): Promise<void> {
    await this.request({ type: 'berserk', game });
    this.berserked.add(game);
    this.emit();
  }

  /**
   * Sends a state-changing message with a fresh id; resolves with its ack (a login's: its welcome,
   * `request<WelcomeMessage>`), rejects with its error.
   */
  request<T extends Answer = AckMessage>(msg: Record<string, unknown>): Promise<T> {
    const id = `${this.prefix}-${++this.seq}`;
    const full = { ...msg, id };
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { msg: full, resolve: (a) => resolve(a as T), reject });
      if (this.authed) this.raw(full);
    });
  }

  /** Called with each notification pushed live (not with those of the inbox's pages). */
  onNotification(fn: (n: Notification) => void): () => void {
    this.notifyListeners.add(fn);
    return () => this.notifyListeners.delete(fn);
  }

  /** Reads the inbox's newest page (or the page before `before`). */
  async loadInbox(before = 0): Promise<Notification[]> {
    const page = await this.request<NotificationsMessage>({ type: 'notifications', limit: 50, ...(before ? { before } : {}) });
    const items: Notification[] = Array.isArray(page.items) ? page.items : [];
    if (!before) this.inbox = items;
    else this.inbox = [...(this.inbox ?? []), ...items];
    this.unread = typeof page.unread === 'number' ? page.unread : this.unread;
    this.emit();
    return items;
  }

  /** Marks read every notification up to the newest one shown. */
  async markAllRead(): Promise<void> {
    const newest = this.inbox?.[0]?.id;
    if (newest === undefined) return;
    await this.request({ type: 'notifications_read', upTo: newest });
    this.inbox = (this.inbox ?? []).map((n) => ({ ...n, read: true }));
    this.unread = 0;
    this.emit();
  }

  /** Challenges a player (by id) to a game; resolves with the challenge made. */
  async challenge(player: string, kind: { preset: string; clock: ClockValue; rated: boolean; side: string }): Promise<Challenge> {
    const m = await this.request<ChallengeMessage>({ type: 'challenge', player, ...kind });
    const c: Challenge = m.challenge;
    if (!this.challengesOut.some((x) => x.id === c.id)) this.challengesOut = [...this.challengesOut, c];
    this.emit();
    return c;
  }

  /** Accepts a challenge received: the game comes as `matched`. */
  async acceptChallenge(id: string): Promise<void> {
    await this.request({ type: 'challenge_accept', challenge: id });
    this.dropChallenge(id);
  }

  async declineChallenge(id: string, reason: string): Promise<void> {
    await this.request({ type: 'challenge_decline', challenge: id, reason });
    this.dropChallenge(id);
  }

  async cancelChallenge(id: string): Promise<void> {
    await this.request({ type: 'challenge_cancel', challenge: id });
    this.dropChallenge(id);
  }

  private dropChallenge(id: string): void {
    this.challengesIn = this.challengesIn.filter((c) => c.id !== id);
    this.challengesOut = this.challengesOut.filter((c) => c.id !== id);
    this.emit();
  }

  async loadFollowing(): Promise<FollowedEntry[]> {
    const m = await this.request<FollowingMessage>({ type: 'following' });
    this.following = Array.isArray(m.players) ? m.players : [];
    this.emit();
    return this.following!;
  }

  async setFollow(player: string, on: boolean): Promise<void> {
    await this.request({ type: on ? 'follow' : 'unfollow', player });
    await this.loadFollowing();
  }

  /** Quick pairing: waits for an opponent wanting the same kind of game (see `matched`). */
  async seek(kind: { preset: string; clock: ClockValue; rated: boolean }): Promise<void> {
    this.seeking = kind;
    this.emit();
    try {
      await this.request({ type: 'seek', ...kind });
    } catch (e) {
      this.seeking = null;
      this.emit();
      throw e;
    }
  }

  async unseek(): Promise<void> {
    this.seeking = null;
    this.emit();
    if (this.authed) await this.request({ type: 'unseek' });
  }

  /** Plays an action in a game, carrying the last version seen. */
  act(game: string, action: string): Promise<AckMessage> {
    const v = this.games.get(game)?.tracker.version;
    return this.request({ type: 'act', game, action, ...(v !== undefined ? { v } : {}) });
  }

  /** Registers the current player as an account; resolves with the ack (its `player`). */
  async register(username: string, password: string): Promise<AckMessage> {
    const ack = await this.request({ type: 'register', username, password });
    if (ack.player) {
      this.player = ack.player;
      this.setName(ack.player.name);
      this.emit();
    }
    return ack;
  }

  /** Logs in: the answer is a welcome with a token of this browser for the account's player. */
  login(username: string, password: string): Promise<WelcomeMessage> {
    return this.request<WelcomeMessage>({ type: 'login', username, password });
  }

  /** Revokes this browser's token, forgets it, and starts again as a new guest. */
  async logout(): Promise<void> {
    await this.request({ type: 'logout' });
    this.opts.storage.setItem('rainet.token', '');
    this.opts.storage.setItem('rainet.name', '');
    this.authed = false;
    this.socket.reconnectNow();
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  private raw(msg: unknown): void {
    this.socket.send(msg);
  }

  private sendHello(): void {
    const hello: Record<string, unknown> = { type: 'hello' };
    if (this.token) hello.token = this.token;
    if (this.name) hello.name = this.name;
    this.raw(hello);
  }

  private subscribeGame(id: string, f: Followed): void {
    if (f.tracker.synced) {
      f.resumeFrom = f.tracker.version;
      // The chat lines said while away come back too (docs/protocol.md §8).
      this.raw({ type: 'resume', game: id, v: f.tracker.version, chat: f.state ? lastChat(f.state) : 0 });
    } else {
      this.raw({ type: 'watch', game: id });
    }
  }

  private onMessage(m: ServerMessage): void {
    if (!m || typeof m.type !== 'string') return;
    switch (m.type) {
      case 'welcome': {
        this.authed = true;
        if (typeof m.token === 'string') this.opts.storage.setItem('rainet.token', m.token);
        const before = this.player?.id;
        this.player = m.player ?? null;
        if (this.player?.kind === 'account') this.setName(this.player.name);
        this.myGames = Array.isArray(m.games) ? m.games : [];
        this.unread = typeof m.unread === 'number' ? m.unread : 0;
        if (before !== this.player?.id) this.inbox = null;
        // Another player now (a login): roles may differ, so every game starts from a snapshot.
        if (before !== undefined && before !== this.player?.id) for (const f of this.games.values()) f.tracker.forget();
        // A welcome answering a login resolves it (and is not resent below).
        const login = m.id !== undefined ? this.pending.get(String(m.id)) : undefined;
        if (login) this.pending.delete(String(m.id));
        for (const [id, f] of this.games) this.subscribeGame(id, f);
        if (this.lobbyWanted) this.raw({ type: 'lobby_subscribe' });
        for (const t of this.tournamentsWanted) this.raw({ type: 'tournament_watch', tournament: t });
        for (const p of this.pending.values()) this.raw(p.msg);
        // A waiting seek ended with the old connection: seek again.
        if (this.seeking && ![...this.pending.values()].some((p) => p.msg.type === 'seek'))
          this.request({ type: 'seek', ...this.seeking }).catch(() => { this.seeking = null; this.emit(); });
        this.startPing();
        login?.resolve(m);
        // The challenges waiting, received and sent (only a stored player, whose welcome
        // counts its unread notifications, has any).
        if (typeof m.unread === 'number') this.request<ChallengesMessage>({ type: 'challenges' }).then((l) => {
          this.challengesIn = Array.isArray(l.received) ? l.received : [];
          this.challengesOut = Array.isArray(l.sent) ? l.sent : [];
          this.emit();
        }, () => {});
        break;
      }
      case 'notification':
        this.unread = m.unread;
        if (this.inbox && !this.inbox.some((n) => n.id === m.n.id)) this.inbox = [m.n, ...this.inbox];
        for (const fn of [...this.notifyListeners]) fn(m.n);
        break;
      case 'unread':
        this.unread = m.unread;
        break;
      case 'challenge_update':
        this.challengesIn = this.challengesIn.filter((c) => c.id !== m.challenge);
        this.challengesOut = this.challengesOut.filter((c) => c.id !== m.challenge);
        break;
      case 'challenge': {
        if (m.id === undefined) {
          if (!this.challengesIn.some((c) => c.id === m.challenge.id)) this.challengesIn = [...this.challengesIn, m.challenge];
          break;
        }
        // The answer to our own challenge request.
        const p = this.pending.get(String(m.id));
        if (p) {
          this.pending.delete(String(m.id));
          p.resolve(m);
        }
        break;
      }
      case 'challenges':
      case 'following':
      case 'my_games':
      case 'notifications':
      case 'ack': {
        const p = this.pending.get(String(m.id));
        if (p) {
          this.pending.delete(String(m.id));
          p.resolve(m);
        }
        break;
      }
      case 'error': {
        const err: ServerError = { code: m.code, message: m.message ?? m.code, id: m.id, game: m.game };
        this.lastError = err;
        const p = m.id !== undefined ? this.pending.get(String(m.id)) : undefined;
        if (p) {
          this.pending.delete(String(m.id));
          p.reject(err);
        } else if (m.game && (m.code === 'unknown_game')) {
          const f = this.games.get(m.game);
          if (f) f.state = null;
        } else if (m.code === 'internal' && !this.authed) {
          // The server could not read the identity (a store failure): the token is kept and
          // hello is said again shortly, never replaced by a new guest's.
          setTimeout(() => { if (!this.authed) this.sendHello(); }, 2000);
        } else if (m.code === 'internal' && m.game) {
          // The game failed on the server and was reloaded from its store: follow it again.
          const f = this.games.get(m.game);
          if (f) this.subscribeGame(m.game, f);
        }
        break;
      }
      case 'snapshot': {
        const f = this.games.get(m.game);
        if (!f) return;
        f.tracker.reset(m.v);
        f.resumeFrom = null;
        const prev = f.state;
        f.state = fromSnapshot(m, this.now());
        if (m.tournament) this.tournamentGames.set(m.game, m.tournament.id);
        if (m.berserk?.includes(m.you as '1' | '2')) this.berserked.add(m.game);
        // Views seen before a resync stay valid: a game's history only grows.
        if (prev && prev.you === f.state.you) prev.views.forEach((v, i) => { if (v && f.state!.views[i] === undefined) f.state!.views[i] = v; });
        break;
      }
      case 'event': {
        const f = this.games.get(m.game);
        if (!f || typeof m.v !== 'number') return;
        const verdict = f.tracker.accept(m.v);
        if (verdict === 'duplicate') return;
        if (verdict === 'gap') {
          // Events before the first snapshot are covered by it; a gap after it asks for a resume once.
          if (f.tracker.synced && f.resumeFrom !== f.tracker.version) {
            f.resumeFrom = f.tracker.version;
            this.raw({ type: 'resume', game: m.game, v: f.tracker.version });
          }
          return;
        }
        if (f.state) f.state = applyEvent(f.state, m, this.now());
        // A rated game of this player ended: its own rating changed too.
        if (m.kind === 'end' && m.ratings && this.player && f.state)
          for (const side of ['1', '2'] as const)
            if (f.state.players[side]?.id === this.player.id && m.ratings[side]) this.player = { ...this.player, rating: m.ratings[side].after };
        break;
      }
      case 'presence': {
        const f = this.games.get(m.game);
        const pl = f?.state?.players[m.side as '1' | '2'];
        if (f?.state && pl) {
          const next = { ...pl, connected: !!m.connected };
          if (m.connected) delete next.awaySince;
          else next.awaySince = this.now();
          f.state = { ...f.state, players: { ...f.state.players, [m.side]: next } };
        }
        this.presence.set(`${m.game}/${m.side}`, !!m.connected);
        break;
      }
      case 'lobby':
        this.lobby = Array.isArray(m.games) ? m.games : [];
        this.lobbySeeks = Array.isArray(m.seeks) ? m.seeks : [];
        break;
      case 'chat': {
        const f = this.games.get(m.game);
        if (f?.state) f.state = addChat(f.state, m);
        break;
      }
      case 'spectators': {
        const f = this.games.get(m.game);
        if (f?.state && typeof m.count === 'number') f.state = { ...f.state, spectators: m.count };
        break;
      }
      case 'berserk': {
        // A player of the game berserked: the clocks now (the berserker's halved during play).
        const f = this.games.get(m.game);
        if (f?.state) f.state = { ...f.state, clocks: m.clocks, clocksAt: this.now() };
        if (f?.state && m.side === f.state.you) this.berserked.add(m.game);
        break;
      }
      case 'tournament':
        if (!m.tournament || !this.tournamentsWanted.has(m.tournament.id)) return;
        this.tournaments.set(m.tournament.id, { ...m, skew: typeof m.now === 'number' ? m.now - Date.now() : 0 });
        for (const e of m.standings ?? []) if (e.game) this.tournamentGames.set(e.game, m.tournament.id);
        break;
      case 'tournaments':
        this.tournamentList = Array.isArray(m.tournaments) ? m.tournaments : [];
        break;
      case 'matched':
        if (typeof m.game !== 'string') return;
        this.seeking = null;
        this.matched = m.game;
        break;
      default:
        return; // pong and unknown types: nothing to show
    }
    this.emit();
  }

  private startPing(): void {
    this.stopPing();
    const ms = this.opts.pingInterval ?? 0;
    if (!ms) return;
    const tick = () => {
      this.raw({ type: 'ping' });
      this.pingTimer = this.timers.setTimeout(tick, ms);
    };
    this.pingTimer = this.timers.setTimeout(tick, ms);
  }
  private stopPing(): void {
    if (this.pingTimer !== null) this.timers.clearTimeout(this.pingTimer);
    this.pingTimer = null;
  }
}
