// The account box of the lobby: a guest registers (keeping its games and rating) or logs in to an
// account from this browser; an account sees its name and rating and can log out. The form is
// built once so that redraws keep what is being typed.
import { h } from './dom.ts';
import type { App } from './ui.ts';

export function renderAccountBox(app: App): { el: HTMLElement; update: () => void } {
  const { client } = app;
  let busy = false;
  let error = '';

  const username = h('input', { type: 'text', maxlength: 24, autocomplete: 'username', placeholder: 'username', 'aria-label': 'username', 'data-field': 'account-username' }) as HTMLInputElement;
  const password = h('input', { type: 'password', maxlength: 128, autocomplete: 'current-password', placeholder: 'password', 'aria-label': 'password', 'data-field': 'account-password' }) as HTMLInputElement;
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
      error = e.code === 'bad_credentials' ? 'Wrong username or password.' : e.code === 'username_taken' ? 'This username is taken.' : (e.message ?? e.code ?? String(e));
    } finally {
      busy = false;
      update();
    }
  };
  const guestForm = h('form', { on: { submit: (ev: Event) => { ev.preventDefault(); void submit('login'); } } },
    h('div.hint', 'Register to keep this identity, its games and rating on any browser; or log in to your account.'),
    h('label.field', h('span', 'username'), username),
    h('label.field', h('span', 'password'), password),
    h('div.row',
      h('button.btn.primary', { type: 'submit', 'data-action': 'login' }, 'Log in'),
      h('button.btn', { type: 'button', 'data-action': 'register', on: { click: () => void submit('register') } }, 'Register')));
  const profileLink = h('a.btn.small', { href: '/', 'data-link': '', 'data-profile-link': '' }, 'Profile');
  const accountRow = h('div.row',
    profileLink,
    h('button.btn.small', {
      type: 'button', 'data-action': 'logout',
      on: { click: async () => { try { await client.logout(); } catch (e: any) { error = e.message ?? e.code; update(); } } },
    }, 'Log out'));
  const el = h('section.panel.account', { 'data-account': 'guest' }, h('h2', 'Account'), who, guestForm, accountRow, errBox);

  function update(): void {
    const p = client.player;
    const account = p?.kind === 'account';
    el.dataset.account = !p ? 'none' : account ? 'account' : 'guest';
    who.replaceChildren(
      !p ? 'connecting…' : account ? 'Logged in as ' : 'Playing as guest ',
      p ? h('b', { 'data-me-name': '' }, p.name) : '',
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
