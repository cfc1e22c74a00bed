// Translations: one catalogue per language (src/i18n/*.ts, English is the reference), the language
// chosen from the browser unless the player picked one (remembered in localStorage), and `t()` to
// look a string up with {name} placeholders filled in.
import { h } from './dom.ts';
import { en, type Key } from './i18n/en.ts';
import { ja } from './i18n/ja.ts';
import { ru } from './i18n/ru.ts';

export type { Key };
export type Lang = 'en' | 'ja' | 'ru';

export const CATALOGUES: Record<Lang, Record<Key, string>> = { en, ja, ru };
/** Each language named in itself, for the switch. */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', ja: '日本語', ru: 'Русский' };
export const LANGS = Object.keys(CATALOGUES) as Lang[];

const STORAGE_KEY = 'rainet.lang';

interface StorageLike {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
}

function isLang(x: unknown): x is Lang {
  return typeof x === 'string' && (LANGS as string[]).includes(x);
}

/** The first of the browser's preferred languages that has a catalogue ("ja-JP" counts as "ja"). */
export function pickLanguage(preferred: readonly string[]): Lang {
  for (const p of preferred) {
    const base = p.toLowerCase().split('-')[0];
    if (isLang(base)) return base;
  }
  return 'en';
}

function storage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled: the choice lasts for the page only
  }
}

let current: Lang | null = null;
const listeners = new Set<() => void>();

export function lang(): Lang {
  if (current) return current;
  const saved = storage()?.getItem(STORAGE_KEY);
  current = isLang(saved) ? saved : pickLanguage(typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]);
  return current;
}

/** Switches the language, remembers it, and tells the pages that show translated text. */
export function setLang(l: Lang): void {
  if (l === lang()) return;
  current = l;
  storage()?.setItem(STORAGE_KEY, l);
  if (typeof document !== 'undefined') document.documentElement.lang = l;
  for (const fn of [...listeners]) fn();
}

export function onLangChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Fills {name} placeholders; a placeholder without a value stays visible rather than vanishing. */
export function format(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** The text of `key` in the current language. */
export function t(key: Key, params?: Record<string, string | number>): string {
  return format(CATALOGUES[lang()][key] ?? en[key], params);
}

/**
 * The text of `key` as nodes, with some placeholders filled by elements (a word in bold inside a
 * sentence) and the others by strings.
 */
export function tNodes(key: Key, nodes: Record<string, Node>, params: Record<string, string | number> = {}): (string | Node)[] {
  return t(key, params).split(/(\{\w+\})/).filter((part) => part !== '').map((part) => {
    const m = /^\{(\w+)\}$/.exec(part);
    return m && m[1] in nodes ? nodes[m[1]] : part;
  });
}

/** The placeholders a text uses, sorted (for the catalogue test). */
export function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}

/** A language switch: a labelled select that applies and remembers the choice. */
export function renderLangSwitch(): HTMLElement {
  return h(
    'label.langswitch',
    h('span.sr', t('lang.label')),
    h(
      'select',
      { 'data-field': 'lang', 'aria-label': t('lang.label'), on: { change: (e: Event) => setLang((e.target as HTMLSelectElement).value as Lang) } },
      LANGS.map((l) => h('option', { value: l, selected: l === lang(), lang: l }, LANG_NAMES[l])),
    ),
  );
}
