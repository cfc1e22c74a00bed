// /practice: a game against the computer refereed and played by the engine in the browser
// (engine.ts, the WebAssembly worker): no server, and no network once the page and the engine are
// loaded. The game is kept in localStorage (`rainet.practice`: the choices, both arrangements and
// the actions) and resumes after a reload by replaying its actions through the engine. The player
// sees only the view the engine gives its side; the computer thinks from its own side's knowledge
// (its view and what it observed), as the server's bots do. Unrated; the record can be downloaded
// and the finished game analysed by the same engine.
// Before the first action each player's arrangement is dealt at random or placed on a setup
// screen (in pass and play behind a hand-over screen each). An optional clock (the server's
// choices) counts each side's turns, the computer's thinking included; a side whose time runs out
// loses. The clock stops while the page is closed: a resumed game goes on with the time each side
// had at the start of the turn in play.
import { actionSquares, buildTargets, destinations, parseAction } from './actions.ts';
import { type Mark, renderBoard } from './board.ts';
import { h } from './dom.ts';
import { engine } from './engine.ts';
import type { BotName, GameState, RulesName, SideNumber } from './engineapi.ts';
import { formatClock } from './game.ts';
import { onLangChange, t } from './i18n.ts';
import { CLOCKS, clockChoice, clockOf } from './lobby.ts';
import { writeRecord } from './localrecord.ts';
import { SETUP_SQUARES, parseView, squareIndex } from './view.ts';
import type { App } from './ui.ts';

const KEY = 'rainet.practice';
const ARRANGEMENTS = 70;
const EMPTY_BOARD = '8/8/8/8/8/8/8/8 1 CNcn -/- 0 0';

export interface PracticeGame {
  rules: RulesName;
  level: 1 | 2 | 3 | 4 | 5;
  me: SideNumber;
  setup1: string;
  setup2: string;
  actions: string[];
  seed: number;
  /** 'friend': pass and play, both sides at this device with a hand-over screen between turns. */
  opponent?: 'computer' | 'friend';
  /** The side that resigned. */
  resigned?: SideNumber;
  /** The sides still placing their cards, in turn; their setup holds the arrangement shown. */
  arranging?: SideNumber[];
  /** The clock in centiseconds, as the server's; absent or null: untimed. */
  clock?: { initial: number; increment: number } | null;
  /** Each side's time left (centiseconds) at the start of the turn in play. */
  left?: [number, number];
  /** The side whose time ran out. */
  flagged?: SideNumber;
}

/** An arrangement shuffled: four links and four viruses in setup-square order. */
export function shuffledSetup(random: () => number = Math.random): string {
  const kinds = 'LLLLVVVV'.split('');
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  return kinds.join('');
}

/** The clock of the side that played after `spentCs` of its turn: its time left, or null if it ran out. */
export function spend(left: number, spentCs: number, increment: number): number | null {
  return spentCs >= left ? null : left - spentCs + increment;
}

export function loadPractice(storage: Pick<Storage, 'getItem'> = localStorage): PracticeGame | null {
  try {
    const g = JSON.parse(storage.getItem(KEY) ?? 'null') as PracticeGame | null;
    if (g && Array.isArray(g.actions) && (g.me === 1 || g.me === 2) && g.level >= 1 && g.level <= 5) return g;
  } catch { /* a damaged entry is a new game */ }
  return null;
}

function save(g: PracticeGame | null): void {
  if (g) localStorage.setItem(KEY, JSON.stringify(g));
  else localStorage.removeItem(KEY);
}

type Screen = { el: HTMLElement; update: () => void; dispose: () => void };

interface Live {
  game: PracticeGame;
  state: GameState;
  startView: [string, string];
  observed: [string[], string[]];
  myView: string;
  legal: string[];
  last: string[];
}

