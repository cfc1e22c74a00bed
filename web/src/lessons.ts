// The lessons of the tutorial (/learn): real positions (RULES.md §7, full information, the learner
// is side 1) with what each step asks for. Legality is not decided here: the legal actions, the
// learner's view and the view after each accepted action come from the engine through the generated
// lessondata.ts (scripts/lessons.ts; test/unit/lessons.test.ts checks it is current). Only the
// explanation of a refused click (whyNotMove) knows a few rules, and that test checks it against
// the engine's legal lists on every lesson position.
import { parseAction, distance } from './actions.ts';
import type { Key } from './i18n.ts';
import { type ViewModel, EXITS, cardAt, squareIndex, squareName } from './view.ts';

export interface Step {
  /** The position the step starts from; side 1 (the learner) to move. */
  position: string;
  /** What to do. */
  task: Key;
  /** Whether a legal action does what the step asks. */
  goal: (action: string) => boolean;
  /** Shown after a goal action. */
  done: Key;
  /** Shown after a legal action that is not the goal (the action is taken back). */
  wrong: Key;
  /** A legal action that loses the game, shown with its result and explained, then taken back. */
  trap?: { action: string; why: Key };
  /** The opponent's answer to the goal action; the next step starts from the result. */
  reply?: string;
}

export interface Lesson {
  id: string;
  title: Key;
  steps: Step[];
  /** The setup lesson has no board action: the learner swaps its own cards, then confirms. */
  setup?: { task: Key; done: Key; wrong: Key };
}

const isMove = (a: string) => parseAction(a)?.kind === 'move';

export const LESSONS: Lesson[] = [
  {
    id: 'setup',
    title: 'lesson.setup.title',
    steps: [],
    setup: { task: 'lesson.setup.task', done: 'lesson.setup.done', wrong: 'lesson.setup.wrong' },
  },
  {
    id: 'move',
    title: 'lesson.move.title',
    steps: [{
      position: 'lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0',
      task: 'lesson.move.task',
      goal: isMove,
      done: 'lesson.move.done',
      wrong: 'lesson.move.wrong',
    }],
  },
  {
    id: 'capture',
    title: 'lesson.capture.title',
    steps: [{
      position: 'lll2vv1/4v2v/8/3l4/3L4/8/4V3/LLL2VVV 1 CNcn -/- 6 6',
      task: 'lesson.capture.task',
      goal: (a) => a === 'd4-d5',
      done: 'lesson.capture.done',
      wrong: 'lesson.capture.wrong',
    }],
  },
  {
    id: 'exit',
    title: 'lesson.exit.title',
    steps: [{
      position: 'lll1L1vv/3l2v1/5v2/8/8/8/4V3/LLL2VVV 1 CNcn -/- 10 20',
      task: 'lesson.exit.task',
      goal: (a) => a === 'e8-srv',
      done: 'lesson.exit.done',
      wrong: 'lesson.exit.wrong',
    }],
  },
  {
    id: 'lineboost',
    title: 'lesson.lb.title',
    steps: [
      {
        position: 'lll2vv1/3lv3/7v/8/8/2L5/3VL3/LL3VVV 1 CNcn -/- 4 4',
        task: 'lesson.lb.task1',
        goal: (a) => a === 'LB+c3',
        done: 'lesson.lb.done1',
        wrong: 'lesson.lb.wrong1',
        reply: 'h6-h5',
      },
      {
        position: 'lll2vv1/3lv3/8/7v/8/2L+5/3VL3/LL3VVV 1 CNcn -/- 6 6',
        task: 'lesson.lb.task2',
        goal: (a) => a.startsWith('c3-') && isMove(a) && distance('c3', a.slice(3)) === 2,
        done: 'lesson.lb.done2',
        wrong: 'lesson.lb.wrong2',
      },
    ],
  },
  {
    id: 'firewall',
    title: 'lesson.fw.title',
    steps: [
      {
        position: 'lll2vv1/3l3v/8/4v3/8/4L3/3V4/LLL2VVV 1 CNcn -/- 6 6',
        task: 'lesson.fw.task1',
        goal: (a) => a === 'FW+e4',
        done: 'lesson.fw.done1',
        wrong: 'lesson.fw.wrong1',
        reply: 'a8-a7',
      },
      {
        position: '1ll2vv1/l2l3v/8/4v3/4F3/4L3/3V4/LLL2VVV 1 CNcn -/- 8 8',
        task: 'lesson.fw.task2',
        goal: (a) => a === 'e3-e4',
        done: 'lesson.fw.done2',
        wrong: 'lesson.fw.wrong2',
      },
    ],
  },
  {
    id: 'viruschecker',
    title: 'lesson.vc.title',
    steps: [{
      position: 'lll2vv1/7v/8/3lv3/3L4/8/4V3/LLL2VVV 1 CNcn -/- 8 8',
      task: 'lesson.vc.task',
      goal: (a) => a.startsWith('VC+'),
      done: 'lesson.vc.done',
      wrong: 'lesson.vc.wrong',
    }],
  },
  {
    id: 'notfound',
    title: 'lesson.nf.title',
    steps: [{
      position: 'lll2vv1/7v/8/3lv3/3L!4/8/4V3/LLL2VVV 1 CNn -/- 8 8',
      task: 'lesson.nf.task',
      goal: (a) => a.startsWith('NF+') && a.includes('d4'),
      done: 'lesson.nf.done',
      wrong: 'lesson.nf.wrong',
    }],
  },
  {
    id: 'win',
    title: 'lesson.win.title',
    steps: [{
      position: '3L1vv1/4v2v/2l5/8/8/8/2L1V3/LL3VVV 1 CNcn lll/- 20 40',
      task: 'lesson.win.task',
      goal: (a) => a === 'd8-srv',
      done: 'lesson.win.done',
      wrong: 'lesson.win.wrong',
    }],
  },
  {
    id: 'lose',
    title: 'lesson.lose.title',
    steps: [{
      position: 'lll2l2/8/8/3v!4/3L4/8/4V3/LLL2VVV 1 Ncn vvv/- 10 30',
      task: 'lesson.lose.task',
      goal: (a) => a.startsWith('d4-') && a !== 'd4-d5',
      done: 'lesson.lose.done',
      wrong: 'lesson.lose.wrong',
      trap: { action: 'd4-d5', why: 'lesson.lose.trap' },
    }],
  },
];

