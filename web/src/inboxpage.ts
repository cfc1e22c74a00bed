// The inbox (/inbox): the player's notifications, newest first, unread ones marked, with "mark
// all read" and the switch for system notifications (shown while the tab is hidden). Also the
// one place that words a notification, for the page and for the system notification.
import { h } from './dom.ts';
import { type Key, onLangChange, t } from './i18n.ts';
import type { Notification } from './protocol.gen.ts';
import type { App } from './ui.ts';

type Screen = { el: HTMLElement; update: () => void; dispose: () => void };
type Data = Record<string, any>;

function nameIn(d: Data): string {
  for (const k of ['from', 'by', 'opponent', 'player']) if (d[k] && typeof d[k].name === 'string') return d[k].name;
  return '?';
}

/** One line saying what happened. */
export function notificationText(n: Notification): string {
  const d = n.data as Data;
  const key = `notify.${n.kind}` as Key;
  return t(key, { name: nameIn(d), reason: typeof d.reason === 'string' ? d.reason : '', result: typeof d.result === 'string' ? d.result : '', title: typeof d.name === 'string' ? d.name : '', rank: String(d.rank ?? '') });
}

/** Where the notification leads: its game, or the player it is about. */
export function notificationLink(n: Notification): string | null {
  const d = n.data as Data;
  if (typeof d.game === 'string') return `/game/${d.game}`;
  for (const k of ['from', 'by', 'player']) if (d[k] && typeof d[k].id === 'string') return `/player/${d[k].id}`;
  return null;
}

/** Accept or decline a challenge still waiting (a challenge notification's buttons). */
function challengeButtons(app: App, id: string): HTMLElement | null {
  if (!app.client.challengesIn.some((c) => c.id === id)) return null;
  return h('span.row', ' ',
    h('button', { type: 'button', 'data-action': 'inbox-accept', 'data-for': id, on: { click: () => app.client.acceptChallenge(id).catch(() => {}) } }, t('challenge.accept')),
    h('button', { type: 'button', 'data-action': 'inbox-decline', 'data-for': id, on: { click: () => app.client.declineChallenge(id, 'generic').catch(() => {}) } }, t('challenge.decline')));
}

export function renderInbox(app: App): Screen {
  const el = h('main');
  let error: string | null = null;
  let loaded = false;
  const load = () => {
    app.client.loadInbox().then(() => { loaded = true; error = null; update(); }, (e) => { error = e.message ?? String(e); update(); });
  };
  const permission = (): string => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);
  function update(): void {
    const items = app.client.inbox ?? [];
    const perm = permission();
    el.replaceChildren(h('section.panel', { 'data-inbox': '' },
      h('h2', t('inbox.title')),
      h('div.row',
        h('button', { type: 'button', 'data-action': 'mark-read', disabled: app.client.unread === 0, on: { click: () => app.client.markAllRead().catch((e) => { error = e.message; update(); }) } }, t('inbox.markRead')),
        perm === 'default' ? h('button', { type: 'button', 'data-action': 'allow-notify', on: { click: () => Notification.requestPermission().then(update) } }, t('inbox.allow'))
          : h('span.dim', { 'data-notify-permission': perm }, t(perm === 'granted' ? 'inbox.allowed' : perm === 'denied' ? 'inbox.denied' : 'inbox.unsupported'))),
      error ? h('div.banner.err', error) : null,
      !loaded && !app.client.inbox ? h('div.empty', t('home.loading')) : items.length === 0 ? h('div.empty', t('inbox.empty')) :
        h('ul.inbox', items.map((n) => {
          const href = notificationLink(n);
          const text = notificationText(n);
          return h(`li${n.read ? '' : '.unread'}`, { 'data-notification': String(n.id), 'data-kind': n.kind, 'data-read': n.read ? 'true' : 'false' },
            n.read ? null : h('span.tag', t('inbox.new')), ' ',
            href ? h('a', { href, 'data-link': '' }, text) : h('span', text), ' ',
            h('time.dim', { datetime: new Date(n.at).toISOString() }, new Date(n.at).toLocaleString()),
            n.kind === 'challenge' ? challengeButtons(app, String((n.data as Data).challenge ?? '')) : null);
        }))));
  }
  const offClient = app.client.subscribe(update);
  const offLang = onLangChange(update);
  update();
  load();
  document.title = `${t('inbox.title')} · rainet`;
  return { el, update, dispose: () => { offClient(); offLang(); } };
}
