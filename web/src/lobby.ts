// Home / lobby: what the game is and the five ways in (the computer, a friend, quick pairing,
// a friend on this device, learning), then custom game options, the live list of open games,
// games being played, your recent games.
import { h, svg, ICON } from './dom.ts';
import { type Key, onLangChange, renderLangSwitch, t, tNodes } from './i18n.ts';
import type { CorrespondenceGame, GameListEntry, GameListPage, MyGamesMessage } from './protocol.gen.ts';
import type { ClockValue } from './client.ts';
import { featured } from './tournament.ts';
import { countdownText } from './tournamentpage.ts';
import { type App, clockLabel, fetchJson } from './ui.ts';

interface CreateForm {
  opponent: 'computer' | 'open' | 'invite';
  level: number;
  preset: 'standard' | 'official';
  side: 'random' | '1' | '2';
  clock: string; // "none", "initial+increment" in minutes+seconds, or "Nd" (days per move)
  rated: boolean; // against people only
}

export const CLOCKS = ['none', '1+1', '3+2', '5+3', '10+5', '30+0', '1d', '2d', '3d', '5d', '7d', '14d'];

/** A clock choice in words: "untimed", "3 min + 2 s", "30 min", "3 days per move". */
export function clockChoice(spec: string): string {
  if (spec === 'none') return t('clock.untimed');
  if (spec.endsWith('d')) return t('clock.days', { n: spec.slice(0, -1) });
  const [m, s] = spec.split('+');
  return s === '0' ? t('home.clock.min', { m }) : t('home.clock.minSec', { m, s });
}

/** What ended a game, or what state it is in, in words (unknown values as the server spells them). */
function reasonWords(reason: string): string {
  const k = `home.reason.${reason}`;
  return k in REASONS ? t(k as Key) : reason.replace(/_/g, ' ');
}
const REASONS = Object.fromEntries(['four_links', 'four_viruses', 'no_progress', 'resign', 'agreement', 'time', 'abandoned', 'aborted', 'open', 'setup', 'playing', 'finished'].map((r) => [`home.reason.${r}`, true]));

const form: CreateForm = { opponent: 'computer', level: 2, preset: 'standard', side: 'random', clock: 'none', rated: true };

function presetWord(p: string): string {
  return p === 'official' ? t('game.preset.official') : p === 'standard' ? t('game.preset.standard') : p;
}

/** A clock as requests carry it: a correspondence clock ("3d") is { days }. */
export function clockOf(spec: string): ClockValue {
  if (spec === 'none') return null;
  if (spec.endsWith('d')) return { days: Number(spec.slice(0, -1)) };
  const [m, s] = spec.split('+').map(Number);
  return { initial: Math.round(m * 6000), increment: Math.round(s * 100) };
}

function seg<T extends string | number>(name: string, value: T, options: [T, string][], set: (v: T) => void): HTMLElement {
  return h(
    'div.seg',
    { role: 'radiogroup' },
    options.map(([v, label]) =>
      h('label', h('input', { type: 'radio', name, value: String(v), checked: v === value, 'data-field': `${name}-${v}`, on: { change: () => set(v) } }), h('span', label)),
    ),
  );
}

