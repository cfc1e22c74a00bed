// The tournaments list (/tournaments: running, upcoming, finished, and a form for accounts to
// create an arena) and a tournament's page (/tournament/<id>: countdown, join / pause / withdraw,
// the standings with streak flames and berserk marks, the podium at the end). The player's games
// open by themselves: main.ts follows every `matched`.
import { h, svg } from './dom.ts';
import { onLangChange, t } from './i18n.ts';
import type { StandingEntry, TournamentInfo } from './protocol.gen.ts';
import { countdownTarget, formatCountdown, groupTournaments, podium, sheetMarks, standingOf, type Phase } from './tournament.ts';
import { type App, clockLabel } from './ui.ts';

type Screen = { el: HTMLElement; update: () => void; dispose: () => void };

const ARENA_CLOCKS = ['1+1', '3+2', '5+3', '10+5'];

function link(path: string, text: string, attrs: Record<string, unknown> = {}): HTMLElement {
  return h('a', { href: path, 'data-link': '', ...attrs }, text);
}

function kindLine(ti: TournamentInfo): string {
  return [clockLabel(ti.clock), ti.preset === 'official' ? t('game.preset.official') : t('game.preset.standard'), ti.rated ? t('home.form.rated') : t('game.info.casual')].join(' · ');
}

/** "starts in 4:59", "ends in 12:00" or "finished", against the server's clock (`skew`). */
export function countdownText(ti: TournamentInfo, skew: number): string {
  const target = countdownTarget(ti);
  if (target === null) return t('tour.status.finished');
  const left = formatCountdown(target - (Date.now() + skew));
  return t(ti.status === 'created' ? 'tour.startsIn' : 'tour.endsIn', { time: left });
}

export function renderTournaments(app: App): Screen {
  const { client } = app;
  const el = h('main');
  const listBox = h('div');
  const errBox = h('div.err-slot');
  // The list's countdowns run against the local clock: `tournaments` carries no server time.
  const form = { name: '', clock: '3+2', startsIn: 5, minutes: 30 };
  const create = async (ev: Event) => {
    ev.preventDefault();
    errBox.replaceChildren();
    const [m, s] = form.clock.split('+').map(Number);
    try {
      const ack = await client.request({ type: 'tournament_create', name: form.name.trim() || t('tour.defaultName'), clock: { initial: m * 6000, increment: s * 100 },
        startsIn: form.startsIn * 60, minutes: form.minutes });
      app.navigate(`/tournament/${ack.tournament}`);
    } catch (e: any) {
      errBox.replaceChildren(h('div.banner.err', { 'data-error': '' }, t('tour.error', { error: e.message ?? e.code })));
    }
  };
  const num = (field: 'startsIn' | 'minutes', min: number, max: number) =>
    h('input', { type: 'number', min, max, value: form[field], 'data-field': field, on: { change: (e: Event) => (form[field] = Number((e.target as HTMLInputElement).value)) } });
  const createForm = () => client.player?.kind !== 'account' ? h('section.panel', h('h2', t('tour.create')), h('p.hint', t('tour.create.account')), link('/account', t('nav.account'))) :
    h('form.create.panel', { 'aria-label': t('tour.create'), on: { submit: create } }, h('h2', t('tour.create')),
      h('label.field', h('span', t('tour.form.name')), h('input', { type: 'text', maxlength: 60, value: form.name, placeholder: t('tour.defaultName'), 'data-field': 'name', on: { input: (e: Event) => (form.name = (e.target as HTMLInputElement).value) } })),
      h('label.field', h('span', t('home.form.clock')), h('select', { 'data-field': 'clock', on: { change: (e: Event) => (form.clock = (e.target as HTMLSelectElement).value) } },
        ARENA_CLOCKS.map((c) => h('option', { value: c, selected: c === form.clock }, c)))),
      h('label.field', h('span', t('tour.form.startsIn')), num('startsIn', 0, 10080)),
      h('label.field', h('span', t('tour.form.minutes')), num('minutes', 5, 360)),
      h('button.btn.primary', { type: 'submit', 'data-action': 'tournament-create' }, t('tour.create')), errBox);
  const formBox = h('div');
  let formFor: string | undefined = 'none';
  function update(): void {
    if (formFor !== client.player?.kind) { formFor = client.player?.kind; formBox.replaceChildren(createForm()); }
    const list = client.tournamentList;
    const groups = list ? groupTournaments(list) : null;
    const section = (phase: Phase, title: string) => h('section.panel', { 'data-tour-group': phase }, h('h2', title),
      !groups ? h('div.empty', t('home.loading')) : groups[phase].length === 0 ? h('div.empty', t('tour.none')) :
        h('table.games', h('tbody', groups[phase].map((ti) => h('tr', { 'data-tour': ti.id },
          h('td', link(`/tournament/${ti.id}`, ti.name)), h('td', kindLine(ti)),
          h('td.mono', t('tour.players', { n: ti.players })),
          h('td.mono', { 'data-countdown': ti.id }, countdownText(ti, 0)))))));
    listBox.replaceChildren(section('running', t('tour.running')), section('created', t('tour.upcoming')), section('finished', t('tour.finished')));
  }
  el.replaceChildren(h('div.lobby', h('div.col', h('section.panel', h('h1.page-title', t('nav.tournaments')), h('p.hint', t('tour.about'))), formBox), h('div.col', listBox)));
  client.listTournaments();
  const poll = setInterval(() => client.listTournaments(), 5000);
  // Only the countdowns change each second (a redraw would take the focus away).
  const tick = setInterval(() => {
    for (const ti of client.tournamentList ?? []) {
      const cell = listBox.querySelector(`[data-countdown="${ti.id}"]`);
      if (cell) cell.textContent = countdownText(ti, 0);
    }
  }, 1000);
  let wasAuthed = client.authenticated;
  const off = client.subscribe(() => { if (client.authenticated && !wasAuthed) client.listTournaments(); wasAuthed = client.authenticated; });
  update();
  const offLang = onLangChange(() => { formFor = 'none'; update(); });
  return { el, update, dispose: () => { off(); offLang(); clearInterval(poll); clearInterval(tick); } };
}

