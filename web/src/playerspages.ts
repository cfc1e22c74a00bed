// The leaderboard (/leaderboard: players with a rated game, best first) and a player's page
// (/player/<id>: profile, rating, results and recent games), both read from the HTTP API.
import { h } from './dom.ts';
import { type Key, onLangChange, t, tNodes } from './i18n.ts';
import type { GameListEntry, GameListPage, LeaderboardPage, PlayerProfile } from './protocol.gen.ts';
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
  let data: LeaderboardPage | null = null;
  let error: { key: Key; params?: Record<string, string> } | null = null;
  const load = async () => {
    try {
      const after = cursors[page - 1];
      data = (await fetchJson(`/api/leaderboard?per_page=${PER_PAGE}${after ? `&after=${encodeURIComponent(after)}` : ''}`)) as LeaderboardPage;
      if (typeof data.next === 'string') cursors[page] = data.next;
      error = null;
    } catch (e: any) {
      error = { key: 'players.error.leaderboard', params: { error: e.message } };
    }
    update();
  };
  function update(): void {
    const pages = data ? Math.max(1, Math.ceil(data.total / PER_PAGE)) : 1;
    el.replaceChildren(h('section.panel', { 'data-leaderboard': '' }, h('h2', t('nav.leaderboard')),
      error ? h('div.banner.err', t(error.key, error.params)) : !data ? h('div.empty', t('home.loading')) : data.players.length === 0 ? h('div.empty', t('players.none')) :
        h('table.games', h('thead', h('tr', h('th', '#'), h('th', t('players.col.player')), h('th', t('players.col.rating')), h('th', t('players.col.rated')))),
          h('tbody', data.players.map((p) => h('tr', { 'data-leader': p.id },
            h('td.mono', String(p.rank)),
            h('td', link(`/player/${p.id}`, p.name), p.kind === 'guest' ? h('span.tag', t('players.kind.guest')) : null, p.bot ? h('span.tag', { 'data-bot': p.id }, t('game.bar.bot')) : null),
            h('td.mono', { 'data-leader-rating': p.id }, `${p.rating}`, h('span.hint', ` ±${2 * p.rd}`)),
            h('td.mono', String(p.rated_games)))))),
      data && pages > 1 ? h('div.row',
        h('button.btn.small', { type: 'button', disabled: page <= 1, on: { click: () => { page--; void load(); } } }, '◀'),
        h('span.hint', t('players.page', { page, pages })),
        h('button.btn.small', { type: 'button', disabled: page >= pages || !cursors[page], on: { click: () => { page++; void load(); } } }, '▶')) : null,
      h('p', link('/', t('game.home')))));
  }
  void load();
  const poll = setInterval(load, 10000);
  update();
  const offLang = onLangChange(update);
  return { el, update: () => {}, dispose: () => { offLang(); clearInterval(poll); } };
}

/** Follow and challenge a player (its profile): docs/protocol.md, "Challenges" and "Follows". */
function socialBox(app: App, id: string): HTMLElement {
  const box = h('div.social', { 'data-social': id });
  let message: string | null = null;
  const kind = { preset: 'standard', clock: '' as string, rated: true, side: 'random' };
  const draw = () => {
    const followed = app.client.following?.find((f) => f.player.id === id);
    const sent = app.client.challengesOut.find((c) => c.to.id === id);
    const select = (name: string, value: string, options: [string, string][], set: (v: string) => void) =>
      h('label', t(`challenge.${name}` as Key), ' ', h('select', { 'data-challenge-opt': name, on: { change: (e: Event) => set((e.target as HTMLSelectElement).value) } },
        options.map(([v, label]) => h('option', { value: v, selected: v === value }, label))));
    box.replaceChildren(
      h('p', followed ? h('span', { 'data-following': followed.online ? 'online' : 'offline' }, t(followed.online ? 'follow.online' : 'follow.offline'), ' ') : null,
        h('button', { type: 'button', 'data-action': followed ? 'unfollow' : 'follow', on: { click: () => app.client.setFollow(id, !followed).then(draw, (e) => { message = e.message; draw(); }) } }, t(followed ? 'follow.stop' : 'follow.start')),
        ...(followed?.games ?? []).map((g) => h('span', ' ', link(`/game/${g}`, t('follow.watch'), { class: 'btn small', 'data-follow-game': g })))),
      sent ? h('p', { 'data-challenge-sent': sent.id }, t('challenge.waiting'), ' ', h('button', { type: 'button', 'data-action': 'challenge-cancel', on: { click: () => app.client.cancelChallenge(sent.id).then(draw, (e) => { message = e.message; draw(); }) } }, t('challenge.cancel')))
        : h('form.row', { 'data-challenge-form': id, on: { submit: (e: Event) => {
          e.preventDefault();
          const [min, inc] = kind.clock ? kind.clock.split('+').map(Number) : [0, 0];
          const clock = !kind.clock ? null : kind.clock.endsWith('d') ? { days: Number(kind.clock.slice(0, -1)) } : { initial: min * 6000, increment: inc * 100 };
          app.client.challenge(id, { preset: kind.preset, clock, rated: kind.rated, side: kind.side })
            .then(() => { message = null; draw(); }, (err) => { message = err.message; draw(); });
        } } },
          select('preset', kind.preset, [['standard', t('challenge.standard')], ['official', t('challenge.official')]], (v) => (kind.preset = v)),
          select('clock', kind.clock, [['', t('challenge.untimed')], ['3+2', '3+2'], ['5+3', '5+3'], ['10+5', '10+5'], ['30+0', '30+0'],
            ...[1, 2, 3, 5, 7, 14].map((n): [string, string] => [`${n}d`, t('clock.days', { n })])], (v) => (kind.clock = v)),
          select('rated', kind.rated ? 'rated' : 'casual', [['rated', t('challenge.rated')], ['casual', t('challenge.casual')]], (v) => (kind.rated = v === 'rated')),
          select('side', kind.side, [['random', t('challenge.random')], ['1', t('challenge.side1')], ['2', t('challenge.side2')]], (v) => (kind.side = v)),
          h('button', { type: 'submit', 'data-action': 'challenge' }, t('challenge.send'))),
      message ? h('div.banner.err', { 'data-social-error': '' }, message) : '');
  };
  if (!app.client.following) app.client.loadFollowing().then(draw, () => {});
  draw();
  return box;
}

