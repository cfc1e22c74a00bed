// Home / lobby: what the game is and the four ways in (the computer, a friend, quick pairing,
// learning), then custom game options, the live list of open games, games being played, your
// recent games.
import { h, svg, ICON } from './dom.ts';
import { type App, clockLabel, fetchJson } from './ui.ts';

interface CreateForm {
  opponent: 'computer' | 'open' | 'invite';
  level: number;
  preset: 'standard' | 'official';
  side: 'random' | '1' | '2';
  clock: string; // "none" or "initial+increment" in minutes+seconds
  rated: boolean; // against people only
}

const CLOCKS: [string, string][] = [
  ['none', 'untimed'],
  ['1+1', '1 min + 1 s'],
  ['3+2', '3 min + 2 s'],
  ['5+3', '5 min + 3 s'],
  ['10+5', '10 min + 5 s'],
  ['30+0', '30 min'],
];

const form: CreateForm = { opponent: 'computer', level: 2, preset: 'standard', side: 'random', clock: 'none', rated: true };

export function clockOf(spec: string): { initial: number; increment: number } | null {
  if (spec === 'none') return null;
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
  const ratedBox = h('label.field', h('span', 'rated'),
    h('input', { type: 'checkbox', checked: form.rated, 'data-field': 'rated', on: { change: (e: Event) => (form.rated = (e.target as HTMLInputElement).checked) } }));
  const seekBox = h('section.panel', { 'data-quick': '' });

  const renderLevel = () => {
    levelBox.replaceChildren(
      h('span', 'computer level'),
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
      const msg: Record<string, unknown> = { type: 'create', preset: form.preset, side: form.side, opponent, clock: clockOf(form.clock) };
      if (opponent === 'computer') msg.level = form.level;
      else msg.rated = form.rated;
      const ack = await client.request(msg);
      client.follow(ack.game);
      app.navigate(`/game/${ack.game}`);
    } catch (e: any) {
      error = `Could not create the game: ${e.message ?? e.code ?? e}`;
    } finally {
      busy = false;
      update();
    }
  };

  const createForm = h(
    'form.create.panel',
    { on: { submit: create }, 'aria-label': 'custom game' },
    h('h2', 'Custom game'),
    h('div.field', h('span', 'opponent'), seg('opponent', form.opponent, [['computer', 'computer'], ['open', 'open game'], ['invite', 'invite link']], (v) => { form.opponent = v; renderLevel(); })),
    levelBox,
    ratedBox,
    h('div.field', h('span', 'rules'), seg('preset', form.preset, [['standard', 'standard'], ['official', 'official']], (v) => (form.preset = v))),
    h('div.field', h('span', 'your side'), seg('side', form.side, [['random', 'random'], ['1', 'side 1 (first)'], ['2', 'side 2']], (v) => (form.side = v))),
    h('label.field', h('span', 'clock'), h('select', { 'data-field': 'clock', on: { change: (e: Event) => (form.clock = (e.target as HTMLSelectElement).value) } },
      CLOCKS.map(([v, l]) => h('option', { value: v, selected: v === form.clock }, l)))),
    h('button.btn.primary', { type: 'submit', 'data-action': 'create' }, 'Create game'),
  );

  let playing: any[] | null = null;
  let recent: any[] | null = null;
  let archive: any[] | null = null;
  const refresh = async () => {
    try {
      playing = (await fetchJson('/api/games?status=playing&per_page=20')).games ?? [];
    } catch { playing = playing ?? []; }
    try {
      archive = (await fetchJson('/api/games?status=finished&per_page=10')).games ?? [];
    } catch { archive = archive ?? []; }
    if (!client.player) recent = null;
    else {
      try {
        recent = (await fetchJson(`/api/games?player=${encodeURIComponent(client.player.id)}&per_page=12`)).games ?? [];
      } catch { recent = recent ?? []; }
    }
    update();
  };
  void refresh();
  const poll = setInterval(refresh, 5000);

  // What ended a game, once: "aborted" is both a status and a reason.
  const outcome = (g: any) => (g.reason && g.reason !== g.status && g.reason !== g.result ? g.reason.replace(/_/g, ' ') : '');
  const names = (g: any) => `${g.players?.['1']?.name ?? '—'} vs ${g.players?.['2']?.name ?? '—'}`;

  let recentAsked = false;
  let recentOf = client.player?.id; // whose games `recent` lists (a login changes the player)
  function update(): void {
    if (!recentAsked && client.player && recent === null) { recentAsked = true; void refresh(); }
    if (client.player?.id !== recentOf) { recentOf = client.player?.id; recent = null; void refresh(); }
    errBox.replaceChildren(error ? h('div.banner.err', error) : '');
    updateSeek();
    const lobby = client.lobby;
    openBox.replaceChildren(
      !lobby ? h('div.empty', 'connecting…') : lobby.length === 0 ? h('div.empty', 'No open games. Create one!') :
        h('table.games', h('thead', h('tr', h('th', 'creator'), h('th', 'rules'), h('th', 'clock'), h('th', 'side'), h('th', ''))),
          h('tbody', lobby.map((g) => {
            const mine = g.creator?.id === client.player?.id;
            return h('tr', { 'data-open-game': g.game },
              h('td', g.creator?.name ?? '?', g.creator?.rating ? h('span.rating', ` ${g.creator.rating}`) : null, g.rated ? null : h('span.tag', 'casual')), h('td', g.preset), h('td.mono', clockLabel(g.clock)), h('td', g.side === 'random' ? 'random' : `creator plays ${g.side}`),
              h('td', mine ? h('a.btn.small', { href: `/game/${g.game}`, 'data-link': '' }, 'yours') :
                h('button.btn.small.primary', { type: 'button', 'data-join': g.game, on: { click: () => join(g.game) } }, 'Join')));
          }))),
    );
    playingBox.replaceChildren(
      playing === null ? h('div.empty', 'loading…') : playing.length === 0 ? h('div.empty', 'No game is being played right now.') :
        h('table.games', h('tbody', playing.map((g) => h('tr', h('td', names(g)), h('td', g.preset), h('td', h('a.btn.small', { href: `/game/${g.game}`, 'data-link': '', 'data-watch': g.game }, 'Watch')))))),
    );
    // Unfinished games the server remembers for this player, then the recent ones not already shown.
    const unfinished = client.myGames;
    const listed = new Set(unfinished.map((g) => g.game));
    const rest = (recent ?? []).filter((g) => !listed.has(g.game));
    recentBox.replaceChildren(
      unfinished.length ? h('div', h('div.hint', 'Unfinished:'), h('div.row', unfinished.map((g) => h('a.btn.small', { href: `/game/${g.game}`, 'data-link': '', 'data-unfinished': g.game }, `${g.game} (${g.status})`)))) : '',
      recent === null ? h('div.empty', 'loading…') : rest.length === 0 ? (unfinished.length ? '' : h('div.empty', 'No games yet.')) :
        h('table.games', h('tbody', rest.map((g) => h('tr', { 'data-recent': g.game },
          h('td', names(g)), h('td.mono', g.result ?? g.status), h('td', outcome(g)),
          h('td', g.status === 'finished' ? h('a.btn.small', { href: `/replay/${g.game}`, 'data-link': '' }, 'Replay') : h('a.btn.small', { href: `/game/${g.game}`, 'data-link': '' }, 'Open')))))),
    );
    updateArchive();
  }

  function updateArchive(): void {
    archiveBox.replaceChildren(
      archive === null ? h('div.empty', 'loading…') : archive.length === 0 ? h('div.empty', 'No finished game yet.') :
        h('table.games', h('tbody', archive.map((g) => h('tr', { 'data-archive': g.game },
          h('td', names(g)), h('td.mono', g.result ?? '—'), h('td', outcome(g)),
          h('td', h('a.btn.small', { href: `/replay/${g.game}`, 'data-link': '', 'data-replay-link': g.game }, 'Replay')))))),
    );
  }

  type Kind = { preset: string; clock: { initial: number; increment: number } | null; rated: boolean };
  const seek = (kind: Kind) => {
    error = '';
    client.seek(kind).catch((e: any) => { error = `Could not seek: ${e.message ?? e.code}`; update(); });
  };
  const kindLabel = (k: Kind) => `${k.preset} · ${clockLabel(k.clock)}${k.rated ? '' : ' · casual'}`;

  const seekMine = () => seek({ preset: form.preset, clock: clockOf(form.clock), rated: form.rated });
  function updateSeek(): void {
    const mine = client.seeking;
    const pools = client.lobbySeeks;
    quickCard.replaceChildren(...(mine
      ? [h('span.big-title', { 'data-seeking': '' }, 'Looking for an opponent…'), h('span.big-sub', kindLabel(mine)),
        h('button.btn', { type: 'button', 'data-action': 'unseek', on: { click: () => void client.unseek().catch(() => undefined) } }, 'Cancel')]
      : [h('button.big-btn', { type: 'button', 'data-action': 'seek', on: { click: seekMine } }, svg(ICON.bolt, 'icon big-icon'),
        h('span.big-title', 'Quick pairing'), h('span.big-sub', `Meet the next player who wants ${kindLabel({ preset: form.preset, clock: clockOf(form.clock), rated: form.rated })}`))]));
    seekBox.replaceChildren(
      h('h2', 'Players waiting'),
      pools.length === 0 ? h('div.hint', 'Nobody is waiting right now.') :
        h('table.games', h('tbody', pools.map((k: any, i: number) => h('tr', { 'data-seek-pool': i },
          h('td', `${k.players} waiting`), h('td', kindLabel(k)),
          h('td', mine ? null : h('button.btn.small', { type: 'button', 'data-seek-join': i, on: { click: () => seek({ preset: k.preset, clock: k.clock ?? null, rated: !!k.rated }) } }, 'Play')))))),
    );
  }

  const join = async (game: string) => {
    try {
      await client.request({ type: 'join', game });
      client.follow(game);
      app.navigate(`/game/${game}`);
    } catch (e: any) {
      error = `Could not join: ${e.message ?? e.code}`;
      update();
    }
  };

  const quickCard = h('div.big-card');
  const hero = h('section.hero', { 'aria-labelledby': 'hero-title' },
    h('div.hero-text',
      h('h1#hero-title', 'Rai-Net Access Battlers'),
      h('p.lead', 'A two-player game of bluff and deduction. Each side has eight cards, four ', h('b.l', 'links'), ' and four ', h('b.v', 'viruses'),
        ', that look alike to the opponent. Collect four links (take them, or run your own into the opponent\'s server) and you win; take four viruses and you lose.')),
    h('div.big-actions',
      h('div.big-card', h('button.big-btn.primary', { type: 'button', 'data-action': 'play-computer', on: { click: () => void create(null, 'computer') } },
        svg(ICON.cpu, 'icon big-icon'), h('span.big-title', 'Play the computer'), h('span.big-sub', 'Starts at once; pick its level below'))),
      h('div.big-card', h('button.big-btn', { type: 'button', 'data-action': 'play-friend', on: { click: () => void create(null, 'invite') } },
        svg(ICON.friend, 'icon big-icon'), h('span.big-title', 'Play a friend'), h('span.big-sub', 'Get an invite link to send'))),
      quickCard,
      h('div.big-card', h('a.big-btn.learn', { href: '/learn', 'data-link': '', 'data-action': 'learn' },
        svg(ICON.book, 'icon big-icon'), h('span.big-title', 'Learn to play'), h('span.big-sub', 'The rules and a short tutorial on a real board')))),
    errBox);
  update();
  const el = h('main.home', hero, h('div.lobby',
    h('div.col', createForm, seekBox),
    h('div.col',
      h('section.panel', h('h2', 'Open games'), openBox),
      h('section.panel', h('h2', 'Your games'), recentBox),
      h('section.panel', h('h2', 'Being played'), playingBox),
      h('section.panel', h('h2', 'Recently finished'), archiveBox),
    )));
  return { el, update, dispose: () => { clearInterval(poll); client.followLobby(false); } };
}