export type Arrangement = Record<string, 'L' | 'V'>;

/** Side 1's setup squares (RULES.md §3) with links on a1 b1 c1 d2, as the setup screen starts. */
export function startArrangement(): Arrangement {
  return { a1: 'L', b1: 'L', c1: 'L', d2: 'L', e2: 'V', f1: 'V', g1: 'V', h1: 'V' };
}

/** The learner's view during the setup: its own arrangement, the opponent's eight cards face down. */
export function setupView(a: Arrangement): string {
  return `xxx2xxx/3xx3/8/8/8/8/3${a.d2}${a.e2}3/${a.a1}${a.b1}${a.c1}2${a.f1}${a.g1}${a.h1} 1 CNcn -/- 0 0`;
}

/** The actions of a step whose result the learner may see: its goals and its trap. */
export function shownActions(step: Step, legal: readonly string[]): string[] {
  return legal.filter((a) => step.goal(a) || a === step.trap?.action);
}

const file = (sq: string) => sq.charCodeAt(0) - 97;
const rank = (sq: string) => sq.charCodeAt(1) - 49;

function neighbours(sq: string): string[] {
  const i = squareIndex(sq), f = i % 8, r = Math.floor(i / 8);
  const out: string[] = [];
  for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    const nf = f + df, nr = r + dr;
    if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) out.push(squareName(nr * 8 + nf));
  }
  return out;
}

/**
 * Why the learner's card on `from` cannot move to `to` in the standard rules (the tutorial's
 * preset), as a catalogue key, or null when nothing forbids it. Used only to explain a click the
 * engine's legal list refused.
 */
export function whyNotMove(v: ViewModel, from: string, to: string): Key | null {
  const card = cardAt(v, from);
  if (!card) return 'why.noCard';
  const me = card.owner;
  const steps = distance(from, to);
  if (steps === 0) return 'why.noCard';
  if (!card.boost && Math.abs(file(from) - file(to)) === 1 && Math.abs(rank(from) - rank(to)) === 1) return 'why.diagonal';
  if (steps > (card.boost ? 2 : 1)) return card.boost ? 'why.tooFarBoost' : 'why.tooFar';
  // The square entered last obeys RULES.md §4.1.
  const enter = (sq: string): Key | null => {
    const q = v.squares[squareIndex(sq)];
    if (q.card?.owner === me) return 'why.ownCard';
    if (EXITS[me].includes(sq)) return 'why.ownExit';
    if (q.firewall && q.firewall !== me) return 'why.firewall';
    return null;
  };
  const last = enter(to);
  if (last) return last;
  if (steps === 1) return null;
  // Two squares: some first square next to both must be free to pass (§4.3, docs/rules.md).
  const via = neighbours(from).filter((m) => neighbours(m).includes(to));
  for (const m of via) {
    const q = v.squares[squareIndex(m)];
    if (!q.card && !q.firewall && !EXITS[me].includes(m) && !EXITS[me === 1 ? 2 : 1].includes(m)) return null;
  }
  return via.some((m) => EXITS[me === 1 ? 2 : 1].includes(m)) && via.every((m) => !v.squares[squareIndex(m)].card && !v.squares[squareIndex(m)].firewall)
    ? 'why.exitStop'
    : 'why.blocked';
}
