// Entry point: the connection, the router (/, /game/<id>, /replay/<id>, /leaderboard,
// /player/<id>, /account, /inbox, /local[/<id>], /rules, /learn[/<lesson>], /tournaments,
// /tournament/<id>) and the header.
import { renderAccountPage } from './accountpage.ts';
import { Client } from './client.ts';
import { h, svg, ICON } from './dom.ts';
import { renderGamePage } from './gamepage.ts';
import { renderInbox, notificationText } from './inboxpage.ts';
import { type Key, lang, onLangChange, t } from './i18n.ts';
import { DECLINE_REASONS } from './ui.ts';
import { renderLocalGame, renderLocalStart } from './localpage.ts';
import { offlineNote } from './offlinenote.ts';
import { renderPractice } from './practicepage.ts';
import { renderLobby } from './lobby.ts';
import { renderLeaderboard, renderPlayerPage } from './playerspages.ts';
import { renderReplayPage } from './replaypage.ts';
import { renderRulesPage } from './rulespage.ts';
import type { SocketLike } from './socket.ts';
import { armSound, isSoundOn, onSoundChange, setSound } from './sound.ts';
import { renderTournament, renderTournaments } from './tournamentpage.ts';
import { renderTutorial } from './tutorial.ts';
import type { App } from './ui.ts';

const root = document.getElementById('app')!;
document.documentElement.lang = lang();
const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const client = new Client({
  url: wsUrl,
  create: (u) => new WebSocket(u) as unknown as SocketLike,
  storage: window.localStorage,
  pingInterval: 10000,
});

let screen: { el: HTMLElement; update: () => void; dispose: () => void } | null = null;
let frame = 0;
const connBox = h('span.conn', { 'data-conn': '' });
const meBox = h('span.me');
const inboxBox = h('a.nav.inbox-link', { href: '/inbox', 'data-link': '', 'data-nav': 'inbox' });
const challengeBox = h('div.challenges', { 'aria-live': 'polite' });
let challengesShown = '';
// What still works while the server cannot be reached (offlinenote.ts).
const offline = offlineNote(client);

const app: App = {
  client,
  origin: location.origin,
  navigate(path: string) {
    if (path !== location.pathname) history.pushState(null, '', path);
    route();
  },
  redraw() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      screen?.update();
      header();
    });
  },
};

function header(): void {
  const s = client.state;
  const label = t(s === 'open' ? (client.authenticated ? 'conn.online' : 'conn.connecting') : s === 'reconnecting' ? 'conn.reconnecting' : s === 'connecting' ? 'conn.connecting' : 'conn.offline');
  connBox.textContent = label;
  connBox.className = `conn ${s === 'open' && !client.authenticated ? 'connecting' : s}`;
  connBox.dataset.conn = s === 'open' && client.authenticated ? 'online' : s;
  const unread = client.unread;
  inboxBox.setAttribute('aria-label', t('nav.inbox', { n: unread }));
  inboxBox.title = t('nav.inbox', { n: unread });
  inboxBox.replaceChildren(svg(ICON.bell), unread ? h('span.badge', { 'data-unread': String(unread) }, unread > 99 ? '99+' : String(unread)) : '');
  drawChallenges();
  offline.update(location.pathname);
  const me = client.player;
  meBox.replaceChildren(me ? h('a', { href: `/player/${me.id}`, 'data-link': '', 'data-me': me.kind ?? 'guest' }, me.name, typeof me.rating === 'number' ? h('span.rating', ` ${me.rating}`) : '') : '');
}

/** The challenges received and waiting: each with accept, and decline with a reason. */
function drawChallenges(): void {
  const key = client.challengesIn.map((c) => c.id).join(',') + lang();
  if (key === challengesShown) return; // a redraw must not reset a reason being chosen
  challengesShown = key;
  challengeBox.replaceChildren(...client.challengesIn.map((c) => {
    const reason = h('select', { 'data-decline-reason': c.id, 'aria-label': t('challenge.reason') },
      DECLINE_REASONS.map((r) => h('option', { value: r }, t(`challenge.reason.${r}` as Key))));
    const clock = c.clock ? `${c.clock.initial / 6000}+${c.clock.increment / 100}` : t('challenge.untimed');
    return h('div.banner.challenge', { 'data-challenge': c.id },
      t('challenge.from', { name: c.from.name, preset: t(c.preset === 'official' ? 'challenge.official' : 'challenge.standard'), clock, rated: t(c.rated ? 'challenge.rated' : 'challenge.casual') }), ' ',
      h('button', { type: 'button', 'data-action': 'challenge-accept', on: { click: () => client.acceptChallenge(c.id).catch(() => {}) } }, t('challenge.accept')), ' ',
      reason, ' ',
      h('button', { type: 'button', 'data-action': 'challenge-decline', on: { click: () => client.declineChallenge(c.id, (reason as HTMLSelectElement).value).catch(() => {}) } }, t('challenge.decline')));
  }));
}

