// The game screen: waiting room, setup, play, spectating and the end of the game. Everything shown
// comes from the server's snapshot and events; moves are picked among the legal actions it sent.
import { actionSquares, buildTargets, destinations, type Targets, parseAction } from './actions.ts';
import { type Mark, renderBoard, cardFace } from './board.ts';
import { h } from './dom.ts';
import { endText } from './endtext.ts';
import { claimableAt, clockLeft, formatClock, type GameState, type SideId } from './game.ts';
import { describeAction } from './describe.ts';
import { type App, clockLabel, renderHand, renderStack, sideDot, type TerminalKind } from './ui.ts';
import { cardExplanation, cardName } from './cards.ts';
import { onLangChange, renderLangSwitch, t } from './i18n.ts';
import { playSounds, SoundCues } from './sound.ts';
import { canBerserk } from './tournament.ts';
import { type Side, type ViewModel, parseView, SETUP_SQUARES, squareIndex, opponent } from './view.ts';

interface Ui {
  selected: string | null;
  mode: TerminalKind | null;
  nfFirst: string | null;
  nfPair: [string, string] | null;
  cursor: string | null;
  sending: boolean;
  sentAtV: number;
  error: string;
  setup: Map<string, 'L' | 'V'> | null; // the arrangement being chosen
  setupPick: string | null;
  /** A confirmation step is shown for resigning or offering a draw. */
  confirm: 'resign' | 'draw' | null;
  endSeen: boolean;
  /** Browsing: the number of plies of the position shown, or null for the live position. */
  browse: number | null;
  /** The board turned around from the default (own side, or side 1 for spectators, at the bottom). */
  flipped: boolean;
}

function defaultArrangement(side: Side): Map<string, 'L' | 'V'> {
  const sq = SETUP_SQUARES[side];
  // Links on the three left back squares and the left front square, like the book's example.
  const links = new Set([sq[0], sq[1], sq[2], sq[6]]);
  return new Map(sq.map((s) => [s, links.has(s) ? 'L' : 'V']));
}

export function shuffledArrangement(side: Side, random: () => number = Math.random): Map<string, 'L' | 'V'> {
  const kinds: ('L' | 'V')[] = ['L', 'L', 'L', 'L', 'V', 'V', 'V', 'V'];
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  return new Map(SETUP_SQUARES[side].map((s, i) => [s, kinds[i]]));
}

const EMPTY_BOARD = '8/8/8/8/8/8/8/8 1 CNcn -/- 0 0';

/**
 * `local`: a seat of a pass-and-play game (localpage.ts): the game stays followed when the page
 * goes at a hand-over; the end is told with names, not as "You win"; no chat, no draw offers and no
 * rematch (the two players share this page).
 */
