// What the tutorial makes of an action the learner played (pure, unit-tested), and the progress
// through the lessons kept in localStorage.
import type { Key } from './i18n.ts';
import { LESSON_DATA } from './lessondata.ts';
import { LESSONS, type Step } from './lessons.ts';
import { parseView, stackCounts } from './view.ts';

export type Verdict =
  /** The step is done: `view` is the learner's view after the action. */
  | { kind: 'goal'; view: string }
  /** The action loses the game: shown with its result, explained, then taken back. */
  | { kind: 'trap'; view: string; why: Key }
  /** Legal, but not what the step asks: explained and not played. */
  | { kind: 'wrong'; why: Key }
  /** Not a legal action at all (the board never offers one; a guard for scripted input). */
  | { kind: 'illegal' };

export function stepData(step: Step): { view: string; legal: string[]; after: Record<string, string> } {
  const d = LESSON_DATA[step.position];
  if (!d) throw new Error(`lesson data is missing for ${step.position}: run node --import tsx scripts/lessons.ts`);
  return d;
}

export function judge(step: Step, action: string): Verdict {
  const d = stepData(step);
  if (!d.legal.includes(action)) return { kind: 'illegal' };
  if (step.trap?.action === action) return { kind: 'trap', view: d.after[action], why: step.trap.why };
  if (step.goal(action)) return { kind: 'goal', view: d.after[action] };
  return { kind: 'wrong', why: step.wrong };
}

/** The learner's result in a view: 'win' with four links in its stack, 'lose' with four viruses. */
export function outcome(view: string): 'win' | 'lose' | null {
  const n = stackCounts(parseView(view).stacks[0]);
  return n.L >= 4 ? 'win' : n.V >= 4 ? 'lose' : null;
}

export interface StorageLike {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
}

const PROGRESS_KEY = 'rainet.learn';

/** The ids of the lessons completed, in lesson order; unknown ids and garbage are dropped. */
export function loadProgress(storage: StorageLike | null): string[] {
  let saved: unknown = [];
  try {
    saved = JSON.parse(storage?.getItem(PROGRESS_KEY) ?? '[]');
  } catch {
    saved = [];
  }
  const ids = new Set(Array.isArray(saved) ? saved : []);
  return LESSONS.filter((l) => ids.has(l.id)).map((l) => l.id);
}

export function saveProgress(storage: StorageLike | null, done: readonly string[]): void {
  try {
    storage?.setItem(PROGRESS_KEY, JSON.stringify(done));
  } catch {
    /* storage full or disabled: progress lasts for this page */
  }
}

/** The lesson to open: the first one not completed, or null when all are. */
export function nextLesson(done: readonly string[]): number | null {
  const i = LESSONS.findIndex((l) => !done.includes(l.id));
  return i < 0 ? null : i;
}
