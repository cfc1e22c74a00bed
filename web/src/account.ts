// The account box of the lobby: a guest registers (keeping its games and rating) or logs in to an
// account from this browser; an account sees its name and rating and can log out. The form is
// built once so that redraws keep what is being typed.
import { h } from './dom.ts';
import { t, tNodes } from './i18n.ts';
import type { App } from './ui.ts';

export function renderAccountBox(app: App): { el: HTMLElement; update: () => void } {
  const { client } = app;
  let busy = false;
  let error = '';

  const username = h('input', { type: 'text', maxlength: 24, autocomplete: 'username', placeholder: t('account.username'), 'aria-label': t('account.username'), 'data-field': 'account-username' }) as HTMLInputElement;
  const password = h('input', { type: 'password', maxlength: 128, autocomplete: 'current-password', placeholder: t('account.password'), 'aria-label': t('account.password'), 'data-field': 'account-password' }) as HTMLInputElement;
  const errBox = h('div');
  const who = h('div.status');
  const submit = async (kind: 'register' | 'login') => {
    if (busy) return;
    busy = true;
    error = '';
    update();
    try {
      if (kind === 'register') await client.register(username.value.trim(), password.value);
      else await client.login(username.value.trim(), password.value);
      password.value = '';
    } catch (e: any) {
      error = e.code === 'bad_credentials' ? t('account.error.credentials') : e.code === 'username_taken' ? t('account.error.taken') : (e.message ?? e.code ?? String(e));
    } finally {
      busy = false;
      update();
    }
  };
  const guestForm = h('form', { on: { submit: (ev: Event) => { ev.preventDefault(); void submit('login'); } } },
    h('div.hint', t('account.intro')),
    h('label.field', h('span', t('account.username')), username),
    h('label.field', h('span', t('account.password')), password),
    h('div.row',
      h('button.btn.primary', { type: 'submit', 'data-action': 'login' }, t('account.login')),
      h('button.btn', { type: 'button', 'data-action': 'register', on: { click: () => void submit('register') } }, t('account.register'))));
  const profileLink = h('a.btn.small', { href: '/', 'data-link': '', 'data-profile-link': '' }, t('account.profile'));
  const accountRow = h('div.row',
    profileLink,
    h('button.btn.small', {
      type: 'button', 'data-action': 'logout',
      on: { click: async () => { try { await client.logout(); } catch (e: any) { error = e.message ?? e.code; update(); } } },
    }, t('account.logout')));
  const el = h('section.panel.account', { 'data-account': 'guest' }, h('h2', t('account.account')), who, guestForm, accountRow, errBox);

  function update(): void {
    const p = client.player;
    const account = p?.kind === 'account';
    el.dataset.account = !p ? 'none' : account ? 'account' : 'guest';
    who.replaceChildren(
      ...(!p ? [t('conn.connecting')] : tNodes(account ? 'account.loggedIn' : 'account.asGuest', { name: h('b', { 'data-me-name': '' }, p.name) })),
      p ? h('span.rating', { 'data-me-rating': '' }, ` ${p.rating ?? 1500}`) : '',
    );
    guestForm.style.display = account ? 'none' : '';
    accountRow.style.display = account ? '' : 'none';
    if (p) profileLink.setAttribute('href', `/player/${p.id}`);
    for (const b of el.querySelectorAll('button')) (b as HTMLButtonElement).disabled = busy;
    errBox.replaceChildren(error ? h('div.banner.err', { 'data-account-error': '' }, error) : '');
  }
  update();
  return { el, update };
}
