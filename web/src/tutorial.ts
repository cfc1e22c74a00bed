// The tutorial (/learn, /learn/<lesson>): short lessons on the real board, played locally (nothing
// is sent to the server until the last step starts a game against the computer). Legality comes
// from the engine's legal lists (lessondata.ts) arranged by actions.ts, as in a real game.
import { buildTargets, destinations, actionSquares, parseAction, type Targets } from './actions.ts';
import { type Mark, renderBoard } from './board.ts';
import { TERMINAL_KINDS, type TerminalKind, cardExplanation, cardLabel, cardName, handCardContent } from './cards.ts';
import { h, svg, ICON } from './dom.ts';
import { type Key, onLangChange, renderLangSwitch, t } from './i18n.ts';
import { judge, loadProgress, nextLesson, outcome, saveProgress, stepData, type StorageLike } from './learncheck.ts';
import { type Arrangement, LESSONS, setupView, startArrangement, whyNotMove } from './lessons.ts';
import { cardAt, parseView, squareIndex, stackCounts, type StackCard, type ViewModel } from './view.ts';
import { terminalStates, type App } from './ui.ts';

type Phase = 'play' | 'result' | 'trap' | 'finish';
type Tone = 'info' | 'ok' | 'bad';
/** A message kept as catalogue keys, so that a language switch translates it too; a parameter
 * value "@key" is itself translated (a card name, "link"). */
type Part = [Key, Record<string, string | number>?];
interface Msg { tone: Tone; parts: Part[] }
const msgOf = (tone: Tone, ...parts: Part[]): Msg => ({ tone, parts });
const text = (m: Msg) => m.parts.map(([k, p]) => t(k, p && Object.fromEntries(Object.entries(p).map(([n, v]) => [n, typeof v === 'string' && v.startsWith('@') ? t(v.slice(1) as Key) : v])))).join(' ');

