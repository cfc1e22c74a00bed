// The analysis of a finished game on the replay page (GET /api/games/{id}/analysis): for the side
// shown at the bottom, what the computer made of each position from what that side knew then.
// A win-chance graph over the game (click a point to go to that ply), the virus probability of
// each unidentified opponent card drawn on it, and the side's best actions (highlighted on the
// board while hovered or focused). The engine in the browser computes it (analyseHere) when this
// browser can run it, with the server's budget, so the numbers are the server's; otherwise, or if
// the engine fails, the server computes it on demand: while it does, or while it is busy (503),
// the panel says so and asks again.
import { actionSquares, parseAction } from './actions.ts';
import { h } from './dom.ts';
import { engine } from './engine.ts';
import { t } from './i18n.ts';
import type { AnalysedPly, GameAnalysis, SideId } from './protocol.gen.ts';
import type { Side } from './view.ts';

export type AnalysisState =
  | { status: 'loading' | 'busy' }
  | { status: 'error'; message: string }
  | { status: 'ready'; analysis: GameAnalysis; where?: 'browser' | 'server' };

/** The server's playouts per position (`Config::analysisNodes`): the browser uses the same. */
export const ANALYSIS_NODES = 1000;

/** Whether this browser can run the engine: WebAssembly in a worker. */
export function engineAvailable(): boolean {
  return typeof WebAssembly === 'object' && typeof Worker === 'function';
}

/**
 * The analysis of `side` computed by the engine in the browser from the game's full record (no
 * server work); without the engine, or if it fails, the server's (loadAnalysis). Returns a
 * function that stops reporting.
 */
export function analyseHere(id: string, record: string | null, side: Side, report: (s: AnalysisState) => void): () => void {
  if (!record || !engineAvailable()) return loadAnalysis(id, side, report);
  let stopped = false;
  let stopServer: (() => void) | null = null;
  report({ status: 'loading' });
  engine().analyse(record, side, ANALYSIS_NODES).then(
    (a) => { if (!stopped) report({ status: 'ready', analysis: { ...a, game: id }, where: 'browser' }); },
    () => { if (!stopped) stopServer = loadAnalysis(id, side, report); },
  );
  return () => { stopped = true; stopServer?.(); };
}

const pct = (x: number) => `${Math.round(x * 100)}`;
const SVG = 'http://www.w3.org/2000/svg';
const W = 300, H = 80;

/**
 * Fetches the analysis of `side`, reporting each state; a busy server is asked again after its
 * Retry-After (at most `tries` times). Returns a function that stops asking.
 */
export function loadAnalysis(id: string, side: Side, report: (s: AnalysisState) => void, tries = 20): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = (left: number) => {
    report({ status: left === tries ? 'loading' : 'busy' });
    fetch(`/api/games/${encodeURIComponent(id)}/analysis?side=${side}`, { headers: { accept: 'application/json' } })
      .then(async (r) => {
        if (stopped) return;
        if (r.status === 503 && left > 1) {
          report({ status: 'busy' });
          const wait = Math.min(30, Math.max(1, Number(r.headers.get('retry-after')) || 5));
          timer = setTimeout(() => attempt(left - 1), wait * 1000);
          return;
        }
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        report({ status: 'ready', analysis: (await r.json()) as GameAnalysis, where: 'server' });
      })
      .catch((e) => { if (!stopped) report({ status: 'error', message: e.message }); });
  };
  attempt(tries);
  return () => { stopped = true; clearTimeout(timer); };
}

/**
 * The win chance over the game as an SVG line; a click picks the nearest ply. The line joins the
 * side's own turns (and the end): a search rates the position a little better for the side to
 * move, so joining every ply would zigzag between the two sides' turns.
 */
