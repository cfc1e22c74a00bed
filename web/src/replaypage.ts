// Replay of a finished game from the archive: every identity shown, stepped with buttons, the
// slider, a click on an action, or the keyboard (arrows, Home, End).
import { actionSquares, parseAction } from './actions.ts';
import { renderBoard } from './board.ts';
import { h } from './dom.ts';
import { reasonText } from './game.ts';
import { type App, clockLabel, fetchJson, renderHand, renderStack, sideDot } from './ui.ts';
import { type Side, parseView } from './view.ts';

export function renderReplayPage(app: App, id: string): { el: HTMLElement; update: () => void; dispose: () => void } {
  const el = h('main');
  let record: any = null;
  let positions: string[] = [];
  let error = '';
  let ply = 0;
  let bottom: Side = 1;

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
    else if (k === 'f') { bottom = bottom === 1 ? 2 : 1; update(); }
    else return;
    ev.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  fetchJson(`/api/games/${encodeURIComponent(id)}`)
    .then((r) => {
      record = r;
      if (r.status !== 'finished') error = 'This game is not finished: it can be replayed once it is over.';
      // The server sends the engine's position after every ply: the client applies no rules.
      else if (Array.isArray(r.positions) && r.positions.length === r.actions.length + 1) positions = r.positions;
      else error = 'The server sent no positions for this game.';
    })
    .catch((e) => (error = e.status === 404 ? `Game ${id} does not exist.` : `Could not load the game: ${e.message}`))
    .finally(update);

  function update(): void {
    if (!record || error) {
      el.replaceChildren(h('div.panel', error ? h('div.banner.err', { 'data-error': '' }, error) : h('div.empty', 'loading…'),
        record && record.status !== 'finished' ? h('p', h('a', { href: `/game/${id}`, 'data-link': '' }, 'Go to the game')) : null,
        h('p', h('a', { href: '/', 'data-link': '' }, '← lobby'))));
      return;
    }
    const v = parseView(positions[ply]);
    const actions: string[] = record.actions;
    const lastAction = ply > 0 ? parseAction(actions[ply - 1]) : null;
    const board = renderBoard(v, { bottom, me: null, last: lastAction ? actionSquares(lastAction) : [] });
    const top: Side = bottom === 1 ? 2 : 1;
    const bar = (side: Side) => h('div.player-bar', { 'data-player': side },
      h('span.name', sideDot(side), record.players?.[side]?.name ?? `side ${side}`),
      h('span.grow'),
      h('div', { style: { width: '100%', display: 'flex', gap: '10px', flexWrap: 'wrap', justifyContent: 'space-between' } },
        renderHand(v, side), renderStack(v.stacks[side - 1], side, null)));
    const rows: HTMLElement[] = [];
    for (let i = 0; i < actions.length; i += 2) {
      rows.push(h('span.n', `${i / 2 + 1}.`));
      for (const j of [i, i + 1]) {
        if (j >= actions.length) { rows.push(h('span')); continue; }
        rows.push(h(`button.mv.s${(j % 2) + 1}`, {
          type: 'button', class: j === ply - 1 ? 'cur' : '', 'data-ply': j, style: { border: '0', background: 'none', textAlign: 'left', cursor: 'pointer', font: 'inherit' },
          on: { click: () => go(j + 1) },
        }, actions[j]));
      }
    }
    const moves = h('div.moves', { 'data-history': '' }, rows);
    const nav = h('div.replay-nav',
      h('button.btn.small', { type: 'button', 'data-nav': 'first', 'aria-label': 'first', on: { click: () => go(0) } }, '«'),
      h('button.btn.small', { type: 'button', 'data-nav': 'prev', 'aria-label': 'previous', on: { click: () => go(ply - 1) } }, '◀'),
      h('input', { type: 'range', min: 0, max: positions.length - 1, value: ply, 'aria-label': 'ply', on: { input: (e: Event) => go(Number((e.target as HTMLInputElement).value)) } }),
      h('button.btn.small', { type: 'button', 'data-nav': 'next', 'aria-label': 'next', on: { click: () => go(ply + 1) } }, '▶'),
      h('button.btn.small', { type: 'button', 'data-nav': 'last', 'aria-label': 'last', on: { click: () => go(positions.length - 1) } }, '»'),
      h('button.btn.small', { type: 'button', 'data-nav': 'flip', on: { click: () => { bottom = bottom === 1 ? 2 : 1; update(); } } }, 'Flip'));
    el.replaceChildren(h('div.game', { 'data-replay': id, 'data-ply': ply },
      h('div.boardcol', bar(top), board, bar(bottom), nav),
      h('aside.side',
        h('div.panel.endpanel', h('div.result', winnerText(record)), h('div.reason', `${record.result ?? 'no result'} · ${reasonText(record.reason ?? '')}`),
          h('div.hint', `${record.preset} · ${clockLabel(record.clock)} · replay, every identity shown`),
          h('div.row', h('a.btn.small', { href: `/api/games/${id}/record`, download: `rainet-${id}.txt`, 'data-action': 'download-record' }, 'Download record'))),
        h('div.panel', h('div.status', { 'data-replay-ply': ply }, `ply ${ply} / ${actions.length}`),
          h('div.hint', ply > 0 ? `last: ${actions[ply - 1]}` : 'start position'),
          h('div.hint', '← → step · Home/End · f flips the board')),
        h('div.panel', h('h2', 'Actions'), moves))));
    const cur = moves.querySelector<HTMLElement>('.cur');
    requestAnimationFrame(() => cur?.scrollIntoView({ block: 'nearest' }));
  }

  update();
  return { el, update: () => {}, dispose: () => document.removeEventListener('keydown', onKey) };
}

function winnerText(record: any): string {
  if (record.result === '1-0' || record.result === '0-1') {
    const w = record.result === '1-0' ? '1' : '2';
    return `${record.players?.[w]?.name ?? `side ${w}`} wins`;
  }
  return record.result === '1/2-1/2' ? 'Draw' : 'No result';
}