function storage(): StorageLike | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function renderTutorial(app: App, lessonId?: string): { el: HTMLElement; update: () => void; dispose: () => void } {
  let done = loadProgress(storage());
  const first = lessonId ? LESSONS.findIndex((l) => l.id === lessonId) : -1;
  const start = first >= 0 ? first : nextLesson(done);
  const st = {
    lesson: start ?? 0,
    step: 0,
    phase: (start === null ? 'finish' : 'play') as Phase,
    view: '',
    last: [] as string[],
    msg: null as Msg | null,
    selected: null as string | null,
    mode: null as TerminalKind | null,
    nfFirst: null as string | null,
    nfPair: null as [string, string] | null,
    cursor: null as string | null,
    busy: false,
    error: '',
    /** Move the focus to the lesson's title after the next draw (the button pressed is gone). */
    focusTitle: false,
    /** The setup lesson: the learner's arrangement and how many swaps it made. */
    arrangement: startArrangement() as Arrangement,
    swaps: 0,
  };
  const el = h('main.learn', { 'data-page': 'learn' });

  const lesson = () => LESSONS[st.lesson];
  const step = () => lesson().steps[st.step];

  function clearSelection(): void {
    st.selected = null;
    st.mode = null;
    st.nfFirst = null;
    st.nfPair = null;
  }

  function openStep(lessonIdx: number, stepIdx: number, msg: Msg | null = null, last: string[] = []): void {
    st.lesson = lessonIdx;
    st.step = stepIdx;
    st.phase = 'play';
    if (lesson().setup) {
      st.arrangement = startArrangement();
      st.swaps = 0;
      st.view = setupView(st.arrangement);
    } else st.view = stepData(step()).view;
    st.last = last;
    st.msg = msg;
    st.cursor = null;
    clearSelection();
    draw();
  }

  /** Opens a step from a button: the focus goes to the lesson's title. */
  function goTo(lessonIdx: number, stepIdx: number, last: string[] = []): void {
    st.focusTitle = true;
    openStep(lessonIdx, stepIdx, null, last);
  }

  function openLesson(i: number): void {
    const id = LESSONS[i].id;
    if (location.pathname !== `/learn/${id}`) history.replaceState(null, '', `/learn/${id}`);
    goTo(i, 0);
  }

  function finish(): void {
    st.phase = 'finish';
    st.focusTitle = true;
    clearSelection();
    if (location.pathname !== '/learn') history.replaceState(null, '', '/learn');
    draw();
  }

  function complete(): void {
    if (!done.includes(lesson().id)) {
      done = LESSONS.filter((l) => l.id === lesson().id || done.includes(l.id)).map((l) => l.id);
      saveProgress(storage(), done);
    }
  }

  /** The learner played `action` (already known to be legal). */
  function play(action: string): void {
    const s = step();
    const verdict = judge(s, action);
    clearSelection();
    const a = parseAction(action);
    if (verdict.kind === 'illegal') {
      st.msg = msgOf('bad', ['why.notLegal']);
    } else if (verdict.kind === 'wrong') {
      st.msg = msgOf('bad', [verdict.why]);
    } else if (verdict.kind === 'trap') {
      st.phase = 'trap';
      st.view = verdict.view;
      st.last = a ? actionSquares(a) : [];
      st.msg = msgOf('bad', ['learn.youLose'], [verdict.why]);
    } else {
      st.phase = 'result';
      st.view = verdict.view;
      st.last = a ? actionSquares(a) : [];
      const parts: Part[] = [];
      const end = outcome(verdict.view);
      if (end) parts.push([end === 'win' ? 'learn.youWin' : 'learn.youLose']);
      if (a?.kind === 'vc') {
        const c = cardAt(parseView(verdict.view), a.square);
        if (c && c.kind !== 'X') parts.push(['learn.vcResult', { square: a.square, kind: c.kind === 'L' ? '@kind.link' : '@kind.virus' }]);
      }
      parts.push([s.done]);
      if (s.reply) {
        // The opponent answers; the next step starts from the position after its answer.
        parts.push(['learn.opponentMoved', { action: s.reply }]);
        st.view = stepData(lesson().steps[st.step + 1]).view;
        const r = parseAction(s.reply);
        st.last = r ? actionSquares(r) : [];
      } else complete();
      st.msg = { tone: 'ok', parts };
    }
    draw();
  }

  /** Setup: a click picks one of the learner's cards, a second click swaps the two. */
  function onSetupSquare(sq: string): void {
    if (st.phase !== 'play') return;
    st.cursor = sq;
    if (!(sq in st.arrangement)) {
      st.msg = msgOf('bad', ['learn.notYours']);
    } else if (!st.selected || st.selected === sq) {
      st.selected = st.selected === sq ? null : sq;
      st.msg = st.selected ? msgOf('info', ['lesson.setup.pick', { square: sq }]) : null;
    } else {
      const a = st.selected;
      [st.arrangement[a], st.arrangement[sq]] = [st.arrangement[sq], st.arrangement[a]];
      if (st.arrangement[a] !== st.arrangement[sq]) st.swaps++;
      st.view = setupView(st.arrangement);
      st.selected = null;
      st.msg = msgOf('info', ['lesson.setup.swapped', { a, b: sq }]);
    }
    draw();
  }

  function confirmSetup(): void {
    const setup = lesson().setup!;
    st.selected = null;
    if (st.swaps === 0) st.msg = msgOf('bad', [setup.wrong]);
    else {
      st.phase = 'result';
      st.msg = msgOf('ok', [setup.done]);
      complete();
    }
    draw();
  }

  function onSquare(sq: string, v: ViewModel, tg: Targets): void {
    if (st.phase !== 'play') return;
    st.cursor = sq;
    if (st.mode) {
      if (st.mode === 'NF') {
        if (!st.nfFirst) {
          if (tg.notFound.has(sq)) { st.nfFirst = sq; st.msg = null; }
          else st.msg = msgOf('bad', ['learn.noTarget', { card: '@card.NF.name', square: sq }]);
        } else if (sq === st.nfFirst) st.nfFirst = null;
        else if (tg.notFound.get(st.nfFirst)?.has(sq)) st.nfPair = [st.nfFirst, sq];
        else st.msg = msgOf('bad', ['learn.noTarget', { card: '@card.NF.name', square: sq }]);
        draw();
        return;
      }
      const m = st.mode === 'LB' ? tg.lineBoost : st.mode === 'FW' ? tg.firewall : tg.virusChecker;
      const action = m.get(sq);
      if (action) return play(action);
      st.msg = msgOf('bad', ['learn.noTarget', { card: `@card.${st.mode}.name`, square: sq }]);
      draw();
      return;
    }
    if (st.selected && st.selected !== sq) {
      const action = tg.moves.get(st.selected)?.get(sq);
      if (action) return play(action);
      const mine = cardAt(v, sq)?.owner === 1;
      if (!mine) {
        st.msg = msgOf('bad', [whyNotMove(v, st.selected, sq) ?? 'why.notLegal']);
        draw();
        return;
      }
    }
    const card = cardAt(v, sq);
    if (st.selected === sq) st.selected = null;
    else if (!card) { st.selected = null; st.msg = msgOf('info', ['why.noCard']); }
    else if (card.owner !== 1) { st.selected = null; st.msg = msgOf('bad', ['learn.notYours']); }
    else if (!tg.moves.has(sq)) { st.selected = null; st.msg = msgOf('bad', ['learn.cannotMove', { square: sq }]); }
    else { st.selected = sq; st.msg = null; }
    draw();
  }

  function hint(tg: Targets): Msg {
    if (st.mode === 'NF') return msgOf('info', st.nfFirst ? ['learn.hint.nf2', { square: st.nfFirst }] : ['learn.hint.nf1']);
    if (st.mode) return msgOf('info', [`card.${st.mode}.short` as const], ['learn.hint.card', { card: `@card.${st.mode}.name` }]);
    if (st.selected) return msgOf('info', [tg.moves.get(st.selected)?.has('srv') ? 'learn.hint.server' : 'learn.hint.dest', { square: st.selected }]);
    return msgOf('info', ['learn.hint.pick']);
  }

  function stackLine(cards: StackCard[], label: Key, holder: 1 | 2): HTMLElement {
    const n = stackCounts(cards);
    return h('div.learn-stack', { 'data-learn-stack': holder },
      h('span.lbl', t(label)),
      cards.length
        ? h('span', cards.map((c) => h(`span.chip.${c.kind === 'L' ? 'link' : c.kind === 'V' ? 'virus' : 'unknown'}`, { 'aria-hidden': 'true' }, svg(c.kind === 'L' ? ICON.link : c.kind === 'V' ? ICON.virus : ICON.unknown))),
          h('span.count', [n.L ? t('learn.stack.links', { n: n.L }) : '', n.V ? t('learn.stack.viruses', { n: n.V }) : '', n.X ? t('learn.stack.hidden', { n: n.X }) : ''].filter(Boolean).join(' · ')))
        : h('span.count', t('learn.stackEmpty')));
  }

  function handRow(v: ViewModel, tg: Targets): HTMLElement {
    const states = terminalStates(v, 1);
    const playing = st.phase === 'play';
    return h('div.learn-hand', { role: 'group', 'aria-label': t('learn.yourHand') },
      h('span.lbl', { 'aria-hidden': 'true' }, t('learn.yourHand')),
      h('div.learn-hand-cards', TERMINAL_KINDS.map((k) => {
        const s = states[k];
        const targets = k === 'LB' ? tg.lineBoost : k === 'FW' ? tg.firewall : k === 'VC' ? tg.virusChecker : tg.notFound;
        const enabled = playing && targets.size > 0;
        return h('button.tcard.learn-tcard', {
          type: 'button',
          class: [st.mode === k ? 'active' : '', s.state === 'used' ? 'used' : '', s.state === 'board' ? 'onboard' : ''].join(' '),
          'data-tcard': k,
          'aria-pressed': st.mode === k ? 'true' : 'false',
          'aria-label': cardLabel(k, s.state, s.square),
          title: cardExplanation(k),
          disabled: !enabled,
          on: { click: () => { const was = st.mode; clearSelection(); st.mode = was === k ? null : k; st.msg = null; draw(); } },
        }, handCardContent(k, s.state, s.square));
      })));
  }

  function controls(): HTMLElement {
    const out: HTMLElement[] = [];
    if (st.phase === 'play' && (st.mode || st.selected) && !st.nfPair) out.push(h('button.btn.small', { type: 'button', 'data-action': 'learn-cancel', on: { click: () => { clearSelection(); draw(); } } }, t('learn.cancel')));
    if (st.phase === 'trap') out.push(h('button.btn.primary', { type: 'button', 'data-action': 'learn-retry', on: { click: () => goTo(st.lesson, st.step) } }, t('learn.tryAgain')));
    if (st.phase === 'result') {
      const more = st.step + 1 < lesson().steps.length;
      out.push(h('button.btn.primary', {
        type: 'button', 'data-action': 'learn-next',
        on: { click: () => (more ? goTo(st.lesson, st.step + 1, st.last) : st.lesson + 1 < LESSONS.length ? openLesson(st.lesson + 1) : finish()) },
      }, t(more ? 'learn.continue' : 'learn.next')));
    }
    if (st.phase !== 'finish' && (st.step > 0 || st.phase !== 'play')) out.push(h('button.btn.small', { type: 'button', 'data-action': 'learn-restart', on: { click: () => goTo(st.lesson, 0) } }, t('learn.restart')));
    return h('div.row.learn-controls', out);
  }

  function lessonList(): HTMLElement {
    return h('nav.learn-list', { 'aria-label': t('learn.lessons') },
      h('h2', t('learn.lessons')),
      h('ol', LESSONS.map((l, i) => {
        const complete = done.includes(l.id);
        const current = st.phase !== 'finish' && i === st.lesson;
        return h('li', h('button', {
          type: 'button',
          class: ['learn-item', current ? 'current' : '', complete ? 'complete' : ''].join(' '),
          'data-lesson': l.id,
          'aria-current': current ? 'step' : null,
          on: { click: () => openLesson(i) },
        }, h('span.num', String(i + 1)), h('span.name', t(l.title)), complete ? h('span.tick', { role: 'img', 'aria-label': t('learn.completed') }, '✓') : null));
      })));
  }

  function links(): HTMLElement {
    return h('div.learn-links',
      h('a', { href: '/rules', 'data-link': '' }, t('learn.readRules')),
      renderLangSwitch(),
      done.length ? h('button.btn.small', { type: 'button', 'data-action': 'learn-reset', on: { click: () => { done = []; saveProgress(storage(), done); openLesson(0); } } }, t('learn.reset')) : null);
  }

  async function playComputer(): Promise<void> {
    if (st.busy) return;
    st.busy = true;
    st.error = '';
    draw();
    try {
      const ack = await app.client.request({ type: 'create', preset: 'standard', side: '1', opponent: 'computer', level: 1, clock: null });
      app.client.follow(ack.game!); // a create's ack names its game
      app.navigate(`/game/${ack.game}`);
    } catch (e: any) {
      st.error = t('learn.playError', { error: e?.message ?? e?.code ?? String(e) });
      st.busy = false;
      draw();
    }
  }

  function finishPanel(): HTMLElement {
    return h('section.learn-main.learn-finish', { 'data-learn-finish': '' },
      h('h1', { tabindex: -1 }, t('learn.finish.h')),
      h('p', t('learn.finish.p')),
      h('div.row',
        h('button.btn.primary.big', { type: 'button', 'data-action': 'learn-play', disabled: st.busy, on: { click: () => void playComputer() } }, st.busy ? t('learn.playBusy') : t('learn.play')),
        h('a.btn', { href: '/rules', 'data-link': '' }, t('learn.readRules'))),
      st.error ? h('div.banner.err', { role: 'alert' }, st.error) : null);
  }

  function draw(): void {
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.square ?? null;
    if (st.phase === 'finish') {
      el.replaceChildren(h('div.learn-grid', lessonList(), finishPanel(), links()));
      if (st.focusTitle) { st.focusTitle = false; (el.querySelector('.learn-finish h1') as HTMLElement | null)?.focus({ preventScroll: true }); }
      return;
    }
    const setup = lesson().setup;
    const s = step();
    const v = parseView(st.view);
    const tg = buildTargets(st.phase === 'play' && !setup ? stepData(s).legal : []);
    const marks = new Map<string, Mark>();
    let serverTarget: 1 | 2 | null = null;
    if (st.mode === 'NF') {
      if (!st.nfFirst) for (const k of tg.notFound.keys()) marks.set(k, 'target');
      else {
        marks.set(st.nfFirst, 'source');
        for (const k of tg.notFound.get(st.nfFirst)?.keys() ?? []) marks.set(k, 'target');
      }
    } else if (st.mode) {
      for (const k of (st.mode === 'LB' ? tg.lineBoost : st.mode === 'FW' ? tg.firewall : tg.virusChecker).keys()) marks.set(k, 'target');
    } else if (st.selected) {
      for (const d of destinations(tg, st.selected)) {
        if (d.to === 'srv') serverTarget = 2;
        else marks.set(d.to, v.squares[squareIndex(d.to)].card ? 'capture' : d.steps === 2 ? 'dest2' : 'dest');
      }
    }
    if (setup && st.phase === 'play') {
      if (st.selected) for (const k of Object.keys(st.arrangement)) if (k !== st.selected) marks.set(k, 'target');
    }
    const board = renderBoard(v, {
      bottom: 1,
      me: 1,
      selected: st.selected,
      marks,
      serverTarget,
      last: st.last,
      movable: st.phase === 'play' && !st.mode && !st.selected ? new Set(setup ? Object.keys(st.arrangement) : tg.moves.keys()) : undefined,
      cursor: st.cursor,
      onSquare: (sq) => (setup ? onSetupSquare(sq) : onSquare(sq, v, tg)),
      onServer: () => {
        const action = st.selected ? tg.moves.get(st.selected)?.get('srv') : undefined;
        if (action) play(action);
      },
      onCursor: (sq) => { st.cursor = sq; draw(); (el.querySelector(`[data-square="${sq}"]`) as HTMLElement | null)?.focus(); },
    });
    const nf = st.nfPair && tg.notFound.get(st.nfPair[0])?.get(st.nfPair[1]);
    const nfDialog = nf && st.nfPair
      ? h('div.learn-nf', { role: 'group', 'aria-label': cardName('NF') },
          h('p', t('learn.nfChoose', { a: st.nfPair[0], b: st.nfPair[1] })),
          h('div.row',
            nf.swap ? h('button.btn.primary', { type: 'button', 'data-nf': 'swap', on: { click: () => play(nf.swap!) } }, t('learn.swap')) : null,
            nf.keep ? h('button.btn', { type: 'button', 'data-nf': 'keep', on: { click: () => play(nf.keep!) } }, t('learn.keep')) : null,
            h('button.btn.small', { type: 'button', on: { click: () => { st.nfPair = null; st.nfFirst = null; draw(); } } }, t('learn.cancel'))))
      : null;
    const msg = st.msg ?? (st.phase === 'play' && !setup ? hint(tg) : null);
    el.replaceChildren(h('div.learn-grid',
      lessonList(),
      h('section.learn-main', { 'data-lesson-open': lesson().id, 'data-step': st.step, 'data-phase': st.phase },
        h('div.learn-text',
          h('p.learn-of', t('learn.lessonOf', { n: st.lesson + 1, total: LESSONS.length })),
          h('h1', { tabindex: -1 }, t(lesson().title)),
          h('p.learn-task', t(setup ? setup.task : s.task)),
          h('div.learn-feedback', { role: 'status', 'aria-live': 'polite', class: msg ? `tone-${msg.tone}${st.msg || st.mode || st.selected ? '' : ' default'}` : '', 'data-feedback': msg?.tone ?? '' }, msg ? text(msg) : ''),
          nfDialog,
          controls()),
        h('div.learn-boardcol', board, setup ? null : handRow(v, tg),
          setup && st.phase === 'play' ? h('button.btn.primary', { type: 'button', 'data-action': 'learn-setup-confirm', on: { click: confirmSetup } }, t('lesson.setup.confirm')) : null,
          setup ? null : h('div.learn-stacks', stackLine(v.stacks[0], 'learn.yourStack', 1), v.stacks[1].length ? stackLine(v.stacks[1], 'learn.theirStack', 2) : null))),
      links()));
    if (st.focusTitle) {
      st.focusTitle = false;
      (el.querySelector('.learn-main h1') as HTMLElement | null)?.focus({ preventScroll: true });
    } else if (focused) (el.querySelector(`[data-square="${focused}"]`) as HTMLElement | null)?.focus({ preventScroll: true });
  }

  if (st.phase === 'play') openStep(st.lesson, 0);
  else draw();
  const keys = (ev: KeyboardEvent) => {
    if (ev.key === 'Escape' && (st.mode || st.selected || st.nfPair)) { clearSelection(); draw(); }
  };
  document.addEventListener('keydown', keys);
  const off = onLangChange(draw);
  return {
    el,
    update: () => {},
    dispose: () => { off(); document.removeEventListener('keydown', keys); },
  };
}