export function renderPlayerPage(app: App, id: string): Screen {
  const el = h('main');
  let profile: PlayerProfile | null = null;
  let games: GameListEntry[] | null = null;
  let error: { key: Key; params?: Record<string, string> } | null = null;
  const load = async () => {
    try {
      profile = (await fetchJson(`/api/players/${encodeURIComponent(id)}`)) as PlayerProfile;
      games = ((await fetchJson(`/api/games?player=${encodeURIComponent(id)}&per_page=20`)) as GameListPage).games ?? [];
    } catch (e: any) {
      error = e.status === 404 ? { key: 'players.unknown', params: { id } } : { key: 'players.error.player', params: { error: e.message } };
    }
    update();
  };
  const names = (g: GameListEntry) => t('home.vs', { a: g.players?.['1']?.name ?? '—', b: g.players?.['2']?.name ?? '—' });
  function update(): void {
    if (error || !profile) {
      el.replaceChildren(h('div.panel', error ? h('div.banner.err', { 'data-error': '' }, t(error.key, error.params)) : h('div.empty', t('home.loading')), h('p', link('/', t('game.home')))));
      return;
    }
    const p = profile;
    el.replaceChildren(h('div.lobby',
      h('div.col', h('section.panel', { 'data-profile': p.id },
        h('h2', p.name, ' ', h('span.tag', p.kind === 'account' ? t('players.kind.account') : p.kind === 'guest' ? t('players.kind.guest') : p.kind), p.bot ? h('span.tag', { 'data-bot': p.id }, t('game.bar.bot')) : null),
        h('div.status', tNodes('players.rating', { rating: h('b', { 'data-profile-rating': '' }, String(p.rating)) }), h('span.hint', ` ${t('players.ratingMore', { rd: 2 * p.rd, n: p.rated_games })}`)),
        h('div', { 'data-profile-record': '' }, t('players.record', { games: p.games, wins: p.wins, draws: p.draws, losses: p.losses })),
        (socialShown = !!app.client.player) && app.client.player!.id !== p.id ? socialBox(app, p.id) : null,
        h('p', link('/leaderboard', t('nav.leaderboard')), ' · ', link('/', t('game.end.home'))))),
      h('div.col', h('section.panel', h('h2', t('players.recent')),
        !games || games.length === 0 ? h('div.empty', t('home.recent.none')) :
          h('table.games', h('tbody', games.map((g) => h('tr', { 'data-player-game': g.game },
            h('td', names(g)), h('td.mono', g.result ?? g.status), h('td', g.rated ? '' : h('span.tag', t('game.info.casual'))),
            h('td', g.status === 'finished' ? link(`/replay/${g.game}`, t('game.end.replay'), { class: 'btn small' }) : link(`/game/${g.game}`, t('home.openGame'), { class: 'btn small' }))))))))));
  }
  // The follow and challenge box needs the player's identity, which may come after the profile.
  let socialShown = false;
  void load();
  update();
  const offLang = onLangChange(update);
  return { el, update: () => { if (!socialShown && profile && app.client.player) update(); }, dispose: offLang };
}
