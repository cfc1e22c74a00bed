// The note shown under the header while the server cannot be reached: what still works on this
// device (the computer and pass and play in /practice, the rules, the lessons) and what waits for
// the connection, in plain words. Shown once the connection has been down a few seconds (a short
// reconnect shows nothing) or at once when the browser knows it is offline; never on /practice,
// which works without the server.
import type { Client } from './client.ts';
import { h } from './dom.ts';
import { t } from './i18n.ts';

/** How long the server must stay unreachable before the note appears. */
export const OFFLINE_AFTER_MS = 3000;

export function offlineNote(client: Pick<Client, 'state'>, now: () => number = Date.now): { el: HTMLElement; update: (path: string) => void } {
  const el = h('div.offline-note', { 'data-offline': '', role: 'status', 'aria-live': 'polite' });
  let downSince: number | null = null;
  let shownFor = '';
  return {
    el,
    update(path: string) {
      const down = client.state !== 'open';
      downSince = down ? (downSince ?? now()) : null;
      const show = down && !/^\/practice\/?$/.test(path)
        && ((typeof navigator !== 'undefined' && navigator.onLine === false) || now() - downSince! >= OFFLINE_AFTER_MS);
      const key = show ? t('offline.title') : '';
      if (key === shownFor) return; // unchanged: no redraw for the screen reader to announce again
      shownFor = key;
      el.dataset.offline = show ? 'shown' : '';
      el.replaceChildren(...(show ? [h('div.banner',
        h('strong', t('offline.title')), ' ', t('offline.works'), ' ', t('offline.needs'), ' ',
        h('a.btn.small', { href: '/practice', 'data-link': '', 'data-action': 'offline-practice' }, t('offline.practice')))] : []));
    },
  };
}
