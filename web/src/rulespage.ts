// The rules page (/rules): the game explained for a newcomer, true to RULES.md and docs/rules.md in
// both presets, with a real board and the four terminal cards drawn.
import { buildTargets, destinations } from './actions.ts';
import { type Mark, renderBoard } from './board.ts';
import { TERMINAL_KINDS, cardName, cardPicture } from './cards.ts';
import { h } from './dom.ts';
import { type Key, onLangChange, renderLangSwitch, t } from './i18n.ts';
import { LESSON_DATA } from './lessondata.ts';
import { LESSONS } from './lessons.ts';
import { parseView } from './view.ts';

const para = (k: Key) => h('p', t(k));

function section(id: string, title: Key, ...body: (Node | null)[]): HTMLElement {
  return h('section.rules-sec', { 'aria-labelledby': `rules-${id}` }, h('h2', { id: `rules-${id}` }, t(title)), body);
}

/** A lesson position drawn by the game's board as a figure; `from`: show where that card may go. */
function figure(lessonId: string, step: number, caption: Key, from?: string): HTMLElement {
  const d = LESSON_DATA[LESSONS.find((l) => l.id === lessonId)!.steps[step].position];
  const v = parseView(d.view);
  const marks = new Map<string, Mark>();
  if (from) for (const x of destinations(buildTargets(d.legal), from)) if (x.to !== 'srv') marks.set(x.to, x.steps === 2 ? 'dest2' : 'dest');
  return h('figure.rules-fig', { 'data-figure': lessonId }, h('div', { inert: true }, renderBoard(v, { bottom: 1, me: 1, marks, selected: from ?? null })), h('figcaption', t(caption)));
}

function content(): HTMLElement[] {
  // The starting position as side 1 sees it, drawn by the game's own board.
  const start = LESSON_DATA[LESSONS.find((l) => l.id === 'move')!.steps[0].position].view;
  const board = renderBoard(parseView(start), { bottom: 1, me: 1 });
  const yesNo = (standard: Key, official: Key) => [h('td', t(standard)), h('td', t(official))];
  const row = (rule: Key, standard: Key, official: Key) => h('tr', h('th', { scope: 'row' }, t(rule)), yesNo(standard, official));
  return [
    h('header.rules-head',
      h('h1', t('rules.title')),
      renderLangSwitch(),
    ),
    h('p.lead', t('rules.lead')),
    h('p', h('a', { href: '/learn', 'data-link': '', 'data-learn-link': '' }, t('rules.learnLink'))),
    section('goal', 'rules.goal.h', para('rules.goal.p')),
    section('board', 'rules.board.h',
      para('rules.board.p1'),
      para('rules.board.p2'),
      h('figure.rules-board', h('div', { inert: true }, board), h('figcaption', t('rules.board.fig'))),
      h('h3', t('rules.setup.h')),
      para('rules.setup.p'),
      h('h3', t('rules.cards.h')),
      para('rules.cards.p'),
    ),
    section('turn', 'rules.turn.h',
      para('rules.turn.p'),
      h('h3', t('rules.move.h')),
      para('rules.move.p1'),
      para('rules.move.p2'),
      h('h3', t('rules.exit.h')),
      para('rules.exit.p'),
    ),
    section('terminal', 'rules.terminal.h',
      para('rules.terminal.p'),
      h('div.tcards', TERMINAL_KINDS.map((k) =>
        h('article.tcard-rule', { 'data-rule-card': k }, cardPicture(k, 92), h('div', h('h3', cardName(k)), para(`rules.${k}.p` as const))))),
      h('div.rules-figs', figure('lineboost', 1, 'rules.fig.lb', 'c3'), figure('firewall', 1, 'rules.fig.fw')),
    ),
    section('end', 'rules.end.h', para('rules.end.p1'), para('rules.end.p2'), para('rules.end.p3')),
    section('presets', 'rules.presets.h',
      para('rules.presets.p'),
      h('div.table-scroll', h('table.presets',
        h('thead', h('tr', h('th', { scope: 'col' }, t('rules.presets.col.rule')), h('th', { scope: 'col' }, t('rules.presets.col.standard')), h('th', { scope: 'col' }, t('rules.presets.col.official')))),
        h('tbody',
          row('rules.presets.ownExit', 'rules.presets.no', 'rules.presets.yes'),
          row('rules.presets.passExit', 'rules.presets.noStop', 'rules.presets.yes'),
          row('rules.presets.boostSrv', 'rules.presets.no', 'rules.presets.yes'),
          row('rules.presets.fwUnder', 'rules.presets.no', 'rules.presets.yes'),
          row('rules.presets.draw', 'rules.presets.yes', 'rules.presets.yes'),
        ))),
      para('rules.presets.after'),
    ),
    section('notation', 'rules.notation.h', para('rules.notation.p')),
  ];
}

export function renderRulesPage(): { el: HTMLElement; update: () => void; dispose: () => void } {
  const el = h('main.rules', { 'data-page': 'rules' });
  const draw = () => el.replaceChildren(...content());
  draw();
  const off = onLangChange(draw);
  return { el, update: () => {}, dispose: off };
}
