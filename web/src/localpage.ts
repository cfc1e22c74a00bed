// Pass and play: two people at one device, as at a real table. /local asks for the two
// names; /local/<game> plays the game. The server stays the rules authority and the keeper of
// hidden information: each seat is its own guest connection (a Client with its own stored token),
// so each receives only its own side's view, exactly as two browsers would. Between turns and
// before each setup a hand-over screen replaces the board: no game page (and so no card identity
// of either side) is in the document until the player due taps it. docs/architecture.md says why
// this design rather than rules in the browser or a server mode with one connection for both.
import { Client } from './client.ts';
import { h } from './dom.ts';
import { endText } from './endtext.ts';
import type { GameState, SideId } from './game.ts';
import { renderGamePage } from './gamepage.ts';
import { onLangChange, renderLangSwitch, t } from './i18n.ts';
import { dueSide, latest } from './localturn.ts';
import type { SocketLike } from './socket.ts';
import { playSounds, SoundCues } from './sound.ts';
import type { App } from './ui.ts';

type Screen = { el: HTMLElement; update: () => void; dispose: () => void };

/** localStorage seen through a key prefix: each seat keeps its own token and name. */
function prefixedStorage(prefix: string) {
  return {
    getItem: (k: string) => localStorage.getItem(prefix + k),
    setItem: (k: string, v: string) => localStorage.setItem(prefix + k, v),
  };
}

// The two seats' connections, made once per page load and kept while the app runs (a game page
// of a seat comes and goes with every hand-over; the connection and its subscription stay).
const seats = new Map<SideId, Client>();
function seatClient(side: SideId): Client {
  let c = seats.get(side);
  if (!c) {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    c = new Client({ url, create: (u) => new WebSocket(u) as unknown as SocketLike, storage: prefixedStorage(`rainet.local${side}.`), pingInterval: 10000 });
    seats.set(side, c);
    c.start();
    // For tests and debugging, as main.ts does for the page's own client.
    const w = window as unknown as { rainet?: { seats?: Record<string, Client> } };
    if (w.rainet) w.rainet.seats = Object.fromEntries(seats);
  }
  return c;
}

/** The page of a seat's game: the app as that seat's player sees it. */
function seatApp(app: App, side: SideId): App {
  return { client: seatClient(side), origin: app.origin, navigate: app.navigate, redraw: app.redraw };
}

/** /local: the two names, then a new untimed, unrated game between the two seats of this device. */
export function renderLocalStart(app: App): Screen {
  let error = '';
  let busy = false;
  const names = ([1, 2] as const).map((n) => {
    // The seat's name as its Client keeps it, read without connecting the seat yet.
    const saved = prefixedStorage(`rainet.local${n}.`).getItem('rainet.name') ?? '';
    return h('input', { type: 'text', maxlength: 24, value: saved, placeholder: t('local.player', { n }), 'data-field': `local-name-${n}`, autocomplete: 'off' }) as HTMLInputElement;
  });
  const errBox = h('div.err-slot');
  const start = async (ev: Event) => {
    ev.preventDefault();
    if (busy) return;
    busy = true;
    error = '';
    update();
    try {
      const [c1, c2] = [seatClient('1'), seatClient('2')];
      await Promise.all([c1, c2].map((c, i) => c.rename(names[i].value.trim() || t('local.player', { n: i + 1 }))));
      const ack = await c1.request({ type: 'create', preset: 'standard', side: '1', opponent: 'invite', rated: false, clock: null });
      await c2.request({ type: 'join', game: ack.game });
      app.navigate(`/local/${ack.game}`);
    } catch (e: any) {
      error = t('local.error.start', { error: e.message ?? e.code ?? e });
    } finally {
      busy = false;
      update();
    }
  };
  function update(): void {
    errBox.replaceChildren(error ? h('div.banner.err', error) : '');
  }
  const el = h('main.narrow.local-start',
    h('h1.page-title', t('local.title')),
    h('p', t('local.intro')),
    h('form.panel.stack-col', { on: { submit: start }, 'aria-label': t('local.title') },
      names.map((input, i) => h('label.field', h('span', t('local.player', { n: i + 1 })), input)),
      h('button.btn.primary', { type: 'submit', 'data-action': 'local-start' }, t('local.start'))),
    errBox, renderLangSwitch());
  const offLang = onLangChange(() => app.navigate(location.pathname));
  return { el, update, dispose: offLang };
}

