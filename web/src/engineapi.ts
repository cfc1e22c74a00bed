// The engine's calls (wasm/api.h): how each request is written and what each answer holds. Shared
// by the worker's client (engine.ts), the worker (engine.worker.ts) and the cross-check against
// the native engine (test/unit/engine.test.ts), so all three speak the same requests.
import type { GameAnalysis } from './protocol.gen.ts';

export type RulesName = 'standard' | 'official';
export type SideNumber = 1 | 2;
export type ViewerName = '1' | '2' | 'spectator';
/** A bot of the engine: the levels of the server's computer, and the named bots. */
export type BotName = 'random' | 'greedy' | 'bait' | 'strong' | 'ismcts-v1' | 'level1' | 'level2' | 'level3' | 'level4' | 'level5';

export interface GameState {
  position: string;
  to_move: SideNumber;
  ply: number;
  over: boolean;
  result: string; // "1-0", "0-1", "1/2-1/2", "*"
  reason: string; // "four-links", "four-viruses", "no-progress", ""
}
/** The state after an action, and the action as each side observed it (engine protocol form). */
export interface Applied extends GameState {
  observed: [string, string];
}
export interface Thought {
  action: string;
  iterations: number;
  pvirus: Record<string, number>;
}

/** The request of one call: its command and arguments separated by tabs. */
export function request(command: string, ...args: (string | number)[]): string {
  for (const a of args) if (String(a).includes('\t')) throw new Error(`${command}: an argument holds a tab`);
  return [command, ...args.map(String)].join('\t');
}

export const requests = {
  start: (rules: RulesName, setup1: string, setup2: string) => request('start', rules, setup1, setup2),
  state: (rules: RulesName, position: string) => request('state', rules, position),
  legal: (rules: RulesName, position: string) => request('legal', rules, position),
  apply: (rules: RulesName, position: string, action: string) => request('apply', rules, position, action),
  view: (rules: RulesName, position: string, viewer: ViewerName) => request('view', rules, position, viewer),
  perft: (rules: RulesName, position: string, depth: number) => request('perft', rules, position, depth),
  setup: (rules: RulesName, side: SideNumber, bot: BotName, seed: number) => request('setup', rules, side, bot, seed),
  /** `knowledge`: `view F1 .. F6 [moves OBS ...]` (docs/engine-protocol.md); nodes 0: the bot's own budget. */
  think: (rules: RulesName, side: SideNumber, bot: BotName, nodes: number, seed: number, knowledge: string) =>
    request('think', rules, side, bot, nodes, seed, knowledge),
  analyse: (side: SideNumber, nodes: number, record: string) => request('analyse', side, nodes, record),
};

export interface Answers {
  start: GameState;
  state: GameState;
  legal: { actions: string[] };
  apply: Applied;
  view: { view: string };
  perft: { nodes: number };
  setup: { setup: string };
  think: Thought;
  analyse: GameAnalysis;
}

/** An answer, or the engine's error as an exception. */
export function parseAnswer<T>(text: string): T {
  const v = JSON.parse(text) as T | { error: string };
  if (v && typeof v === 'object' && 'error' in v && typeof v.error === 'string') throw new Error(v.error);
  return v as T;
}