export function renderPractice(app: App): Screen {
  const el = h('main.narrow.practice');
  let live: Live | null = null;
  let status: 'form' | 'arrange' | 'loading' | 'moving' | 'thinking' | 'handover' | 'turn' | 'over' | 'analysing' = 'form';
  // Placing cards: the game being set up, the square picked to swap, and in pass and play whether
  // the side due has the device (a hand-over screen first).
  let arranging: PracticeGame | null = null;
  let pick: string | null = null;
  let arrangeShown = false;
  // The clock: when the turn in play began (Date.now()), and the ticker that draws and flags.
  let turnStart = Date.now();
  let ticker: ReturnType<typeof setInterval> | undefined;
  // Pass and play: the side whose board is on the screen (after its player tapped the hand-over).
  let shown: SideNumber | null = null;
  let error = '';
  let selected: string | null = null;
  let analysis: { win: number }[] | null = null;
  let disposed = false;
  const eng = engine();

  const friend = (g: PracticeGame) => g.opponent === 'friend';
  // The side the computer plays (none in pass and play: 0 never moves).
  const computer = (g: PracticeGame): SideNumber | 0 => (friend(g) ? 0 : g.me === 1 ? 2 : 1);
  // The side whose view the board shows: the player's, in pass and play the side to move.
  const viewer = (l: Live): SideNumber => (friend(l.game) ? l.state.to_move : l.game.me);
  const ended = (l: Live) => l.state.over || l.game.resigned !== undefined || l.game.flagged !== undefined;
  const loser = (l: Live) => l.game.resigned ?? l.game.flagged;
  const resultOf = (l: Live) => { const x = loser(l); return x ? (x === 1 ? '0-1' : '1-0') : l.state.result; };
  /** A side's time left now (centiseconds), counting the turn in play; null when untimed. */
  const remaining = (l: Live, side: SideNumber): number | null => {
    if (!l.game.clock || !l.game.left) return null;
    const base = l.game.left[side - 1];
    if (ended(l) || side !== l.state.to_move) return Math.max(0, base);
    return Math.max(0, base - Math.floor((Date.now() - turnStart) / 10));
  };
  const knowledge = (l: Live, side: SideNumber) => {
    const seen = l.observed[side - 1];
    return `view ${l.startView[side - 1]}` + (seen.length ? ` moves ${seen.join(' ')}` : '');
  };

  async function refresh(l: Live): Promise<void> {
    // Once the game is over both sides' cards are shown (the full position).
    l.myView = ended(l) ? l.state.position : await eng.view(l.game.rules, l.state.position, String(viewer(l)) as '1' | '2');
    l.legal = ended(l) ? [] : await eng.legal(l.game.rules, l.state.position);
  }

  async function play(l: Live, action: string): Promise<void> {
    const a = await eng.apply(l.game.rules, l.state.position, action);
    l.observed[0].push(a.observed[0]);
    l.observed[1].push(a.observed[1]);
    l.state = a;
    const parsed = parseAction(action);
    l.last = parsed ? actionSquares(parsed) : [];
  }

  /** The mover's clock for the turn just played; false (and the game lost on time) if it ran out. */
  function charge(l: Live): boolean {
    const { clock, left } = l.game;
    if (!clock || !left) return true;
    const side = l.state.to_move;
    const after = spend(left[side - 1], Math.floor((Date.now() - turnStart) / 10), clock.increment);
    if (after === null) {
      left[side - 1] = 0;
      l.game.flagged = side;
      save(l.game);
      return false;
    }
    left[side - 1] = after;
    return true;
  }

  /** Draws the clocks in place (no redraw: a list being chosen stays open); flags a player's turn. */
  function tick(): void {
    const l = live;
    if (!l || !l.game.clock) return;
    for (const side of [1, 2] as SideNumber[]) {
      const box = el.querySelector<HTMLElement>(`[data-clock="${side}"] .time`);
      if (box) box.textContent = formatClock(remaining(l, side) ?? 0);
    }
    // The computer's time is checked when it answers; a player's as it runs.
    const side = l.state.to_move;
    if (!ended(l) && side !== computer(l.game) && (status === 'turn' || status === 'handover') && remaining(l, side) === 0) {
      l.game.left![side - 1] = 0;
      l.game.flagged = side;
      save(l.game);
      void advance().catch(fail);
    }
  }

  /** The game from its record: the engine replays every action (a reload resumes here). */
  async function open(g: PracticeGame): Promise<void> {
    status = 'loading';
    draw();
    const state = await eng.newGame(g.rules, g.setup1, g.setup2);
    const views = await Promise.all([eng.view(g.rules, state.position, '1'), eng.view(g.rules, state.position, '2')]);
    const l: Live = { game: g, state, startView: [views[0], views[1]], observed: [[], []], myView: '', legal: [], last: [] };
    for (const a of g.actions) await play(l, a);
    live = l;
    turnStart = Date.now();
    if (g.clock && !ticker) ticker = setInterval(tick, 200);
    await advance();
  }

  /** The computer's turns, then the player's or the end. */
  async function advance(): Promise<void> {
    const l = live!;
    while (!ended(l) && l.state.to_move === computer(l.game)) {
      status = 'thinking';
      await refresh(l);
      draw();
      const bot = `level${l.game.level}` as BotName;
      const side = l.state.to_move;
      const thought = await eng.think(l.game.rules, side, bot, knowledge(l, side), 0, l.game.seed + l.state.ply);
      if (disposed) return;
      if (!charge(l)) break;
      l.game.actions.push(thought.action);
      await play(l, thought.action);
      turnStart = Date.now();
      save(l.game);
    }
    await refresh(l);
    // Pass and play: no board until the player due has the device.
    status = ended(l) ? 'over' : friend(l.game) && shown !== l.state.to_move ? 'handover' : 'turn';
    if (status !== 'turn') shown = null;
    selected = null;
    draw();
  }

  function fail(e: unknown): void {
    error = t('practice.error', { error: e instanceof Error ? e.message : String(e) });
    draw();
  }

  interface Choices { rules: RulesName; level: PracticeGame['level']; me: SideNumber; opponent: 'computer' | 'friend'; place: boolean; clock: string }

  async function start(c: Choices): Promise<void> {
    const seed = Math.floor(Math.random() * 2 ** 31);
    // Both arrangements from the engine's uniform setup (70 equally likely); a player who places
    // their own cards starts from this one.
    const [s1, s2] = await Promise.all([eng.setup(c.rules, 1, 'random', seed), eng.setup(c.rules, 2, 'random', seed + ARRANGEMENTS)]);
    const me = c.opponent === 'friend' ? 1 : c.me;
    // Practice offers no days clock (CLOCKS filtered above): a clock here is minutes + seconds.
    const spec = clockOf(c.clock);
    const clock = spec && 'initial' in spec ? { initial: spec.initial, increment: spec.increment } : null;
    const g: PracticeGame = { rules: c.rules, level: c.level, me, setup1: s1, setup2: s2, actions: [], seed, opponent: c.opponent, clock };
    if (clock) g.left = [clock.initial, clock.initial];
    if (c.place) g.arranging = c.opponent === 'friend' ? [1, 2] : [me];
    save(g);
    await begin(g);
  }

  /** A saved game: its setup screens first while a side still places its cards, then play. */
  async function begin(g: PracticeGame): Promise<void> {
    if (g.arranging?.length) {
      arranging = g;
      pick = null;
      arrangeShown = false;
      status = 'arrange';
      draw();
      return;
    }
    if (g.arranging) {
      delete g.arranging;
      save(g);
    }
    arranging = null;
    await open(g);
  }

  /** The setup screen of the side placing its cards (pass and play: after its hand-over). */
  function arrangeScreen(g: PracticeGame): HTMLElement {
    const side = g.arranging![0];
    if (friend(g) && !arrangeShown) {
      return h('div.practice-handover.panel.stack-col', { 'data-handover': side, 'data-handover-setup': '' },
        h('h2', t('practice.arrange.handover', { n: side })),
        h('p', t('practice.handover.hide')),
        h('button.btn.primary', { type: 'button', 'data-action': 'practice-continue', on: { click: () => { arrangeShown = true; draw(); } } }, t('local.handover.tap')));
    }
    const field = side === 1 ? 'setup1' : 'setup2';
    const letters = g[field].split('');
    const squares = SETUP_SQUARES[side];
    const v = parseView(EMPTY_BOARD);
    squares.forEach((q, i) => { v.squares[squareIndex(q)].card = { owner: side, kind: letters[i] === 'L' ? 'L' : 'V', boost: false, faceUp: false, onFirewall: false }; });
    const set = (text: string) => { g[field] = text; pick = null; save(g); draw(); };
    const marks = new Map<string, Mark>();
    if (pick) marks.set(pick, 'source');
    const board = renderBoard(v, {
      bottom: side, me: side, selected: pick, marks,
      onSquare: (sq) => {
        const i = squares.indexOf(sq);
        if (i < 0) { pick = null; draw(); return; }
        if (!pick || pick === sq) { pick = pick === sq ? null : sq; draw(); return; }
        const j = squares.indexOf(pick);
        [letters[i], letters[j]] = [letters[j], letters[i]];
        set(letters.join(''));
      },
    });
    for (const q of squares) board.querySelector(`[data-square="${q}"]`)?.classList.add('setup-own');
    const confirm = () => {
      g.arranging!.shift();
      arrangeShown = false;
      save(g);
      begin(g).catch(fail);
    };
    return h('div.practice-arrange.stack-col', { 'data-arrange': side, 'data-setup-string': g[field] },
      h('h2', t('practice.arrange.title', { n: side })),
      h('p.hint', t('game.setup.hint'), ' ', t('practice.arrange.rule')),
      board,
      h('div.row',
        h('button.btn', { type: 'button', 'data-action': 'practice-setup-random', on: { click: () => set(shuffledSetup()) } }, t('game.setup.random')),
        h('button.btn.primary', { type: 'button', 'data-action': 'practice-setup-confirm', on: { click: confirm } }, t('game.setup.confirm'))));
  }

  async function human(action: string): Promise<void> {
    const l = live!;
    if (status !== 'turn' || !l.legal.includes(action)) return;
    status = 'moving'; // no second action while this one is applied
    selected = null;
    draw();
    if (charge(l)) {
      l.game.actions.push(action);
      await play(l, action);
      turnStart = Date.now();
    }
    save(l.game);
    await advance();
  }

  function record(l: Live): string {
    const result = resultOf(l);
    const termination = l.game.resigned ? 'resignation' : l.game.flagged ? 'time' : l.state.reason || undefined;
    return writeRecord({ rules: l.game.rules, setup1: l.game.setup1, setup2: l.game.setup2, actions: l.game.actions, result, termination, date: new Date() });
  }

  function outcome(l: Live): string {
    const r = resultOf(l);
    if (r === '1/2-1/2') return t('practice.draw');
    if (friend(l.game)) return t('practice.sideWon', { n: r === '1-0' ? 1 : 2 });
    return (r === '1-0') === (l.game.me === 1) ? t('practice.won') : t('practice.lost');
  }

  function form(): HTMLElement {
    const sel = (field: string, options: [string, string][], value: string) =>
      h('select', { 'data-field': field }, options.map(([v, label]) => h('option', { value: v, selected: v === value }, label))) as HTMLSelectElement;
    const level = sel('practice-level', [1, 2, 3, 4, 5].map((n) => [String(n), String(n)]), '2');
    const rules = sel('practice-rules', [['standard', t('practice.rules.standard')], ['official', t('practice.rules.official')]], 'standard');
    const opponent = sel('practice-opponent', [['computer', t('practice.opponent.computer')], ['friend', t('practice.opponent.friend')]], 'computer');
    const side = sel('practice-side', [['1', t('practice.side.n', { n: 1 })], ['2', t('practice.side.n', { n: 2 })]], '1');
    const place = sel('practice-arrangement', [['random', t('practice.arrangement.random')], ['place', t('practice.arrangement.place')]], 'random');
    const clock = sel('practice-clock', CLOCKS.filter((c) => !c.endsWith('d')).map((c) => [c, clockChoice(c)]), 'none');
    const submit = (ev: Event) => {
      ev.preventDefault();
      start({ rules: rules.value as RulesName, level: Number(level.value) as PracticeGame['level'], me: Number(side.value) as SideNumber,
        opponent: opponent.value as 'computer' | 'friend', place: place.value === 'place', clock: clock.value }).catch(fail);
    };
    return h('form.panel.stack-col', { on: { submit }, 'aria-label': t('practice.title') },
      h('label.field', h('span', t('practice.opponent')), opponent),
      h('label.field', h('span', t('practice.level')), level),
      h('label.field', h('span', t('practice.rules')), rules),
      h('label.field', h('span', t('practice.side')), side),
      h('label.field', h('span', t('practice.arrangement')), place),
      h('label.field', h('span', t('practice.clock')), clock),
      h('button.btn.primary', { type: 'submit', 'data-action': 'practice-start' }, t('practice.start')));
  }

  function board(l: Live): HTMLElement {
    const v = parseView(l.myView);
    const tg = buildTargets(status === 'turn' ? l.legal : []);
    const marks = new Map<string, Mark>();
    let serverTarget: 1 | 2 | null = null;
    if (selected) {
      marks.set(selected, 'source');
      for (const d of destinations(tg, selected)) {
        if (d.to === 'srv') serverTarget = viewer(l) === 1 ? 2 : 1;
        else marks.set(d.to, v.squares[squareIndex(d.to)].card ? 'capture' : d.steps === 2 ? 'dest2' : 'dest');
      }
    }
    return renderBoard(v, {
      bottom: viewer(l),
      me: ended(l) ? null : viewer(l),
      selected,
      marks,
      serverTarget,
      last: l.last,
      movable: status === 'turn' && !selected ? new Set(tg.moves.keys()) : undefined,
      onSquare: (sq) => {
        if (selected) {
          const action = tg.moves.get(selected)?.get(sq);
          if (action) return void human(action).catch(fail);
        }
        selected = tg.moves.has(sq) && sq !== selected ? sq : null;
        draw();
      },
      onServer: () => {
        const action = selected ? tg.moves.get(selected)?.get('srv') : undefined;
        if (action) human(action).catch(fail);
      },
    });
  }

  function controls(l: Live): HTMLElement {
    if (status === 'over' || status === 'analysing') {
      const rec = record(l);
      const href = URL.createObjectURL(new Blob([rec], { type: 'text/plain' }));
      return h('div.stack-col',
        h('p.banner', { 'data-practice-result': resultOf(l), 'data-practice-reason': l.game.flagged ? 'time' : l.game.resigned ? 'resignation' : l.state.reason },
          outcome(l), l.game.flagged ? ` (${t('home.reason.time')})` : l.state.reason ? ` (${l.state.reason})` : ''),
        clocks(l),
        h('div.row',
          h('a.btn', { href, download: 'rainet-practice.txt', 'data-action': 'practice-download' }, t('practice.download')),
          h('button.btn', { type: 'button', 'data-action': 'practice-analyse', on: { click: () => void analyse(l, rec) } }, t('practice.analyse')),
          h('button.btn.primary', { type: 'button', 'data-action': 'practice-new', on: { click: () => { save(null); live = null; analysis = null; clearInterval(ticker); ticker = undefined; status = 'form'; draw(); } } }, t('practice.new'))),
        status === 'analysing' ? h('p', { role: 'status' }, t('practice.analysing')) : null,
        analysis ? h('p', { 'data-practice-analysis': analysis.length }, t('practice.winChance'), ' ',
          analysis.map((p) => `${Math.round(p.win * 100)}`).join(' · ')) : null);
    }
    const pick = h('select', { 'data-field': 'practice-action', 'aria-label': t('practice.allActions') },
      l.legal.map((a) => h('option', { value: a }, a))) as HTMLSelectElement;
    return h('div.stack-col',
      clocks(l),
      h('p', { role: 'status', 'aria-live': 'polite' }, status === 'thinking' ? t('practice.thinking') : status === 'turn' ? t('practice.yourTurn') : status === 'moving' ? '' : t('practice.loading')),
      status === 'turn' ? h('div.row', h('label.field', h('span', t('practice.allActions')), pick),
        h('button.btn', { type: 'button', 'data-action': 'practice-play', on: { click: () => void human(pick.value).catch(fail) } }, t('practice.play'))) : null,
      h('button.btn.small', { type: 'button', 'data-action': 'practice-resign', disabled: status !== 'turn',
        on: { click: () => { l.game.resigned = viewer(l); save(l.game); status = 'moving'; draw(); void advance().catch(fail); } } }, t('practice.resign')));
  }

  /** Both sides' time left, the side to move's running; nothing when untimed. */
  function clocks(l: Live): HTMLElement | null {
    if (!l.game.clock) return null;
    const name = (side: SideNumber) => (friend(l.game) ? t('practice.side.n', { n: side }) : side === l.game.me ? t('practice.you') : t('practice.computer'));
    return h('div.row.practice-clocks', { 'aria-label': t('practice.clock') }, ([1, 2] as SideNumber[]).map((side) =>
      h('span.practice-clock', { 'data-clock': side, class: !ended(l) && l.state.to_move === side ? 'running' : '' },
        `${name(side)} `, h('span.time.mono', { role: 'timer' }, formatClock(remaining(l, side) ?? 0)))));
  }

  async function analyse(l: Live, rec: string): Promise<void> {
    status = 'analysing';
    draw();
    try {
      analysis = (await eng.analyse(rec, l.game.me, 200)).plies;
    } catch (e) {
      fail(e);
    }
    status = 'over';
    draw();
  }

  /** Pass and play: the hand-over screen, with nothing of either side's cards in the document. */
  function handover(l: Live): HTMLElement {
    const go = () => { shown = l.state.to_move; status = 'moving'; draw(); void advance().catch(fail); };
    return h('div.practice-handover.panel.stack-col', { 'data-handover': l.state.to_move },
      h('h2', t('practice.handover', { n: l.state.to_move })),
      h('p', t('practice.handover.hide')),
      h('button.btn.primary', { type: 'button', 'data-action': 'practice-continue', on: { click: go } }, t('local.handover.tap')));
  }

  function draw(): void {
    if (disposed) return;
    const l = live;
    el.dataset.practice = status;
    el.replaceChildren(
      h('h1.page-title', t('practice.title')),
      h('p', t('practice.intro')),
      error ? h('div.banner.err', error) : '',
      status === 'form' ? form()
        : status === 'arrange' && arranging ? arrangeScreen(arranging)
        : l && status === 'handover' ? handover(l)
        : l ? h('div.practice-game', { 'data-view': l.myView, 'data-side': viewer(l) }, board(l), controls(l)) : h('p', { role: 'status' }, status === 'analysing' ? t('practice.analysing') : t('practice.loading')));
  }

  const saved = loadPractice();
  if (saved) begin(saved).catch(fail);
  else draw();
  const off = onLangChange(draw);
  return { el, update: () => {}, dispose: () => { disposed = true; clearInterval(ticker); off(); } };
}
