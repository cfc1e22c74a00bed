// Replay of a finished game from the archive: every identity shown, stepped with buttons, the
// slider, a click on an action, or the keyboard (arrows, Home, End).
import { actionSquares, parseAction } from './actions.ts';
import { renderBoard } from './board.ts';
import { h } from './dom.ts';
import { endText } from './endtext.ts';
import { type App, clockLabel, fetchJson, renderHand, renderStack, sideDot } from './ui.ts';
import { type Side, parseView, squareIndex } from './view.ts';

export function renderReplayPage(app: App, id: string): { el: HTMLElement; update: () => void; dispose: () => void } {
  const el = h('main.game-main');
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
        h('p', h('a', { href: '/', 'data-link': '' }, '← home'))));
      return;
    }
    const v = parseView(positions[ply]);
    const actions: string[] = record.actions;
    const lastAction = ply > 0 ? parseAction(actions[ply - 1]) : null;
    const nameOf = (side: Side | string) => record.players?.[side]?.name ?? `side ${side}`;
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
      h('button.btn.small', { type: 'button', 'data-nav': 'first', 'aria-label': 'first', on: { click: () => go(0) } }, '«'),
      h('button.btn.small', { type: 'button', 'data-nav': 'prev', 'aria-label': 'previous', on: { click: () => go(ply - 1) } }, '◀'),
      h('input', { type: 'range', min: 0, max: positions.length - 1, value: ply, 'aria-label': 'action number', on: { input: (e: Event) => go(Number((e.target as HTMLInputElement).value)) } }),
      h('button.btn.small', { type: 'button', 'data-nav': 'next', 'aria-label': 'next', on: { click: () => go(ply + 1) } }, '▶'),
      h('button.btn.small', { type: 'button', 'data-nav': 'last', 'aria-label': 'last', on: { click: () => go(positions.length - 1) } }, '»'),
      h('button.btn.small', { type: 'button', 'data-nav': 'flip', on: { click: () => { bottom = bottom === 1 ? 2 : 1; update(); } } }, '⇅ Flip'));
    const who = ply > 0 ? nameOf((ply - 1) % 2 === 0 ? 1 : 2) : '';
    const winner = record.result === '1-0' ? '1' : record.result === '0-1' ? '2' : null;
    const t = endText({ result: { result: record.result ?? null, winner, reason: record.reason ?? '' }, names: { '1': nameOf(1), '2': nameOf(2) }, you: 'spectator', lastAction: actions.at(-1) ?? null, position: record.position });
    el.replaceChildren(h('div.game.replay', { 'data-replay': id, 'data-ply': ply },
      h('div.zone-board', board),
      h('div.zone-top', bar(top, 'top')),
      h('div.zone-ctl', h('div.panel.ctl',
        h('div.endpanel', h('div.result', t.headline), h('div.reason', t.reason),
          h('div.hint', `${record.preset} · ${clockLabel(record.clock)} · replay, every identity shown`)),
        h('div.status', { 'data-replay-ply': ply }, ply > 0 ? `Action ${ply} of ${actions.length}: ${who} ${actions[ply - 1].split(' ')[0]}${revealed(ply - 1)}` : `Start position (${actions.length} actions)`),
        nav,
        h('div.hint.kbd', '← → step · Home/End · f flips the board'))),
      h('div.zone-more', h('section.panel.moves-panel', { 'aria-label': 'actions' }, h('h2', 'Actions'), moves),
        h('div.panel.info', h('div.row', h('a.btn.small', { href: `/api/games/${id}/record`, download: `rainet-${id}.txt`, 'data-action': 'download-record' }, 'Download record'),
          h('a.btn.small', { href: '/', 'data-link': '' }, 'Home')))),
      h('div.zone-bottom', bar(bottom, 'bottom'))));
    const cur = moves.querySelector<HTMLElement>('.cur');
    requestAnimationFrame(() => { if (cur) moves.scrollTop = cur.offsetTop - moves.clientHeight / 2; else moves.scrollTop = 0; });
  }

  update();
  return { el, update: () => {}, dispose: () => document.removeEventListener('keydown', onKey) };
}

