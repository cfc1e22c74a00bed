// Replay of a finished game from the archive: every identity shown, stepped with buttons, the
// slider, a click on an action, or the keyboard (arrows, Home, End). The Analysis toggle shows
// the computer's analysis for the side at the bottom (analysis.ts), computed in this browser's
// engine from the game's record when it can.
import { actionSquares, parseAction } from './actions.ts';
import { type AnalysisState, analyseHere, analysisPanel, markBeliefs } from './analysis.ts';
import { renderBoard } from './board.ts';
import { h } from './dom.ts';
import { endText } from './endtext.ts';
import { type Key, onLangChange, t } from './i18n.ts';
import type { EndReason, GameRecordAnswer, GameResult, SideId } from './protocol.gen.ts';
import { type App, clockLabel, fetchJson, renderHand, renderStack, sideDot } from './ui.ts';
import { type Side, parseView, squareIndex } from './view.ts';

export function renderReplayPage(app: App, id: string): { el: HTMLElement; update: () => void; dispose: () => void } {
  const el = h('main.game-main');
  let record: GameRecordAnswer | null = null;
  let positions: string[] = [];
  // An error as a catalogue key and its parameters, so that a language switch translates it too.
  let error: { key: Key; params?: Record<string, string> } | null = null;
  let ply = 0;
  let bottom: Side = 1;
  let showAnalysis = false;
  const analyses: Partial<Record<Side, AnalysisState>> = {};
  const stops: (() => void)[] = [];
  // The analysis of the side at the bottom, asked for once per side while the panel is shown.
  const wantAnalysis = () => {
    if (!showAnalysis || analyses[bottom]) return;
    const side = bottom;
    analyses[side] = { status: 'loading' };
    stops.push(analyseHere(id, record?.record ?? null, side, (s) => {
      analyses[side] = s;
      // For tests and debugging, beside main.ts's window.rainet: the analysis last shown.
      const debug = (window as unknown as { rainet?: { lastAnalysis?: unknown } }).rainet;
      if (s.status === 'ready' && debug) debug.lastAnalysis = s.analysis;
      update();
    }));
  };
  const flip = () => { bottom = bottom === 1 ? 2 : 1; wantAnalysis(); update(); };

  const go = (n: number) => {
    ply = Math.max(0, Math.min(positions.length - 1, n));
    update();
  };
  const onKey = (ev: KeyboardEvent) => {
    if (!positions.length) return;
    if ((ev.target as HTMLElement)?.tagName === 'INPUT') return;
    const k = ev.key;
    if (k === 'ArrowRight' || k === 'ArrowDown') go(ply + 1);
    else if (k === 'ArrowLeft' || k === 'ArrowUp') go(ply - 1);
    else if (k === 'Home') go(0);
    else if (k === 'End') go(positions.length - 1);
    else if (k === 'f') flip();
    else return;
    ev.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  (fetchJson(`/api/games/${encodeURIComponent(id)}`) as Promise<GameRecordAnswer>)
    .then((r) => {
      record = r;
      if (r.status !== 'finished') error = { key: 'replay.notFinished' };
      // The server sends the engine's position after every ply: the client applies no rules.
      else if (Array.isArray(r.positions) && r.positions.length === r.actions.length + 1) positions = r.positions;
      else error = { key: 'replay.noPositions' };
    })
    .catch((e) => (error = e.status === 404 ? { key: 'game.unknown', params: { id } } : { key: 'replay.loadError', params: { error: e.message } }))
    .finally(update);

  function update(): void {
    if (!record || error) {
      el.replaceChildren(h('div.panel', error ? h('div.banner.err', { 'data-error': '' }, t(error.key, error.params)) : h('div.empty', t('home.loading')),
        record && record.status !== 'finished' ? h('p', h('a', { href: `/game/${id}`, 'data-link': '' }, t('replay.goToGame'))) : null,
        h('p', h('a', { href: '/', 'data-link': '' }, t('game.home')))));
      return;
    }
    const v = parseView(positions[ply]);
    const actions: string[] = record.actions;
    const lastAction = ply > 0 ? parseAction(actions[ply - 1]) : null;
    const players = record.players;
    const nameOf = (side: Side) => players?.[String(side) as SideId]?.name ?? t('game.side', { n: side });
    const board = renderBoard(v, {
      bottom, me: null, names: { 1: nameOf(1), 2: nameOf(2) },
      last: lastAction ? actionSquares(lastAction) : [],
      lastFrom: lastAction?.kind === 'move' || lastAction?.kind === 'enter' ? lastAction.from : undefined,
    });
    const top: Side = bottom === 1 ? 2 : 1;
    const bar = (side: Side, where: string) => h('div.player-bar', { class: where, 'data-player': side },
      h('div.bar-head', h('span.name', sideDot(side), h('span.pname', nameOf(side))), h('span.grow'), renderStack(v.stacks[side - 1], side, null)),
      h('div.bar-cards', renderHand(v, side)));
    // What a VIRUS CHECKER showed, read from the position after it (as the live game shows it).
    const revealed = (j: number): string => {
      const a = parseAction(actions[j]);
      if (a?.kind !== 'vc' || !positions[j + 1]) return '';
      const c = parseView(positions[j + 1]).squares[squareIndex(a.square)].card;
      return c && c.kind !== 'X' ? ` {${c.kind}}` : '';
    };
    const rows: HTMLElement[] = [];
    for (let i = 0; i < actions.length; i += 2) {
      rows.push(h('span.n', `${i / 2 + 1}.`));
      for (const j of [i, i + 1]) {
        if (j >= actions.length) { rows.push(h('span')); continue; }
        const rev = revealed(j);
        rows.push(h(`button.mv.s${(j % 2) + 1}`, {
          type: 'button', class: j === ply - 1 ? 'cur' : '', 'data-ply': j, 'aria-current': j === ply - 1 ? 'step' : false,
          on: { click: () => go(j + 1) },
        }, actions[j].split(' ')[0], rev ? h('span.rev', rev) : null));
      }
    }
    const moves = h('div.moves', { 'data-history': '' }, rows);
    const nav = h('div.replay-nav',
      h('button.btn.small', { type: 'button', 'data-nav': 'first', 'aria-label': t('game.nav.first'), on: { click: () => go(0) } }, '«'),
      h('button.btn.small', { type: 'button', 'data-nav': 'prev', 'aria-label': t('game.nav.prev'), on: { click: () => go(ply - 1) } }, '◀'),
      h('input', { type: 'range', min: 0, max: positions.length - 1, value: ply, 'aria-label': t('replay.slider'), on: { input: (e: Event) => go(Number((e.target as HTMLInputElement).value)) } }),
      h('button.btn.small', { type: 'button', 'data-nav': 'next', 'aria-label': t('game.nav.next'), on: { click: () => go(ply + 1) } }, '▶'),
      h('button.btn.small', { type: 'button', 'data-nav': 'last', 'aria-label': t('replay.nav.last'), on: { click: () => go(positions.length - 1) } }, '»'),
      h('button.btn.small', { type: 'button', 'data-nav': 'flip', on: { click: flip } }, `⇅ ${t('game.flip')}`));
    // Beside the status line, which has room for it: the controls keep their height on a phone.
    const toggle = h('button.btn.small', {
      type: 'button', 'data-action': 'analysis', 'aria-pressed': showAnalysis ? 'true' : 'false',
      on: { click: () => { showAnalysis = !showAnalysis; wantAnalysis(); update(); } },
    }, t('analysis.toggle'));
    const state = showAnalysis ? analyses[bottom] : undefined;
    if (state?.status === 'ready' && state.analysis.plies[ply]) markBeliefs(board, state.analysis.plies[ply]);
    const panel = state ? analysisPanel(state, ply, nameOf(bottom), board, go) : null;
    const who = ply > 0 ? nameOf((ply - 1) % 2 === 0 ? 1 : 2) : '';
    const winner = record.result === '1-0' ? '1' : record.result === '0-1' ? '2' : null;
    // The archive answer keeps result and reason as the stored text (src/protocol/http_answers.h).
    const end = endText({ result: { result: (record.result ?? null) as GameResult | null, winner, reason: (record.reason ?? '') as EndReason }, names: { '1': nameOf(1), '2': nameOf(2) }, you: 'spectator', lastAction: actions.at(-1) ?? null, position: record.position });
    el.replaceChildren(h('div.game.replay', { 'data-replay': id, 'data-ply': ply },
      h('div.zone-board', board),
      h('div.zone-top', bar(top, 'top')),
      h('div.zone-ctl', h('div.panel.ctl',
        h('div.endpanel', h('div.result', end.headline), h('div.reason', end.reason),
          h('div.hint', [t(record.preset === 'official' ? 'game.preset.official' : 'game.preset.standard'), clockLabel(record.clock), t('replay.shown')].join(' · '))),
        h('div.status-row', h('div.status', { 'data-replay-ply': ply }, ply > 0
          ? t('replay.ply', { n: ply, total: actions.length, name: who, action: `${actions[ply - 1].split(' ')[0]}${revealed(ply - 1)}` })
          : t('replay.start', { total: actions.length })), toggle),
        nav,
        h('div.hint.kbd', t('replay.keys')))),
      h('div.zone-more', panel, h('section.panel.moves-panel', { 'aria-label': t('game.actions.aria') }, h('h2', t('game.actions')), moves),
        h('div.panel.info', h('div.row', h('a.btn.small', { href: `/api/games/${id}/record`, download: `rainet-${id}.txt`, 'data-action': 'download-record' }, t('replay.download')),
          h('a.btn.small', { href: '/', 'data-link': '' }, t('game.end.home'))))),
      h('div.zone-bottom', bar(bottom, 'bottom'))));
    const cur = moves.querySelector<HTMLElement>('.cur');
    requestAnimationFrame(() => { if (cur) moves.scrollTop = cur.offsetTop - moves.clientHeight / 2; else moves.scrollTop = 0; });
  }

  update();
  const offLang = onLangChange(update);
  return { el, update: () => {}, dispose: () => { offLang(); for (const stop of stops) stop(); document.removeEventListener('keydown', onKey); } };
}