export function renderGamePage(app: App, id: string, opts: { local?: boolean } = {}): { el: HTMLElement; update: () => void; dispose: () => void } {
  const { client } = app;
  client.follow(id);
  const ui: Ui = {
    selected: null, mode: null, nfFirst: null, nfPair: null, cursor: null, sending: false, sentAtV: -1,
    error: '', setup: null, setupPick: null, confirm: null, endSeen: false, browse: null, flipped: false,
  };
  const el = h('div.gamepage');
  // Each new action is read out by screen readers (one node, kept across redraws).
  const live = h('div.sr-only', { 'aria-live': 'polite', 'data-announce': '' });
  const page = h('main.game-main', el, live);
  let announced = -1;
  let endAnnounced = false;
  let lastV = -1;
  // The rematch as first seen: a players' page follows a rematch agreed while it is open.
  let rematchSeen: { offer: SideId | null; next: string | null } | null = null;
  let rematchDeclined = false;
  // The chat box survives re-rendering (one node, moved into each new tree), so a half-typed line
  // and the focus are kept when an event redraws the page.
  const chatInput = h('input', { type: 'text', maxlength: 300, 'data-chat-input': '', autocomplete: 'off' }) as HTMLInputElement;
  const chatForm = h('form.chat-form', {
    on: {
      submit: (ev: Event) => {
        ev.preventDefault();
        const text = chatInput.value.trim();
        if (!text) return;
        client.request({ type: 'chat', game: id, text })
          .then(() => { if (chatInput.value.trim() === text) chatInput.value = ''; })
          .catch((e: any) => { ui.error = t('game.error.chat', { error: e.message ?? e.code }); update(); });
      },
    },
  }, chatInput);
  const chatSend = h('button.btn.small', { type: 'submit', 'data-action': 'chat-send' });
  chatForm.appendChild(chatSend);

  const clearSelection = () => {
    ui.selected = null;
    ui.mode = null;
    ui.nfFirst = null;
    ui.nfPair = null;
  };

  const play = async (action: string) => {
    const s = client.game(id);
    if (!s || ui.sending) return;
    clearSelection();
    ui.sending = true;
    ui.sentAtV = s.v;
    ui.error = '';
    update();
    try {
      await client.act(id, action);
    } catch (e: any) {
      if (e.code !== 'stale_version') ui.error = t('game.error.action', { action, error: e.message ?? e.code });
    } finally {
      ui.sending = false;
      update();
    }
  };

  const send = async (type: string, extra: Record<string, unknown> = {}) => {
    ui.error = '';
    try {
      await client.request({ type, game: id, ...extra });
    } catch (e: any) {
      ui.error = e.message ?? e.code;
    }
    update();
  };

  const onKey = (ev: KeyboardEvent) => {
    const typing = (ev.target as HTMLElement | null)?.tagName === 'INPUT';
    if (ev.key === 'Escape') {
      clearSelection();
      ui.setupPick = null;
      ui.confirm = null;
      update();
    } else if (!typing && ev.key === 'f' && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      ui.flipped = !ui.flipped;
      update();
    }
  };
  document.addEventListener('keydown', onKey);
  // Sounds of this game's changes (the local page plays those of a pass-and-play game itself).
  const cues = new SoundCues();
  const cue = (s: GameState) => { if (!opts.local) playSounds(cues.update(s, performance.now())); };
  const tick = setInterval(() => { updateClocks(); const s = client.game(id); if (s) cue(s); }, 200);

  function updateClocks(): void {
    const s = client.game(id);
    if (!s) return;
    const now = performance.now();
    // The claim button counts down the opponent's grace period.
    const claim = el.querySelector<HTMLButtonElement>('[data-action="claim"]');
    if (claim) {
      const wait = Math.ceil((Number(claim.dataset.due) - now) / 1000);
      claim.disabled = wait > 0;
      claim.textContent = wait > 0 ? t('game.claim.wait', { s: wait }) : t('game.claim');
    }
    for (const side of ['1', '2'] as SideId[]) {
      const left = clockLeft(s, side, now);
      const node = el.querySelector<HTMLElement>(`[data-clock="${side}"]`);
      if (node && left !== null) {
        node.textContent = formatClock(left);
        node.classList.toggle('low', left < 1000 && s.clocks?.running === side);
      }
    }
  }

  function mySide(s: GameState): Side | null {
    return s.you === '1' ? 1 : s.you === '2' ? 2 : null;
  }

  function update(): void {
    const s = client.game(id);
    const focusedSquare = (document.activeElement as HTMLElement | null)?.dataset?.square ?? null;
    const chatFocused = document.activeElement === chatInput;
    const chatSelection = [chatInput.selectionStart, chatInput.selectionEnd] as const;
    if (!s) {
      const err = client.lastError?.game === id && client.lastError.code === 'unknown_game';
      el.replaceChildren(h('div.panel', err ? h('div.banner.err', { 'data-error': 'unknown_game' }, t('game.unknown', { id })) : h('div.empty', t('game.loading')),
        h('p', h('a', { href: '/', 'data-link': '' }, t('game.home')))));
      return;
    }
    if (s.v !== lastV) {
      // A new version: drop a selection that may no longer be legal.
      if (lastV !== -1) clearSelection();
      lastV = s.v;
      if (s.status !== 'playing') ui.confirm = null;
    }
    announce(s);
    cue(s);
    keepViews(s);
    if (rematchSeen && s.rematch.next && !rematchSeen.next && s.you !== 'spectator') {
      const next = s.rematch.next;
      setTimeout(() => app.navigate(`/game/${next}`), 0);
    }
    if (rematchSeen?.offer === s.you && !s.rematch.offer && !s.rematch.next) rematchDeclined = true;
    if (s.rematch.offer) rematchDeclined = false;
    rematchSeen = s.rematch;
    const me = mySide(s);
    if (s.status === 'setup' && me && !s.setup[s.you as SideId] && !ui.setup) ui.setup = defaultArrangement(me);
    const yourTurn = s.status === 'playing' && me !== null && !!s.legal?.length;
    document.title = t(yourTurn ? 'game.title.turn' : 'game.title', { id });
    el.replaceChildren(renderScreen(s, me));
    let dialog: HTMLElement | null = null;
    if (ui.nfPair) el.appendChild((dialog = nfDialog()));
    if ((s.status === 'finished' || s.status === 'aborted') && !ui.endSeen && !opts.local) el.appendChild((dialog = endOverlay(s)));
    updateClocks();
    // Keyboard users land in an open dialog; otherwise the focus stays on the square it was on.
    if (dialog) dialog.querySelector<HTMLElement>('button')?.focus();
    else if (focusedSquare) el.querySelector<HTMLElement>(`[data-square="${focusedSquare}"]`)?.focus();
    else if (chatFocused) {
      chatInput.focus();
      chatInput.setSelectionRange(chatSelection[0], chatSelection[1]);
    }
  }

  /** Display name of a side: the player's name, or "side N" while the seat is empty. */
  function nameOf(s: GameState, side: Side | SideId): string {
    return s.players[String(side) as SideId]?.name ?? t('game.side', { n: side });
  }

  /** Reads each new action out (aria-live), with the player's name. */
  function announce(s: GameState): void {
    if (s.result && !endAnnounced) {
      endAnnounced = true;
      if (announced !== -1) { live.textContent = endWords(s).sentence; return; }
    }
    const n = s.history.length;
    if (announced === -1 || n < announced) { announced = n; return; } // the first render says nothing
    if (n === announced) return;
    const e = s.history[n - 1];
    const who = s.you === e.side ? null : nameOf(s, e.side);
    live.textContent = describeAction(e.action, who, e.revealed);
    announced = n;
  }

  // The views seen survive a reload of this tab (sessionStorage: this browser tab only, and only
  // what the server sent to this player's role).
  let viewsRestored = false;
  function keepViews(s: GameState): void {
    const key = `rainet.views.${id}.${client.player?.id ?? ''}.${s.you}`;
    try {
      if (!viewsRestored) {
        viewsRestored = true;
        const saved: unknown = JSON.parse(sessionStorage.getItem(key) ?? '[]');
        if (Array.isArray(saved)) saved.forEach((v, i) => { if (typeof v === 'string' && i <= s.history.length && s.views[i] === undefined) s.views[i] = v; });
      }
      if (s.status === 'playing') sessionStorage.setItem(key, JSON.stringify(s.views));
      else if (s.status === 'finished' || s.status === 'aborted') sessionStorage.removeItem(key);
    } catch { /* storage unavailable: browsing covers what this page saw */ }
  }

  /** The plies whose position this page can show (the views it has seen), oldest first. */
  function browsable(s: GameState): number[] {
    const out: number[] = [];
    s.views.forEach((v, i) => { if (v) out.push(i); });
    return out;
  }

  function renderScreen(s: GameState, me: Side | null): HTMLElement {
    const bottom: Side = ui.flipped ? opponent(me ?? 1) : me ?? 1;
    const top: Side = opponent(bottom);
    const playing = s.status === 'playing';
    const finished = s.status === 'finished' || s.status === 'aborted';
    const plies = s.history.length;
    // Browsing an earlier position of the game (what this role saw then), never past the end.
    if (ui.browse !== null && (ui.browse >= plies || !s.views[ui.browse])) ui.browse = null;
    const browsing = ui.browse !== null && !finished;
    let view: ViewModel | null = null;
    if (browsing) view = parseView(s.views[ui.browse!]!);
    else if (finished && s.result?.position) view = parseView(s.result.position);
    else if (s.view) view = parseView(s.view);

    // --- interaction data
    const myTurn = !browsing && playing && me !== null && !!s.legal && s.legal.length > 0 && view?.toMove === me && !ui.sending;
    const targets: Targets = buildTargets(myTurn ? s.legal ?? [] : []);
    const marks = new Map<string, Mark>();
    let serverTarget: Side | null = null;
    if (myTurn && ui.mode) {
      if (ui.mode === 'NF') {
        if (!ui.nfFirst) for (const k of targets.notFound.keys()) marks.set(k, 'target');
        else {
          marks.set(ui.nfFirst, 'source');
          for (const k of targets.notFound.get(ui.nfFirst)?.keys() ?? []) marks.set(k, 'target');
        }
      } else {
        const m = ui.mode === 'LB' ? targets.lineBoost : ui.mode === 'FW' ? targets.firewall : targets.virusChecker;
        for (const k of m.keys()) marks.set(k, 'target');
      }
    } else if (myTurn && ui.selected && view) {
      for (const d of destinations(targets, ui.selected)) {
        if (d.to === 'srv') serverTarget = opponent(me!);
        else marks.set(d.to, view.squares[squareIndex(d.to)].card ? 'capture' : d.steps === 2 ? 'dest2' : 'dest');
      }
    }

    // --- the board
    let boardView: ViewModel;
    let setupSquares: Set<string> | null = null;
    if (view) boardView = view;
    else {
      boardView = parseView(EMPTY_BOARD);
      for (const side of [1, 2] as Side[]) {
        const mine = side === me;
        const arrangement = mine ? (ui.setup ?? (s.links ? new Map(SETUP_SQUARES[side].map((q) => [q, s.links!.includes(q) ? 'L' : 'V'] as const)) : null)) : null;
        for (const q of SETUP_SQUARES[side]) {
          const seated = s.players[String(side) as SideId] !== null;
          if (!seated) continue;
          boardView.squares[squareIndex(q)].card = { owner: side, kind: arrangement?.get(q) ?? 'X', boost: false, faceUp: false, onFirewall: false };
        }
      }
      if (me && s.status === 'setup' && !s.setup[s.you as SideId]) {
        setupSquares = new Set(SETUP_SQUARES[me]);
        if (ui.setupPick) marks.set(ui.setupPick, 'source');
      }
    }
    const shownPlies = browsing ? ui.browse! : plies;
    const lastEntry = shownPlies > 0 ? s.history[shownPlies - 1] : null;
    const lastAction = lastEntry ? parseAction(lastEntry.action) : null;
    const board = renderBoard(boardView, {
      bottom,
      me,
      names: { 1: nameOf(s, 1), 2: nameOf(s, 2) },
      selected: ui.selected,
      marks,
      serverTarget,
      movable: myTurn && !ui.mode && !ui.selected ? new Set(targets.moves.keys()) : undefined,
      last: lastAction ? actionSquares(lastAction) : [],
      lastFrom: lastAction?.kind === 'move' || lastAction?.kind === 'enter' ? lastAction.from : undefined,
      cursor: ui.cursor,
      onSquare: (sq) => (browsing ? undefined : setupSquares ? onSetupSquare(sq, setupSquares) : onSquare(sq, targets, s)),
      onServer: () => {
        const a = ui.selected ? targets.moves.get(ui.selected)?.get('srv') : undefined;
        if (a) void play(a);
      },
      onCursor: (sq) => { ui.cursor = sq; update(); el.querySelector<HTMLElement>(`[data-square="${sq}"]`)?.focus(); },
      onFocusSquare: (sq) => { ui.cursor = sq; },
    });
    if (browsing) board.classList.add('browsing');
    if (setupSquares) {
      for (const sq of setupSquares) {
        const b = board.querySelector<HTMLElement>(`[data-square="${sq}"]`)!;
        b.classList.add('setup-own');
        b.draggable = true;
        b.addEventListener('dragstart', (e) => { e.dataTransfer?.setData('text/plain', sq); ui.setupPick = null; });
        b.addEventListener('dragover', (e) => e.preventDefault());
        b.addEventListener('drop', (e) => {
          e.preventDefault();
          const from = e.dataTransfer?.getData('text/plain');
          if (from && setupSquares!.has(from)) swapSetup(from, sq);
        });
      }
    }

    // --- player bars: name, clock, terminal cards, stack
    const bar = (side: Side, where: 'top' | 'bottom') => {
      const sid = String(side) as SideId;
      const p = s.players[sid];
      const isTurn = playing && !browsing && view?.toMove === side;
      return h('div.player-bar', { class: `${where}${isTurn ? ' turn' : ''}`, 'data-player': sid },
        h('div.bar-head',
          h('span.name', sideDot(side), p ? h('span.pname', p.name) : h('span.hint', t('game.bar.waiting')), me === side ? h('span.you', t('game.bar.you')) : null,
            p?.bot ? h('span.tag', { 'data-bot': sid }, t('game.bar.bot')) : null,
            p && typeof p.rating === 'number' ? h('span.rating', { 'data-rating': sid }, String(p.rating)) : null),
          p && p.connected === false ? h('span.offline', { 'data-offline': sid }, t('game.bar.disconnected')) : null,
          h('span.grow'),
          renderStack(view ? view.stacks[side - 1] : [], side, me),
          s.clocks ? h('span.clock', { class: s.clocks.running === sid && playing ? 'running' : '', 'data-clock': sid, role: 'timer', 'aria-label': t('game.bar.clock', { name: nameOf(s, side) }) }, '') : null),
        h('div.bar-cards',
          me === side && myTurn && !finished
            ? renderHand(view, side, {
                interactive: true, active: ui.mode,
                enabled: (k) => (k === 'LB' ? targets.lineBoost.size : k === 'FW' ? targets.firewall.size : k === 'VC' ? targets.virusChecker.size : targets.notFound.size) > 0,
                onPick: (k) => { const was = ui.mode; clearSelection(); ui.mode = was === k ? null : k; update(); },
              })
            : renderHand(view, side)),
      );
    };

    return h('div.game', { 'data-status': s.status, 'data-you': s.you, 'data-v': s.v, 'data-bottom': bottom },
      h('div.zone-board', board),
      h('div.zone-top', bar(top, 'top')),
      h('div.zone-ctl', controlPanel(s, me, view, myTurn, browsing, setupSquares ? me : null)),
      h('div.zone-more', movesPanel(s), opts.local ? null : chatPanel(s, me), infoPanel(s, me)),
      h('div.zone-bottom', bar(bottom, 'bottom')));
  }

  function onSquare(sq: string, t: Targets, s: GameState): void {
    ui.cursor = sq;
    if (ui.mode) {
      if (ui.mode === 'NF') {
        if (!ui.nfFirst) {
          if (t.notFound.has(sq)) ui.nfFirst = sq;
          else clearSelection();
        } else if (sq === ui.nfFirst) {
          ui.nfFirst = null;
        } else if (t.notFound.get(ui.nfFirst)?.has(sq)) {
          ui.nfPair = [ui.nfFirst, sq];
        } else clearSelection();
        update();
        return;
      }
      const m = ui.mode === 'LB' ? t.lineBoost : ui.mode === 'FW' ? t.firewall : t.virusChecker;
      const a = m.get(sq);
      if (a) { void play(a); return; }
      clearSelection();
      update();
      return;
    }
    if (ui.selected) {
      const a = t.moves.get(ui.selected)?.get(sq);
      if (a) { void play(a); return; }
    }
    ui.selected = ui.selected !== sq && t.moves.has(sq) ? sq : null;
    void s;
    update();
  }

  function onSetupSquare(sq: string, own: Set<string>): void {
    ui.cursor = sq;
    if (!own.has(sq)) { ui.setupPick = null; update(); return; }
    if (!ui.setupPick) ui.setupPick = sq;
    else if (ui.setupPick === sq) ui.setupPick = null;
    else { swapSetup(ui.setupPick, sq); return; }
    update();
  }

  function swapSetup(a: string, b: string): void {
    if (!ui.setup) return;
    const x = ui.setup.get(a)!, y = ui.setup.get(b)!;
    ui.setup.set(a, y);
    ui.setup.set(b, x);
    ui.setupPick = null;
    update();
  }

  function setupTray(me: Side, extra: (HTMLElement | null)[]): HTMLElement {
    const links = [...(ui.setup ?? new Map())].filter(([, k]) => k === 'L').map(([q]) => q);
    return h('div.setup-tray', { 'data-setup': 'tray' },
      h('div.hint', t('game.setup.hint'), h('span.kbd', ` ${t('game.setup.keys')}`)),
      h('div.pool', cardFace({ owner: me, kind: 'L', boost: false, faceUp: false, onFirewall: false }, me), h('span.mono', `×${links.length}`),
        cardFace({ owner: me, kind: 'V', boost: false, faceUp: false, onFirewall: false }, me), h('span.mono', `×${8 - links.length}`)),
      h('button.btn', { type: 'button', 'data-action': 'setup-random', on: { click: () => { ui.setup = shuffledArrangement(me); ui.setupPick = null; update(); } } }, t('game.setup.random')),
      h('button.btn.primary', {
        type: 'button', 'data-action': 'setup-confirm',
        on: { click: () => void send('setup', { links: [...links].sort((p, q) => squareIndex(p) - squareIndex(q)) }) },
      }, t('game.setup.confirm')),
      ...extra,
    );
  }

  function historyList(s: GameState): HTMLElement {
    const rows: HTMLElement[] = [];
    const n = s.history.length;
    const shown = ui.browse ?? n;
    for (let i = 0; i < n; i += 2) {
      rows.push(h('span.n', `${i / 2 + 1}.`));
      for (const e of [s.history[i], s.history[i + 1]]) {
        if (!e) { rows.push(h('span')); continue; }
        const can = !!s.views[e.ply + 1] && s.status !== 'finished' && s.status !== 'aborted';
        rows.push(h(`button.mv.s${e.side}`, {
          type: 'button', class: e.ply === shown - 1 ? 'cur' : '', 'data-ply': e.ply, disabled: !can,
          'aria-current': e.ply === shown - 1 ? 'step' : false,
          title: t('game.history.title', { name: nameOf(s, e.side), n: e.ply + 1 }),
          on: { click: () => { ui.browse = e.ply + 1 === n ? null : e.ply + 1; update(); } },
        }, e.action, e.revealed ? h('span.rev', ` {${e.revealed === 'link' ? 'L' : 'V'}}`) : null));
      }
    }
    // Focusable: a long list scrolls, and keyboard users must reach it when its buttons are disabled (the end).
    const box = h('div.moves', { 'data-history': '', tabindex: 0 }, rows.length ? rows : h('span.hint', { style: { gridColumn: '1 / -1' } }, t('game.history.none')));
    requestAnimationFrame(() => {
      const cur = box.querySelector<HTMLElement>('.cur');
      if (ui.browse !== null && cur) box.scrollTop = cur.offsetTop - box.clientHeight / 2;
      else box.scrollTop = box.scrollHeight;
    });
    return box;
  }

  function statusLine(s: GameState, me: Side | null, view: ViewModel | null, myTurn: boolean): HTMLElement {
    let text = '';
    let mine = false;
    if (s.status === 'open') text = t(me ? 'game.status.waiting' : 'game.status.open');
    else if (s.status === 'setup') {
      if (me && !s.setup[s.you as SideId]) { text = t('game.status.setup'); mine = true; }
      else text = t('game.status.settingUp');
    } else if (s.status === 'playing' && view) {
      if (me === null) text = t('game.status.toMove', { name: nameOf(s, view.toMove) });
      else if (view.toMove === me) { text = t(ui.sending ? 'game.status.sending' : myTurn ? 'game.status.yourTurn' : 'game.status.yourTurnWait'); mine = true; }
      else text = t('game.status.toMove', { name: nameOf(s, view.toMove) });
    }
    return h('div.status', { class: mine ? 'mine' : '', 'data-turn': mine ? 'me' : 'other' }, text);
  }

  function hint(myTurn: boolean): HTMLElement | null {
    if (!myTurn) return null;
    // A card being played: what to click, and what the card does (seen on touch screens too).
    const explain = ui.mode ? h('span.explain', { 'data-hint-explain': ui.mode }, ` ${cardExplanation(ui.mode)}`) : null;
    if (ui.mode === 'NF') return h('div.hint', { 'data-hint': 'NF' }, ui.nfFirst ? t('game.hint.nf2', { card: cardName('NF'), square: ui.nfFirst }) : t('game.hint.nf1', { card: cardName('NF') }), explain);
    if (ui.mode) return h('div.hint', { 'data-hint': ui.mode }, t('game.hint.card', { card: cardName(ui.mode) }), h('span.kbd', ` ${t('game.hint.escCancels')}`), explain);
    if (ui.selected) return h('div.hint', t('game.hint.dest', { square: ui.selected }));
    return h('div.hint', t('game.hint.pick'));
  }

  /** Status, offers, setup, the game's buttons, browsing and flipping: always on screen. */
  function controlPanel(s: GameState, me: Side | null, view: ViewModel | null, myTurn: boolean, browsing: boolean, settingUp: Side | null): HTMLElement {
    const seated = me !== null;
    const oppSide = me ? (String(opponent(me)) as SideId) : null;
    const finished = s.status === 'finished' || s.status === 'aborted';
    const controls: (HTMLElement | null)[] = [];
    const confirm = (what: 'resign' | 'draw') => { ui.confirm = what; update(); el.querySelector<HTMLElement>(`[data-action="${what}-confirm"]`)?.focus(); };
    if (seated && s.status === 'open') {
      const link = `${app.origin}/game/${id}`;
      controls.push(h('div.field.invite', h('span', t('game.invite.label')), h('div.row', h('input', { type: 'text', readonly: true, value: link, 'data-invite': '', 'aria-label': t('game.invite.aria'), style: { flex: '1' } }),
        h('button.btn.small', { type: 'button', 'data-action': 'copy-invite', on: { click: (e: Event) => {
          const b = e.currentTarget as HTMLButtonElement;
          navigator.clipboard?.writeText(link).then(() => { b.textContent = t('game.invite.copied'); }, () => { b.textContent = t('game.invite.selectCopy'); });
        } } }, t('game.invite.copy')))));
    }
    if (!seated && s.status === 'open') controls.push(h('button.btn.primary', { type: 'button', 'data-action': 'join', on: { click: async () => { await send('join'); client.follow(id); } } }, t('game.join')));
    if (seated && s.abortable)
      controls.push(h('button.btn', { type: 'button', 'data-action': 'abort', on: { click: () => void send('abort') } }, t('game.abort')));
    // A tournament game (known from the followed tournament's standings): berserk until the first action.
    if (seated && !opts.local && client.tournamentGames.has(id)) {
      if (client.berserked.has(id)) controls.push(h('span.tag.berserked', { 'data-berserked': '' }, t('game.berserked')));
      else if (canBerserk(s, false))
        controls.push(h('button.btn.berserk', { type: 'button', 'data-action': 'berserk', title: t('game.berserk.title'),
          on: { click: () => { ui.error = ''; client.berserk(id).catch((e: any) => { ui.error = e.message ?? e.code; }).finally(update); } } }, `⚔ ${t('game.berserk')}`));
    }
    let confirmBox: HTMLElement | null = null;
    if (seated && s.status === 'playing') {
      // Pass and play has no draw offers: the offer would wait for a seat whose turn never comes.
      if (!opts.local) {
        if (s.drawOffer === oppSide)
          controls.push(h('button.btn.primary', { type: 'button', 'data-action': 'draw-accept', on: { click: () => void send('draw_accept') } }, t('game.draw.accept')),
            h('button.btn', { type: 'button', 'data-action': 'draw-decline', on: { click: () => void send('draw_decline') } }, t('game.decline')));
        else if (s.drawOffer === s.you) controls.push(h('button.btn', { type: 'button', disabled: true }, t('game.draw.offered')));
        else controls.push(h('button.btn', { type: 'button', 'data-action': 'draw-offer', 'aria-expanded': ui.confirm === 'draw' ? 'true' : 'false', on: { click: () => confirm('draw') } }, t('game.draw.offer')));
      }
      controls.push(h('button.btn.danger', { type: 'button', 'data-action': 'resign', 'aria-expanded': ui.confirm === 'resign' ? 'true' : 'false', on: { click: () => confirm('resign') } }, t('game.resign')));
      const opp = oppSide ? s.players[oppSide] : null;
      if (opp && opp.connected === false) {
        const button = h('button.btn', { type: 'button', 'data-action': 'claim', title: t('game.claim.title', { s: ((s.grace ?? 6000) / 100).toFixed(0) }), on: { click: () => void send('claim_win') } }, t('game.claim'));
        button.dataset.due = String(claimableAt(s, oppSide!) ?? 0);
        controls.push(button);
      }
      if (ui.confirm === 'resign')
        confirmBox = h('div.confirm', { role: 'group', 'aria-label': t('game.resign.aria'), 'data-confirm': 'resign' }, h('span', t('game.resign.ask')),
          h('button.btn.danger', { type: 'button', 'data-action': 'resign-confirm', on: { click: () => { ui.confirm = null; void send('resign'); } } }, t('game.resign.yes')),
          h('button.btn', { type: 'button', 'data-action': 'confirm-cancel', on: { click: () => { ui.confirm = null; update(); } } }, t('game.no')));
      else if (ui.confirm === 'draw' && !s.drawOffer)
        confirmBox = h('div.confirm', { role: 'group', 'aria-label': t('game.draw.aria'), 'data-confirm': 'draw' }, h('span', opp ? t('game.draw.ask', { name: opp.name }) : t('game.draw.askOpponent')),
          h('button.btn.primary', { type: 'button', 'data-action': 'draw-confirm', on: { click: () => { ui.confirm = null; void send('draw_offer'); } } }, t('game.draw.yes')),
          h('button.btn', { type: 'button', 'data-action': 'confirm-cancel', on: { click: () => { ui.confirm = null; update(); } } }, t('game.no')));
    }
    if (ui.mode || ui.selected) controls.push(h('button.btn.small', { type: 'button', 'data-action': 'cancel', on: { click: () => { clearSelection(); update(); } } }, t('game.cancel'), h('span.kbd', ' (Esc)')));

    const drawNote = s.status === 'playing' && s.drawOffer && s.drawOffer !== s.you
      ? h('div.banner', { 'data-draw-offer': s.drawOffer }, t('game.draw.offers', { name: nameOf(s, s.drawOffer) })) : null;
    const declined = s.status === 'playing' && s.drawDeclined && s.drawDeclined !== s.you
      ? h('div.banner', { 'data-draw-declined': s.drawDeclined }, t('game.draw.declined', { name: nameOf(s, s.drawDeclined) })) : null;
    const readiness = s.status === 'setup' ? h('div.readiness', { 'data-readiness': '' },
      (['1', '2'] as SideId[]).map((sd) => h('span', { class: s.setup[sd] ? 'ok' : 'wait', 'data-ready': `${sd}-${s.setup[sd] ? 'yes' : 'no'}` },
        sideDot(sd), ` ${t(s.setup[sd] ? 'game.ready.yes' : 'game.ready.no', { name: me && String(me) === sd ? t('game.you') : nameOf(s, sd) })}`))) : null;
    const offline = client.state !== 'open' || !client.authenticated
      ? h('div.banner', { 'data-offline-banner': '' }, t('game.offline'))
      : null;

    // Browsing earlier positions and flipping the board.
    const avail = browsable(s);
    const plies = s.history.length;
    const shown = ui.browse ?? plies;
    const prevPly = [...avail].reverse().find((p) => p < shown);
    const nextPly = avail.find((p) => p > shown);
    const goTo = (p: number | undefined) => { if (p === undefined) return; ui.browse = p >= plies ? null : p; clearSelection(); update(); };
    const nav = h('div.nav-row', { 'data-browse': '' },
      finished ? null : [
        h('button.btn.small', { type: 'button', 'data-nav': 'first', 'aria-label': t('game.nav.first'), disabled: avail.length === 0 || avail[0] >= shown, on: { click: () => goTo(avail[0]) } }, '«'),
        h('button.btn.small', { type: 'button', 'data-nav': 'prev', 'aria-label': t('game.nav.prev'), disabled: prevPly === undefined, on: { click: () => goTo(prevPly) } }, '◀'),
        h('button.btn.small', { type: 'button', 'data-nav': 'next', 'aria-label': t('game.nav.next'), disabled: ui.browse === null, on: { click: () => goTo(nextPly ?? plies) } }, '▶'),
        h('button.btn.small', { type: 'button', 'data-nav': 'live', 'aria-label': t('game.nav.live'), disabled: ui.browse === null, on: { click: () => goTo(plies) } }, '»'),
      ],
      h('span.grow'),
      h('button.btn.small', { type: 'button', 'data-action': 'flip', 'aria-pressed': ui.flipped ? 'true' : 'false', on: { click: () => { ui.flipped = !ui.flipped; update(); } } }, `⇅ ${t('game.flip')}`, h('span.kbd', ' (f)')));
    const browseNote = browsing
      ? h('div.banner.browse', { 'data-browsing': ui.browse },
        ui.browse === 0 ? t('game.browse.start') : t('game.browse.after', { n: ui.browse!, total: plies }), ' ', h('button.linkish', { type: 'button', 'data-action': 'back-to-game', on: { click: () => goTo(plies) } }, t('game.browse.back')))
      : null;

    return h('div.panel.ctl',
      offline,
      finished && s.result ? endPanel(s) : null,
      finished ? null : statusLine(s, me, view, myTurn),
      browseNote,
      hint(myTurn),
      readiness,
      settingUp ? setupTray(settingUp, controls) : null,
      drawNote,
      declined,
      ui.error ? h('div.banner.err', { 'data-error': '' }, ui.error) : null,
      controls.length && !settingUp ? h('div.row.controls', controls) : null,
      confirmBox,
      s.status === 'playing' || finished ? nav : null);
  }

  function movesPanel(s: GameState): HTMLElement {
    return h('section.panel.moves-panel', { 'aria-label': t('game.actions.aria') }, h('h2', t('game.actions')), historyList(s));
  }

  function infoPanel(s: GameState, me: Side | null): HTMLElement {
    const facts = [t(s.preset === 'official' ? 'game.preset.official' : 'game.preset.standard'), clockLabel(s.clock)];
    if (s.opponent === 'computer') facts.push(t('game.info.computer', { level: s.level ?? '?' }));
    facts.push(t(s.rated ? 'game.info.rated' : 'game.info.casual'));
    return h('div.panel.info', h('div.hint', { 'data-info': '' },
      `${facts.join(' · ')} · `,
      h('span.mono', id), me === null ? ` · ${t('game.info.spectating')}` : '',
      h('span', { 'data-spectators': s.spectators }, s.spectators ? ` · ${t('game.info.watching', { n: s.spectators })}` : '')),
      tournamentLink(),
      renderLangSwitch());
  }

  function tournamentLink(): HTMLElement | null {
    const tid = client.tournamentGames.get(id);
    const tour = tid ? client.tournaments.get(tid) : undefined;
    return tour ? h('div', h('a', { href: `/tournament/${tour.tournament.id}`, 'data-link': '', 'data-tournament-link': tour.tournament.id }, t('game.tournament', { name: tour.tournament.name }))) : null;
  }

  function chatPanel(s: GameState, me: Side | null): HTMLElement {
    chatInput.placeholder = t(me ? 'game.chat.placeholder' : 'game.chat.placeholderSpectators');
    chatInput.setAttribute('aria-label', t('game.chat.input'));
    chatSend.textContent = t('game.chat.send');
    const log = h('div.chat-log', { 'data-chat-log': '' },
      s.chat.length
        ? s.chat.map((l) => h('div.chat-line', { 'data-chat-from': l.side ?? 'spectator' },
          l.side ? sideDot(l.side) : null, h('b', ` ${l.from.name}: `), l.text))
        : h('span.hint', t(me ? 'game.chat.playersOnly' : 'game.chat.spectatorsOnly')));
    requestAnimationFrame(() => (log.scrollTop = log.scrollHeight));
    return h('section.panel.chat', { 'data-chat': me ? 'players' : 'spectators', 'aria-label': t('game.chat.aria') }, h('h2', t(me ? 'game.chat' : 'game.chat.spectators')), log, chatForm);
  }

  function endWords(s: GameState) {
    const last = s.history.length ? s.history[s.history.length - 1].action : null;
    return endText({ result: s.result!, names: { '1': nameOf(s, 1), '2': nameOf(s, 2) }, you: opts.local ? 'spectator' : s.you, lastAction: last, position: s.result?.position ?? null });
  }

  function endPanel(s: GameState): HTMLElement {
    const r = s.result!;
    const end = endWords(s);
    return h('div.endpanel', { 'data-end': r.reason },
      h('div.result', end.headline),
      h('div.reason', end.reason),
      r.ratings ? h('div.hint', { 'data-rating-change': '' }, (['1', '2'] as SideId[]).map((sd) => {
        const d = r.ratings![sd].after - r.ratings![sd].before;
        return t('game.end.rating', { name: nameOf(s, sd), rating: r.ratings![sd].after, change: `${d >= 0 ? '+' : ''}${d}` });
      }).join(' · ')) : null,
      r.position ? h('div.hint', t('game.end.revealed')) : null,
      opts.local ? null : rematchNote(s),
      h('div.row',
        s.status === 'finished' ? h('a.btn', { href: `/replay/${id}`, 'data-link': '', 'data-action': 'replay' }, t('game.end.replay')) : null,
        ...(opts.local ? [] : rematchControls(s)),
        h('a.btn', { href: '/', 'data-link': '' }, t('game.end.home'))));
  }

  function rematchNote(s: GameState): HTMLElement | null {
    const me = s.you;
    if (s.rematch.offer && s.rematch.offer !== me)
      return h('div.banner', { 'data-rematch-offer': s.rematch.offer }, t('game.rematch.asks', { name: nameOf(s, s.rematch.offer) }));
    if (rematchDeclined && me !== 'spectator') return h('div.banner', { 'data-rematch-declined': '' }, t('game.rematch.declined'));
    return null;
  }

  /** Rematch buttons after the end: offer, accept or decline, or a link to the agreed game. */
  function rematchControls(s: GameState): (HTMLElement | null)[] {
    const r = s.rematch;
    // A tournament pairs its players again by itself: back to its page rather than a rematch.
    const tid = client.tournamentGames.get(id);
    if (tid) return [h('a.btn.primary', { href: `/tournament/${tid}`, 'data-link': '', 'data-action': 'goto-tournament' }, t('tour.back'))];
    if (r.next)
      return [h('a.btn.primary', { href: `/game/${r.next}`, 'data-link': '', 'data-action': 'goto-rematch' }, t(s.you === 'spectator' ? 'game.rematch.watch' : 'game.rematch.go'))];
    if (s.you === 'spectator') return [];
    const opp: SideId = s.you === '1' ? '2' : '1';
    if (!s.players[opp]) return []; // nobody ever sat there
    if (r.offer === opp)
      return [
        h('button.btn.primary', { type: 'button', 'data-action': 'rematch-accept', on: { click: () => void send('rematch') } }, t('game.rematch.accept')),
        h('button.btn', { type: 'button', 'data-action': 'rematch-decline', on: { click: () => void send('rematch_decline') } }, t('game.decline')),
      ];
    if (r.offer === s.you) return [h('button.btn', { type: 'button', disabled: true, 'data-action': 'rematch-offered' }, t('game.rematch.offered'))];
    return [h('button.btn.primary', { type: 'button', 'data-action': 'rematch', on: { click: () => void send('rematch') } }, t('game.rematch'))];
  }

  function endOverlay(s: GameState): HTMLElement {
    const end = endWords(s);
    const close = () => { ui.endSeen = true; update(); };
    return h('div.overlay', { 'data-overlay': 'end', on: { click: (e: Event) => { if (e.target === e.currentTarget) close(); } } },
      h('div.panel.dialog.endpanel', { role: 'dialog', 'aria-label': t('game.end.aria') },
        h('div.result', end.headline),
        h('div.reason', end.reason),
        opts.local ? null : rematchNote(s),
        h('div.row', h('button.btn', { type: 'button', 'data-action': 'see-board', on: { click: close } }, t('game.end.seeBoard')), ...rematchControls(s))));
  }

  function nfDialog(): HTMLElement {
    const s = client.game(id)!;
    const [a, b] = ui.nfPair!;
    const c = buildTargets(s.legal ?? []).notFound.get(a)?.get(b);
    const close = () => { clearSelection(); update(); };
    return h('div.overlay', { 'data-overlay': 'nf', on: { click: (e: Event) => { if (e.target === e.currentTarget) close(); } } },
      h('div.panel.dialog', { role: 'dialog', 'aria-label': cardName('NF') },
        h('h2', cardName('NF')),
        h('p', t('game.nf.ask', { a, b })),
        h('div.row',
          c?.swap ? h('button.btn.primary', { type: 'button', 'data-nf': 'swap', on: { click: () => void play(c.swap!) } }, t('game.nf.swap')) : null,
          c?.keep ? h('button.btn', { type: 'button', 'data-nf': 'keep', on: { click: () => void play(c.keep!) } }, t('game.nf.keep')) : null,
          h('button.btn', { type: 'button', on: { click: close } }, t('game.cancel')))));
  }

  update();
  const offLang = onLangChange(update);
  return {
    el: page,
    update,
    dispose: () => {
      offLang();
      document.removeEventListener('keydown', onKey);
      clearInterval(tick);
      document.title = 'rainet · Rai-Net Access Battlers';
      if (!opts.local) client.unfollow(id);
    },
  };
}
