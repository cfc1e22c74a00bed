// The account and settings page (/account, linked from the header): the display name of a guest,
// and the account box (register, log in, log out).
import { renderAccountBox } from './account.ts';
import { h } from './dom.ts';
import type { App } from './ui.ts';

export function renderAccountPage(app: App): { el: HTMLElement; update: () => void; dispose: () => void } {
  const { client } = app;
  const account = renderAccountBox(app);
  const errBox = h('div');
  let error = '';
  const nameInput = h('input', {
    type: 'text', maxlength: 24, placeholder: 'guest', value: client.name, autocomplete: 'nickname', 'data-field': 'name',
    on: {
      change: (e: Event) => {
        client.rename((e.target as HTMLInputElement).value.trim()).catch((err) => {
          error = `Could not change the name: ${err.message ?? err.code ?? err}`;
          update();
        });
      },
      keydown: (e: KeyboardEvent) => {
        if (e.key !== 'Enter') return;
        e.preventDefault();
        (e.target as HTMLInputElement).blur();
      },
    },
  }) as HTMLInputElement;
  const nameHint = h('div.hint');
  const settings = h('section.panel.settings', { 'aria-labelledby': 'settings-title' },
    h('h2#settings-title', 'Settings'),
    h('label.field', h('span', 'display name'), nameInput),
    nameHint,
    errBox);
  function update(): void {
    account.update();
    // An account is named after its username.
    const isAccount = client.player?.kind === 'account';
    nameInput.disabled = isAccount;
    if (isAccount) nameInput.value = client.player!.name;
    nameHint.textContent = isAccount ? 'An account plays under its username.' : 'The name others see in your games; Enter saves it.';
    errBox.replaceChildren(error ? h('div.banner.err', error) : '');
  }
  update();
  const el = h('main.narrow', h('h1.page-title', 'Account and settings'), h('div.stack-col', settings, account.el));
  return { el, update, dispose: () => {} };
}