function route(): void {
  screen?.dispose();
  const path = location.pathname;
  let m: RegExpMatchArray | null;
  if ((m = path.match(/^\/game\/([A-Za-z0-9]+)\/?$/))) screen = renderGamePage(app, m[1]);
  else if ((m = path.match(/^\/replay\/([A-Za-z0-9]+)\/?$/))) screen = renderReplayPage(app, m[1]);
  else if ((m = path.match(/^\/player\/([A-Za-z0-9]+)\/?$/))) screen = renderPlayerPage(app, m[1]);
  else if ((m = path.match(/^\/local\/([A-Za-z0-9]+)\/?$/))) screen = renderLocalGame(app, m[1]);
  else if (/^\/local\/?$/.test(path)) screen = renderLocalStart(app);
  else if (/^\/practice\/?$/.test(path)) screen = renderPractice(app);
  else if (/^\/leaderboard\/?$/.test(path)) screen = renderLeaderboard(app);
  else if (/^\/tournaments\/?$/.test(path)) screen = renderTournaments(app);
  else if ((m = path.match(/^\/tournament\/([A-Za-z0-9]+)\/?$/))) screen = renderTournament(app, m[1]);
  else if (/^\/account\/?$/.test(path)) screen = renderAccountPage(app);
  else if (/^\/inbox\/?$/.test(path)) screen = renderInbox(app);
  else if (/^\/rules\/?$/.test(path)) screen = renderRulesPage();
  else if ((m = path.match(/^\/learn(?:\/([a-z]+))?\/?$/))) screen = renderTutorial(app, m[1]);
  else screen = renderLobby(app);
  root.replaceChildren(topBar(path), offline.el, challengeBox, screen.el);
  header();
  window.scrollTo(0, 0);
}

/** The header: the logo, the site's links, the player, the sound switch, the account link, the connection. */
function topBar(path: string): HTMLElement {
  const nav = (href: string, key: string, text: string) => h('a.nav', { href, 'data-link': '', 'data-nav': key, 'aria-current': path.startsWith(href) ? 'page' : false }, text);
  return h('header.top', h('a.logo', { href: '/', 'data-link': '' }, 'RAINET', h('small', 'access battlers')), h('span.grow'),
    h('nav.links', { 'aria-label': t('nav.site') }, nav('/learn', 'learn', t('nav.learnShort')), nav('/rules', 'rules', t('nav.rules')), nav('/tournaments', 'tournaments', t('nav.tournaments')), nav('/leaderboard', 'leaderboard', t('nav.leaderboard'))),
    meBox, inboxBox, soundSwitch(), h('a.nav.account-link', { href: '/account', 'data-link': '', 'data-nav': 'account', 'aria-label': t('nav.account'), title: t('nav.account') }, svg(ICON.gear)), connBox);
}

/** The sound switch: a toggle button (remembered in localStorage by sound.ts). */
function soundSwitch(): HTMLElement {
  const on = isSoundOn();
  return h('button.nav.sound-switch', { type: 'button', 'data-action': 'sound', 'aria-pressed': on ? 'true' : 'false', 'aria-label': t('sound.label'), title: t(on ? 'sound.on' : 'sound.off'),
    on: { click: () => setSound(!isSoundOn()) } }, svg(on ? ICON.sound : ICON.mute));
}
armSound();
onSoundChange(() => {
  const focused = document.activeElement?.matches('[data-action="sound"]');
  root.querySelector('[data-action="sound"]')?.replaceWith(soundSwitch());
  if (focused) root.querySelector<HTMLElement>('[data-action="sound"]')?.focus();
});

// Another language: the header is drawn again (each screen redraws itself).
onLangChange(() => {
  challengesShown = '';
  root.querySelector('header.top')?.replaceWith(topBar(location.pathname));
  header();
});

// Links marked data-link navigate inside the app.
document.addEventListener('click', (ev) => {
  const a = (ev.target as HTMLElement).closest?.('a[data-link]') as HTMLAnchorElement | null;
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  app.navigate(new URL(a.href).pathname);
});
window.addEventListener('popstate', route);
// A quick-pairing seek or a tournament paired this player: go to the game, whatever page is shown.
let lastMatched: string | null = null;
client.subscribe(() => {
  if (client.matched && client.matched !== lastMatched) {
    lastMatched = client.matched;
    client.follow(client.matched);
    app.navigate(`/game/${client.matched}`);
  }
  app.redraw();
});
// A notification while the tab is hidden: a system notification too, if the player allowed them
// (the inbox page asks); no outside push service.
client.onNotification((n) => {
  if (!document.hidden || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const sys = new Notification('rainet', { body: notificationText(n), tag: `rainet-${n.id}` });
  sys.onclick = () => { window.focus(); app.navigate('/inbox'); sys.close(); };
});
// For tests and debugging: the client is reachable from the console (set before the first page,
// which may add the seats of a pass-and-play game to it).
(window as unknown as { rainet: unknown }).rainet = { client };
client.start();
route();
// The note waits a few seconds of lost connection: looked at again each second and on the
// browser's own online/offline events.
setInterval(() => offline.update(location.pathname), 1000);
for (const ev of ['online', 'offline']) window.addEventListener(ev, () => offline.update(location.pathname));
// The service worker (sw.ts) that keeps the client and the engine for offline visits: registered
// once the first page is drawn, so the home page never waits for what it fetches.
if ('serviceWorker' in navigator) window.addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch(() => {}));
