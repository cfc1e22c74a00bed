// The account and settings page (/account, linked from the header): the display name of a guest,
// the language, sound on or off, and the account box (register, log in, log out).
import { renderAccountBox } from './account.ts';
import { h } from './dom.ts';
import { onLangChange, renderLangSwitch, t } from './i18n.ts';
import { isSoundOn, onSoundChange, setSound } from './sound.ts';
import type { App } from './ui.ts';

export function renderAccountPage(app: App): { el: HTMLElement; update: () => void; dispose: () => void } {
  const { client } = app;
  const account = renderAccountBox(app);
  const errBox = h('div');
  let error = '';
  const nameInput = h('input', {
    type: 'text', maxlength: 24, placeholder: t('account.guest'), value: client.name, autocomplete: 'nickname', 'data-field': 'name',
    on: {
      change: (e: Event) => {
        client.rename((e.target as HTMLInputElement).value.trim()).catch((err) => {
          error = t('account.error.rename', { error: err.message ?? err.code ?? err });
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
  // The same switch as the header's (which narrow screens leave out).
  const soundBox = h('input', { type: 'checkbox', checked: isSoundOn(), 'data-field': 'sound', on: { change: (e: Event) => setSound((e.target as HTMLInputElement).checked) } }) as HTMLInputElement;
  const offSound = onSoundChange(() => { soundBox.checked = isSoundOn(); });
  const settings = h('section.panel.settings', { 'aria-labelledby': 'settings-title' },
    h('h2#settings-title', t('account.settings')),
    h('label.field', h('span', t('account.displayName')), nameInput),
    nameHint,
    h('div.field', h('span', { 'aria-hidden': 'true' }, t('lang.label')), renderLangSwitch()),
    h('label.field', h('span', t('sound.label')), soundBox),
    errBox);
  function update(): void {
    account.update();
    // An account is named after its username.
    const isAccount = client.player?.kind === 'account';
    nameInput.disabled = isAccount;
    if (isAccount) nameInput.value = client.player!.name;
    nameHint.textContent = t(isAccount ? 'account.nameHint.account' : 'account.nameHint.guest');
    errBox.replaceChildren(error ? h('div.banner.err', error) : '');
  }
  update();
  const el = h('main.narrow', h('h1.page-title', t('account.title')), h('div.stack-col', settings, account.el));
  // Another language: the page is drawn again (its fields are built once, for what is being typed).
  const offLang = onLangChange(() => app.navigate(location.pathname));
  return { el, update, dispose: () => { offLang(); offSound(); } };
}
