// The leaderboard (/leaderboard: players with a rated game, best first) and a player's page
// (/player/<id>: profile, rating, results and recent games), both read from the HTTP API.
import { h } from './dom.ts';
import { type App, fetchJson } from './ui.ts';

type Screen = { el: HTMLElement; update: () => void; dispose: () => void };
const PER_PAGE = 50;

function link(path: string, text: string, attrs: Record<string, unknown> = {}): HTMLElement {
  return h('a', { href: path, 'data-link': '', ...attrs }, text);
}

export function renderLeaderboard(_app: App): Screen {
  const el = h('main');
  // Paged by cursor (docs/protocol.md §10): cursors[i] starts page i + 1 (none for the first).
  let page = 1;
  const cursors: (string | null)[] = [null];
  let data: any = null;
  let error = '';
  const load = async () => {
    try {
      const after = cursors[page - 1];
      data = await fetchJson(`/api/leaderboard?per_page=${PER_PAGE}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      if (typeof data.next === 'string') cursors[page] = data.next;
      error = '';
    } catch (e: any) {
      error = `Could not load the leaderboard: ${e.message}`;
    }
    update();
  };
  function update(): void {
    const pages = data ? Math.max(1, Math.ceil(data.total / PER_PAGE)) : 1;
    el.replaceChildren(h('section.panel', { 'data-leaderboard': '' }, h('h2', 'Leaderboard'),
      error ? h('div.banner.err', error) : !data ? h('div.empty', 'loading…') : data.players.length === 0 ? h('div.empty', 'No rated game has been played yet.') :
        h('table.games', h('thead', h('tr', h('th', '#'), h('th', 'player'), h('th', 'rating'), h('th', 'rated games'))),
          h('tbody', data.players.map((p: any) => h('tr', { 'data-leader': p.id },
            h('td.mono', String(p.rank)),
            h('td', link(`/player/${p.id}`, p.name), p.kind === 'guest' ? h('span.tag', 'guest') : null),
            h('td.mono', { 'data-leader-rating': p.id }, `${p.rating}`, h('span.hint', ` ±${2 * p.rd}`)),
            h('td.mono', String(p.rated_games)))))),
      data && pages > 1 ? h('div.row',
        h('button.btn.small', { type: 'button', disabled: page <= 1, on: { click: () => { page--; void load(); } } }, '◀'),
        h('span.hint', `page ${page} / ${pages}`),
        h('button.btn.small', { type: 'button', disabled: page >= pages || !cursors[page], on: { click: () => { page++; void load(); } } }, '▶')) : null,
      h('p', link('/', '← home'))));
  }
  void load();
  const poll = setInterval(load, 10000);
  update();
  return { el, update: () => {}, dispose: () => clearInterval(poll) };
}

export function renderPlayerPage(_app: App, id: string): Screen {
  const el = h('main');
  let profile: any = null;
  let games: any[] | null = null;
  let error = '';
  const load = async () => {
    try {
      profile = await fetchJson(`/api/players/${encodeURIComponent(id)}`);
      games = (await fetchJson(`/api/games?player=${encodeURIComponent(id)}&per_page=20`)).games ?? [];
    } catch (e: any) {
      error = e.status === 404 ? `Player ${id} does not exist.` : `Could not load the player: ${e.message}`;
    }
    update();
  };
  const names = (g: any) => `${g.players?.['1']?.name ?? '—'} vs ${g.players?.['2']?.name ?? '—'}`;
  function update(): void {
    if (error || !profile) {
      el.replaceChildren(h('div.panel', error ? h('div.banner.err', { 'data-error': '' }, error) : h('div.empty', 'loading…'), h('p', link('/', '← home'))));
      return;
    }
    const p = profile;
    el.replaceChildren(h('div.lobby',
      h('div.col', h('section.panel', { 'data-profile': p.id },
        h('h2', p.name, ' ', h('span.tag', p.kind)),
        h('div.status', 'rating ', h('b', { 'data-profile-rating': '' }, String(p.rating)), h('span.hint', ` ±${2 * p.rd} · ${p.rated_games} rated games`)),
        h('div', { 'data-profile-record': '' }, `${p.games} games: ${p.wins} won, ${p.draws} drawn, ${p.losses} lost`),
        h('p', link('/leaderboard', 'Leaderboard'), ' · ', link('/', 'Home')))),
      h('div.col', h('section.panel', h('h2', 'Recent games'),
        !games || games.length === 0 ? h('div.empty', 'No games yet.') :
          h('table.games', h('tbody', games.map((g) => h('tr', { 'data-player-game': g.game },
            h('td', names(g)), h('td.mono', g.result ?? g.status), h('td', g.rated ? '' : h('span.tag', 'casual')),
            h('td', g.status === 'finished' ? link(`/replay/${g.game}`, 'Replay', { class: 'btn small' }) : link(`/game/${g.game}`, 'Open', { class: 'btn small' }))))))))));
  }
  void load();
  update();
  return { el, update: () => {}, dispose: () => {} };
}