const FLAME = '<path d="M12 2c1 4 5 6 5 11a5 5 0 0 1-10 0c0-2 1-3.5 2-4.5 0 2 1 3 2 3 0-3-1-6 1-9.5z" fill="currentColor"/>';

function marks(e: StandingEntry): (HTMLElement | null)[] {
  return [
    e.fire ? h('span.fire', { 'data-fire': '', title: t('tour.fire') }, svg(FLAME), h('span.sr-only', t('tour.fire'))) : null,
    e.berserks > 0 ? h('span.berserk-mark', { 'data-berserks': e.berserks, title: t('tour.berserks', { n: e.berserks }) }, h('span', { 'aria-hidden': 'true' }, `⚔${e.berserks > 1 ? e.berserks : ''}`), h('span.sr-only', t('tour.berserks', { n: e.berserks }))) : null,
  ];
}

export function renderTournament(app: App, id: string): Screen {
  const { client } = app;
  const el = h('main');
  client.watchTournament(id);
  let error = '';
  let busy = false;
  const countdown = h('div.countdown.mono', { 'data-countdown': '', role: 'timer' });
  const act = async (type: 'tournament_join' | 'tournament_pause' | 'tournament_withdraw') => {
    if (busy) return;
    busy = true;
    error = '';
    try {
      await client.request({ type, tournament: id });
    } catch (e: any) {
      error = t('tour.error', { error: e.message ?? e.code });
    } finally {
      busy = false;
      update();
    }
  };
  function tick(): void {
    const s = client.tournaments.get(id);
    countdown.textContent = s ? countdownText(s.tournament, s.skew) : '';
  }
  function update(): void {
    const s = client.tournaments.get(id);
    if (!s) {
      el.replaceChildren(h('div.panel', error ? h('div.banner.err', error) : client.lastError?.code === 'unknown_tournament' ? h('div.banner.err', { 'data-error': '' }, t('tour.unknown', { id })) : h('div.empty', t('home.loading')), h('p', link('/tournaments', t('nav.tournaments')))));
      return;
    }
    const ti = s.tournament;
    const me = standingOf(s, client.player?.id);
    const over = ti.status === 'finished' || Date.now() + s.skew >= ti.endsAt;
    const buttons: HTMLElement[] = [];
    if (!over && (!me || me.state === 'paused'))
      buttons.push(h('button.btn.primary', { type: 'button', 'data-action': 'tournament-join', on: { click: () => void act('tournament_join') } }, t(me ? 'tour.resume' : 'tour.join')));
    if (!over && me?.state === 'active')
      buttons.push(h('button.btn', { type: 'button', 'data-action': 'tournament-pause', on: { click: () => void act('tournament_pause') } }, t('tour.pause')));
    if (!over && me && me.state !== 'withdrawn')
      buttons.push(h('button.btn.danger', { type: 'button', 'data-action': 'tournament-withdraw', on: { click: () => void act('tournament_withdraw') } }, t('tour.withdraw')));
    if (me?.game) buttons.push(link(`/game/${me.game}`, t('tour.yourGame'), { class: 'btn', 'data-action': 'tournament-game' }));
    const top = podium(s);
    tick();
    el.replaceChildren(h('div.lobby',
      h('div.col', h('section.panel', { 'data-tournament': id, 'data-status': ti.status },
        h('h1.page-title', ti.name),
        h('div.hint', t('tour.arena'), ' · ', kindLine(ti), ' · ', t('tour.players', { n: ti.players })),
        countdown,
        me ? h('div', { 'data-my-state': me.state }, ti.status === 'finished' ? t('tour.state.final', { rank: me.rank, points: me.points }) :
          t(`tour.state.${me.state === 'paused' ? 'paused' : me.state === 'withdrawn' ? 'withdrawn' : 'active'}`, { points: me.points })) : null,
        buttons.length ? h('div.row', buttons) : null,
        error ? h('div.banner.err', { 'data-error': '' }, error) : null,
        h('p.hint', t('tour.rules')),
        h('p', link('/tournaments', t('nav.tournaments')), ' · ', link('/', t('game.home')))),
        top.length ? h('section.panel.podium', { 'data-podium': '' }, h('h2', t('tour.podium')),
          h('ol.podium-list', top.map((e) => h('li', { 'data-podium-place': e.rank },
            h('span.podium-rank', `#${e.rank}`), h('span.podium-name', e.player.name), h('span.mono', t('tour.points', { n: e.points })))))) : null),
      h('div.col', h('section.panel', h('h2', t('tour.standings')),
        s.standings.length === 0 ? h('div.empty', t('tour.nobody')) :
          h('table.games.standings', h('thead', h('tr', h('th', '#'), h('th', t('players.col.player')), h('th', t('tour.col.sheet')), h('th', t('tour.col.points')), h('th', h('span.sr-only', t('tour.col.game'))))),
            h('tbody', s.standings.map((e) => h('tr', { 'data-standing': e.player.id, class: e.player.id === client.player?.id ? 'mine' : '' },
              h('td.mono', String(e.rank)),
              h('td', link(`/player/${e.player.id}`, e.player.name), typeof e.player.rating === 'number' ? h('span.rating', ` ${e.player.rating}`) : null, ...marks(e),
                e.state !== 'active' ? h('span.tag', { 'data-state': e.state }, t(e.state === 'withdrawn' ? 'tour.tag.withdrawn' : 'tour.tag.paused')) : null),
              h('td.mono.sheet', sheetMarks(e.sheet).map((m) => h(m.streak ? 'span.streak' : 'span', String(m.points)))),
              h('td.mono', { 'data-points': e.player.id }, h('b', String(e.points))),
              h('td', e.game ? link(`/game/${e.game}`, t('home.watch'), { class: 'btn small' }) : null)))))))));
  }
  const timer = setInterval(tick, 1000);
  update();
  const offLang = onLangChange(update);
  return {
    el, update,
    dispose: () => {
      offLang();
      clearInterval(timer);
      // A player still in it keeps following it: its pairings open their games from any page.
      const me = standingOf(client.tournaments.get(id), client.player?.id);
      if (!me || me.state === 'withdrawn') client.unwatchTournament(id);
    },
  };
}