export function winGraph(plies: AnalysedPly[], side: SideId, current: number, label: string, pick: (ply: number) => void): SVGSVGElement {
  const el = (tag: string, attrs: Record<string, string | number>) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };
  const n = Math.max(1, plies.length - 1);
  const x = (i: number) => (i / n) * W;
  const y = (p: number) => (1 - p) * H;
  const root = el('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': label, class: 'win-graph', 'data-win-graph': '' }) as SVGSVGElement;
  const title = el('title', {});
  title.textContent = label;
  root.append(title, el('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'mid' }));
  const points = plies.map((p, i) => [p, i] as const).filter(([p]) => p.to_move === side || p.over)
    .map(([p, i]) => `${x(i).toFixed(1)},${y(p.win).toFixed(1)}`).join(' ');
  root.append(el('polygon', { points: `0,${H} ${points} ${W},${H}`, class: 'area' }), el('polyline', { points, class: 'line' }));
  if (plies[current]) {
    root.append(el('line', { x1: x(current), x2: x(current), y1: 0, y2: H, class: 'cur' }));
    root.append(el('circle', { cx: x(current), cy: y(plies[current].win), r: 3, class: 'dot', 'data-graph-ply': current }));
  }
  root.addEventListener('click', (ev) => {
    const box = root.getBoundingClientRect();
    if (box.width > 0) pick(Math.round(((ev.clientX - box.left) / box.width) * n));
  });
  return root;
}

/** Draws the virus probabilities of `ply` on the opponent's cards of a rendered board. */
export function markBeliefs(board: HTMLElement, ply: AnalysedPly): void {
  for (const [sq, p] of Object.entries(ply.virus)) {
    const cell = board.querySelector<HTMLElement>(`[data-square="${sq}"]`);
    if (!cell) continue;
    const text = t('analysis.virus', { p: pct(p) });
    cell.append(h('span.vprob', { 'data-virus': pct(p), 'aria-hidden': 'true', style: `--p:${p}` }, `${pct(p)}%`));
    cell.setAttribute('aria-label', `${cell.getAttribute('aria-label')}, ${text}`);
  }
}

/** The panel: state, graph, win chance at this ply and the best actions. */
export function analysisPanel(state: AnalysisState, ply: number, name: string, board: HTMLElement, pick: (ply: number) => void): HTMLElement {
  const head = h('h2', t('analysis.title', { name }));
  if (state.status !== 'ready') {
    const text = state.status === 'error' ? t('analysis.error', { error: state.message }) : t(state.status === 'busy' ? 'analysis.busy' : 'analysis.loading');
    return h('section.panel.analysis', { 'data-analysis': state.status, 'aria-label': t('analysis.toggle'), 'aria-busy': state.status !== 'error' ? 'true' : 'false' },
      head, h('p', { class: state.status === 'error' ? 'banner err' : 'hint', role: 'status' }, text));
  }
  const plies = state.analysis.plies;
  const p = plies[Math.min(ply, plies.length - 1)];
  const highlight = (action: string, on: boolean) => {
    const a = parseAction(action);
    if (!a) return;
    for (const sq of actionSquares(a)) board.querySelector(`[data-square="${sq}"]`)?.classList.toggle('hint', on);
  };
  const best = p.best.length
    ? h('ol.best', { 'data-best': '' }, p.best.map((b) => h('li', {
      tabindex: 0, 'data-best-action': b.action,
      on: { mouseenter: () => highlight(b.action, true), mouseleave: () => highlight(b.action, false), focus: () => highlight(b.action, true), blur: () => highlight(b.action, false) },
    }, h('span.act', b.action), ' ', h('span.dim', t('analysis.action', { win: pct(b.win), share: pct(b.share) })))))
    : h('p.hint', t(p.over ? 'analysis.over' : 'analysis.notTurn', { name }));
  return h('section.panel.analysis', { 'data-analysis': 'ready', 'data-analysis-where': state.where ?? 'server', 'aria-label': t('analysis.toggle') },
    head,
    winGraph(plies, state.analysis.side, Math.min(ply, plies.length - 1), t('analysis.graph', { name }), pick),
    h('div.row', h('span', { 'data-win': pct(p.win) }, t('analysis.win', { p: pct(p.win) })), h('span.grow'), h('span.hint', t('analysis.nodes', { n: state.analysis.nodes }))),
    h('h3', t('analysis.best')), best,
    h('p.hint', t('analysis.note', { name }), state.where === 'browser' ? ` ${t('analysis.here')}` : ''));
}