export function renderLobby(app: App): { el: HTMLElement; update: () => void; dispose: () => void } {
  const { client } = app;
  client.followLobby(true);
  let error = '';
  let busy = false;

  const openBox = h('div');
  const playingBox = h('div');
  const recentBox = h('div');
  const archiveBox = h('div');
  const errBox = h('div.err-slot');
  const levelBox = h('div.field');
  const ratedBox = h('label.field', h('span', t('home.form.rated')),
    h('input', { type: 'checkbox', checked: form.rated, 'data-field': 'rated', on: { change: (e: Event) => (form.rated = (e.target as HTMLInputElement).checked) } }));
  const seekBox = h('section.panel', { 'data-quick': '' });

  const renderLevel = () => {
    levelBox.replaceChildren(
      h('span', t('home.form.level')),
      seg('level', form.level, [1, 2, 3, 4, 5].map((n) => [n, String(n)] as [number, string]), (v) => (form.level = v)),
    );
    levelBox.style.display = form.opponent === 'computer' ? '' : 'none';
    ratedBox.style.display = form.opponent === 'computer' ? 'none' : '';
  };
  renderLevel();

  const create = async (ev: Event | null, opponent: CreateForm['opponent'] = form.opponent) => {
    ev?.preventDefault();
    if (busy) return;
    busy = true;
    error = '';
    update();
    try {
      const correspondence = form.clock.endsWith('d') && opponent !== 'computer'; // days: people only
    const msg: Record<string, unknown> = { type: 'create', preset: form.preset, side: form.side, opponent, clock: correspondence || !form.clock.endsWith('d') ? clockOf(form.clock) : null };
      if (opponent === 'computer') msg.level = form.level;
      else msg.rated = form.rated;
      const ack = await client.request(msg);
      client.follow(ack.game!); // a create's ack names its game
      app.navigate(`/game/${ack.game}`);
    } catch (e: any) {
      error = t('home.error.create', { error: e.message ?? e.code ?? e });
    } finally {
      busy = false;
      update();
    }
  };

  const createForm = h(
    'form.create.panel',
    { on: { submit: create }, 'aria-label': t('home.custom.aria') },
    h('h2', t('home.custom')),
    h('div.field', h('span', t('home.form.opponent')), seg('opponent', form.opponent, [['computer', t('home.form.computer')], ['open', t('home.form.open')], ['invite', t('home.form.invite')]], (v) => { form.opponent = v; renderLevel(); })),
    levelBox,
    ratedBox,
    h('div.field', h('span', t('home.form.rules')), seg('preset', form.preset, [['standard', t('game.preset.standard')], ['official', t('game.preset.official')]], (v) => (form.preset = v))),
    h('div.field', h('span', t('home.form.side')), seg('side', form.side, [['random', t('home.form.random')], ['1', t('home.form.side1')], ['2', t('home.form.side2')]], (v) => (form.side = v))),
    h('label.field', h('span', t('home.form.clock')), h('select', { 'data-field': 'clock', on: { change: (e: Event) => (form.clock = (e.target as HTMLSelectElement).value) } },
      CLOCKS.map((v) => h('option', { value: v, selected: v === form.clock }, clockChoice(v))))),
    h('button.btn.primary', { type: 'submit', 'data-action': 'create' }, t('home.create')),
  );

  // The player's correspondence games (my_games): their moves first.
  let corrGames: CorrespondenceGame[] | null = null;
  const myGamesBox = h('section.panel', { 'data-my-games': '' });
  let playing: GameListEntry[] | null = null;
  let recent: GameListEntry[] | null = null;
  let archive: GameListEntry[] | null = null;
  const refresh = async () => {
    client.listTournaments();
    if (client.authenticated)
      try {
        corrGames = (await client.request<MyGamesMessage>({ type: 'my_games' })).games ?? [];
      } catch { corrGames = corrGames ?? []; }
    try {
      playing = ((await fetchJson('/api/games?status=playing&per_page=20')) as GameListPage).games ?? [];
    } catch { playing = playing ?? []; }
    try {
      archive = ((await fetchJson('/api/games?status=finished&per_page=10')) as GameListPage).games ?? [];
    } catch { archive = archive ?? []; }
    if (!client.player) recent = null;
    else {
      try {
        recent = ((await fetchJson(`/api/games?player=${encodeURIComponent(client.player.id)}&per_page=12`)) as GameListPage).games ?? [];
      } catch { recent = recent ?? []; }
    }
    update();
  };
  void refresh();
  const poll = setInterval(refresh, 5000);

  // What ended a game, once: "aborted" is both a status and a reason.
  const outcome = (g: GameListEntry) => (g.reason && g.reason !== g.status && g.reason !== g.result ? reasonWords(g.reason) : '');
  const names = (g: GameListEntry) => t('home.vs', { a: g.players?.['1']?.name ?? '—', b: g.players?.['2']?.name ?? '—' });

  let recentAsked = false;
  let recentOf = client.player?.id; // whose games `recent` lists (a login changes the player)
  function update(): void {
    if (!recentAsked && client.player && recent === null) { recentAsked = true; void refresh(); }
    if (client.player?.id !== recentOf) { recentOf = client.player?.id; recent = null; void refresh(); }
    errBox.replaceChildren(error ? h('div.banner.err', error) : '');
    updateFeatured();
    updateSeek();
    updateMyGames();
    const lobby = client.lobby;
    openBox.replaceChildren(
      !lobby ? h('div.empty', t('home.connecting')) : lobby.length === 0 ? h('div.empty', t('home.open.none')) :
        h('table.games', h('thead', h('tr', h('th', t('home.col.creator')), h('th', t('home.form.rules')), h('th', t('home.form.clock')), h('th', t('home.col.side')), h('th', ''))),
          h('tbody', lobby.map((g) => {
            const mine = g.creator?.id === client.player?.id;
            return h('tr', { 'data-open-game': g.game },
              h('td', g.creator?.name ?? '?', g.creator?.bot ? h('span.tag', { 'data-bot': '' }, t('game.bar.bot')) : null, g.creator?.rating ? h('span.rating', ` ${g.creator.rating}`) : null, g.rated ? null : h('span.tag', t('game.info.casual'))), h('td', presetWord(g.preset)), h('td.mono', clockLabel(g.clock)), h('td', g.side === 'random' ? t('home.form.random') : t('home.col.creatorPlays', { n: g.side })),
              h('td', mine ? h('a.btn.small', { href: `/game/${g.game}`, 'data-link': '' }, t('home.open.yours')) :
                h('button.btn.small.primary', { type: 'button', 'data-join': g.game, on: { click: () => join(g.game) } }, t('home.join'))));
          }))),
    );
    playingBox.replaceChildren(
      playing === null ? h('div.empty', t('home.loading')) : playing.length === 0 ? h('div.empty', t('home.playing.none')) :
        h('table.games', h('tbody', playing.map((g) => h('tr', h('td', names(g)), h('td', presetWord(g.preset)), h('td', h('a.btn.small', { href: `/game/${g.game}`, 'data-link': '', 'data-watch': g.game }, t('home.watch'))))))),
    );
    // Unfinished games the server remembers for this player, then the recent ones not already shown.
    const unfinished = client.myGames;
    const listed = new Set(unfinished.map((g) => g.game));
    const rest = (recent ?? []).filter((g) => !listed.has(g.game));
    recentBox.replaceChildren(
      unfinished.length ? h('div', h('div.hint', t('home.unfinished')), h('div.row', unfinished.map((g) => h('a.btn.small', { href: `/game/${g.game}`, 'data-link': '', 'data-unfinished': g.game }, t('home.unfinished.game', { game: g.game, status: reasonWords(g.status) }))))) : '',
      recent === null ? h('div.empty', t('home.loading')) : rest.length === 0 ? (unfinished.length ? '' : h('div.empty', t('home.recent.none'))) :
        h('table.games', h('tbody', rest.map((g) => h('tr', { 'data-recent': g.game },
          h('td', names(g)), h('td.mono', g.result ?? reasonWords(g.status)), h('td', outcome(g)),
          h('td', g.status === 'finished' ? h('a.btn.small', { href: `/replay/${g.game}`, 'data-link': '' }, t('game.end.replay')) : h('a.btn.small', { href: `/game/${g.game}`, 'data-link': '' }, t('home.openGame'))))))),
    );
    updateArchive();
  }

  // The featured tournament: the first running one, else the soonest upcoming one.
  let listAsked = false;
  function updateFeatured(): void {
    if (!listAsked && client.authenticated && client.tournamentList === null) { listAsked = true; client.listTournaments(); }
    const f = featured(client.tournamentList);
    featuredBox.replaceChildren(h('h2', t('tour.featured')),
      f ? h('div.row', { 'data-featured': f.id }, h('a', { href: `/tournament/${f.id}`, 'data-link': '' }, f.name), h('span.hint', clockLabel(f.clock)), h('span.hint', t('tour.players', { n: f.players })), h('span.mono', countdownText(f, 0)))
        : h('div.empty', t('tour.none')),
      h('p', h('a', { href: '/tournaments', 'data-link': '', 'data-action': 'tournaments' }, t('tour.all'))));
  }

  // Shown only to a player with correspondence games.
  function updateMyGames(): void {
    myGamesBox.hidden = !corrGames || corrGames.length === 0;
    myGamesBox.replaceChildren(h('h2', t('home.myGames')),
      h('table.games', h('tbody', (corrGames ?? []).map((g) => h('tr', { 'data-my-game': g.game, 'data-your-turn': g.yourTurn ? '1' : '0' },
        h('td', g.opponent.name), h('td', t('clock.days', { n: g.days })),
        h('td', g.yourTurn ? h('b', t('home.myGames.yours')) : t('home.myGames.theirs')),
        h('td.mono', t('home.myGames.due', { when: new Date(g.deadline).toLocaleString() })),
        h('td', h('a.btn.small', { href: `/game/${g.game}`, 'data-link': '' }, t('home.play'))))))));
  }

  function updateArchive(): void {
    archiveBox.replaceChildren(
      archive === null ? h('div.empty', t('home.loading')) : archive.length === 0 ? h('div.empty', t('home.archive.none')) :
        h('table.games', h('tbody', archive.map((g) => h('tr', { 'data-archive': g.game },
          h('td', names(g)), h('td.mono', g.result ?? '—'), h('td', outcome(g)),
          h('td', h('a.btn.small', { href: `/replay/${g.game}`, 'data-link': '', 'data-replay-link': g.game }, t('game.end.replay'))))))),
    );
  }

  type Kind = { preset: string; clock: ClockValue; rated: boolean };
  const seek = (kind: Kind) => {
    error = '';
    client.seek(kind).catch((e: any) => { error = t('home.error.seek', { error: e.message ?? e.code }); update(); });
  };
  const kindLabel = (k: Kind) => [presetWord(k.preset), clockLabel(k.clock), k.rated ? null : t('game.info.casual')].filter(Boolean).join(' · ');

  const seekMine = () => seek({ preset: form.preset, clock: clockOf(form.clock), rated: form.rated });
  function updateSeek(): void {
    const mine = client.seeking;
    const pools = client.lobbySeeks;
    quickCard.replaceChildren(...(mine
      ? [h('span.big-title', { 'data-seeking': '' }, t('home.seek.looking')), h('span.big-sub', kindLabel(mine)),
        client.player?.kind === 'account' ? '' : h('span.big-sub', { 'data-seek-computer': '' }, t('home.seek.computer')),
        h('button.btn', { type: 'button', 'data-action': 'unseek', on: { click: () => void client.unseek().catch(() => undefined) } }, t('game.cancel'))]
      : [h('button.big-btn', { type: 'button', 'data-action': 'seek', on: { click: seekMine } }, svg(ICON.bolt, 'icon big-icon'),
        h('span.big-title', t('home.quick')), h('span.big-sub', t('home.quick.sub', { kind: kindLabel({ preset: form.preset, clock: clockOf(form.clock), rated: form.rated }) })))]));
    seekBox.replaceChildren(
      h('h2', t('home.waiting')),
      pools.length === 0 ? h('div.hint', t('home.waiting.none')) :
        h('table.games', h('tbody', pools.map((k, i) => h('tr', { 'data-seek-pool': i },
          h('td', t('home.waiting.n', { n: k.players })), h('td', kindLabel(k)),
          h('td', mine ? null : h('button.btn.small', { type: 'button', 'data-seek-join': i, on: { click: () => seek({ preset: k.preset, clock: k.clock ?? null, rated: !!k.rated }) } }, t('home.play'))))))),
    );
  }

  const join = async (game: string) => {
    try {
      await client.request({ type: 'join', game });
      client.follow(game);
      app.navigate(`/game/${game}`);
    } catch (e: any) {
      error = t('home.error.join', { error: e.message ?? e.code });
      update();
    }
  };

  const quickCard = h('div.big-card');
  const featuredBox = h('section.panel', { 'data-featured-box': '' });
  const hero = h('section.hero', { 'aria-labelledby': 'hero-title' },
    h('div.hero-text',
      h('h1#hero-title', t('home.title')),
      h('p.lead', tNodes('home.lead', { links: h('b.l', t('home.lead.links')), viruses: h('b.v', t('home.lead.viruses')) })),
      h('p', h('a', { href: '/practice', 'data-link': '', 'data-action': 'practice' }, t('home.practice'))),
      renderLangSwitch()),
    h('div.big-actions',
      h('div.big-card', h('button.big-btn.primary', { type: 'button', 'data-action': 'play-computer', on: { click: () => void create(null, 'computer') } },
        svg(ICON.cpu, 'icon big-icon'), h('span.big-title', t('home.computer')), h('span.big-sub', t('home.computer.sub')))),
      h('div.big-card', h('button.big-btn', { type: 'button', 'data-action': 'play-friend', on: { click: () => void create(null, 'invite') } },
        svg(ICON.friend, 'icon big-icon'), h('span.big-title', t('home.friend')), h('span.big-sub', t('home.friend.sub')))),
      quickCard,
      h('div.big-card', h('a.big-btn', { href: '/local', 'data-link': '', 'data-action': 'play-local' },
        svg(ICON.friend, 'icon big-icon'), h('span.big-title', t('home.local')), h('span.big-sub', t('home.local.sub')))),
      h('div.big-card', h('a.big-btn.learn', { href: '/learn', 'data-link': '', 'data-action': 'learn' },
        svg(ICON.book, 'icon big-icon'), h('span.big-title', t('nav.learn')), h('span.big-sub', t('home.learn.sub'))))),
    errBox);
  update();
  const el = h('main.home', hero, h('div.lobby',
    h('div.col', createForm, seekBox),
    h('div.col',
      myGamesBox,
      featuredBox,
      h('section.panel', h('h2', t('home.open')), openBox),
      h('section.panel', h('h2', t('home.recent')), recentBox),
      h('section.panel', h('h2', t('home.playing')), playingBox),
      h('section.panel', h('h2', t('home.archive')), archiveBox),
    )));
  // Another language: the home page is drawn again (the form's choices are kept in `form`).
  const offLang = onLangChange(() => app.navigate(location.pathname));
  return { el, update, dispose: () => { offLang(); clearInterval(poll); client.followLobby(false); } };
}