/** /local/<game>: the hand-over screens and, between them, the game page of the side due. */
export function renderLocalGame(app: App, id: string): Screen {
  const apps = { '1': seatApp(app, '1'), '2': seatApp(app, '2') } as const;
  for (const a of Object.values(apps)) a.client.follow(id);
  const offs = Object.values(apps).map((a) => a.client.subscribe(() => app.redraw()));
  const el = h('div.localpage');
  // The seat whose board is on the screen (after its player tapped the hand-over), or null.
  let shown: SideId | 'end' | null = null;
  let page: Screen | null = null;
  const cues = new SoundCues();

  const closePage = () => {
    page?.dispose();
    page = null;
    shown = null;
  };
  const open = (side: SideId | 'end') => {
    closePage();
    shown = side;
    page = renderGamePage(apps[side === 'end' ? '1' : side], id, { local: true });
    update();
  };

  const names = (s: GameState): Record<SideId, string> => ({
    '1': s.players['1']?.name ?? t('local.player', { n: 1 }),
    '2': s.players['2']?.name ?? t('local.player', { n: 2 }),
  });

  function handover(s: GameState, side: SideId): HTMLElement {
    const name = names(s)[side];
    const setup = s.status === 'setup';
    return h('main.handover', { 'data-handover': side },
      h('div.handover-card',
        h('h1', t(setup ? 'local.handover.setup' : 'local.handover.turn', { name, n: side })),
        h('p', t('local.handover.hide', { other: names(s)[side === '1' ? '2' : '1'] })),
        h('button.btn.primary.handover-btn', { type: 'button', 'data-action': 'handover', on: { click: () => open(side) } }, t('local.handover.tap'))));
  }

  function results(s: GameState): HTMLElement {
    const n = names(s);
    const r = s.result;
    const last = s.history.length ? s.history[s.history.length - 1].action : null;
    const words = r ? endText({ result: r, names: n, you: 'spectator', lastAction: last, position: r.position }) : null;
    const outcome = (side: SideId) => !r || !r.result ? t('local.result.none') : !r.winner ? t('local.result.draw') : r.winner === side ? t('local.result.win') : t('local.result.loss');
    return h('section.panel.local-result', { 'data-local-result': '' },
      h('h2', words?.sentence ?? t('local.result.none')),
      h('ul', (['1', '2'] as SideId[]).map((side) => h('li', { 'data-result-side': side }, t('local.result.line', { name: n[side], n: side, outcome: outcome(side) })))),
      h('div.row', h('a.btn.primary', { href: '/local', 'data-link': '', 'data-action': 'local-again' }, t('local.again')),
        h('a.btn', { href: `/replay/${id}`, 'data-link': '' }, t('game.end.replay')),
        h('a.btn', { href: '/', 'data-link': '' }, t('game.home'))));
  }

  function update(): void {
    const [s1, s2] = [apps['1'].client.game(id), apps['2'].client.game(id)];
    // A game whose seats are not this device's two seats (a link to another game, or one whose
    // seats' tokens were cleared): nothing of it is shown here.
    if (s1 && s2 && (s1.you !== '1' || s2.you !== '2')) {
      closePage();
      el.replaceChildren(h('main.handover', { 'data-not-local': '' }, h('div.handover-card', h('p', t('local.notLocal')),
        h('div.row', h('a.btn', { href: `/game/${id}`, 'data-link': '' }, t('local.openGame')), h('a.btn.primary', { href: '/local', 'data-link': '' }, t('local.new'))))));
      return;
    }
    const s = latest(s1, s2);
    const due = s ? dueSide(s) : null;
    if (s) playSounds(cues.update(s, performance.now()));
    if (!s || due === null) {
      closePage();
      el.replaceChildren(h('main.handover', h('div.handover-card', h('p', t('game.loading')))));
      return;
    }
    // The device changes hands: the board goes before anything else is drawn.
    if (due !== shown && shown !== null) closePage();
    if (due === 'end' && shown !== 'end') return open('end');
    if (shown === null) {
      el.replaceChildren(handover(s, due as SideId));
      el.querySelector<HTMLElement>('[data-action="handover"]')?.focus();
      return;
    }
    page!.update();
    el.replaceChildren(...(shown === 'end' ? [results(s)] : []), page!.el);
  }

  update();
  const offLang = onLangChange(update);
  return {
    el,
    update,
    dispose: () => {
      offLang();
      closePage();
      for (const off of offs) off();
      for (const a of Object.values(apps)) a.client.unfollow(id);
    },
  };
}
