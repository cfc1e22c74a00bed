// Every catalogue has exactly the English keys, with the same {placeholders}, and is translated;
// the language comes from the browser's preferences unless one was chosen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOGUES, LANGS, format, pickLanguage, placeholders } from '../../src/i18n.ts';
import { en } from '../../src/i18n/en.ts';

const keys = Object.keys(en).sort();

for (const l of LANGS) {
  test(`catalogue ${l}: no missing and no extra key`, () => {
    const have = Object.keys(CATALOGUES[l]).sort();
    assert.deepEqual(keys.filter((k) => !have.includes(k)), [], 'missing keys');
    assert.deepEqual(have.filter((k) => !keys.includes(k)), [], 'extra keys');
  });
  test(`catalogue ${l}: same placeholders as English, no empty text`, () => {
    for (const k of keys) {
      const text = (CATALOGUES[l] as Record<string, string>)[k];
      assert.ok(text && text.trim(), `${l}: ${k} is empty`);
      assert.deepEqual(placeholders(text), placeholders((en as Record<string, string>)[k]), `${l}: ${k}`);
    }
  });
}

test('the other catalogues are translations, not copies of the English text', () => {
  // Card names printed in English, the game's name and the move notation stay as they are, and so do the texts
  // made only of placeholders and punctuation that Russian writes as English does.
  const same = (l: 'ja' | 'ru') => keys.filter((k) => (CATALOGUES[l] as Record<string, string>)[k] === (en as Record<string, string>)[k]);
  assert.deepEqual(same('ja'), []);
  assert.deepEqual(same('ru'), ['card.NF.name', 'end.reason', 'end.sentence', 'end.sentence.agreement', 'home.title', 'lesson.lb.title', 'lesson.nf.title']);
  for (const k of same('ru').filter((k) => k.startsWith('end.'))) assert.doesNotMatch(en[k as keyof typeof en].replace(/\{\w+\}/g, ''), /[A-Za-z]/, k);
});

test('the browser language picks the catalogue, English otherwise', () => {
  assert.equal(pickLanguage(['ja-JP', 'en-US']), 'ja');
  assert.equal(pickLanguage(['de-DE', 'ru-RU', 'ja']), 'ru');
  assert.equal(pickLanguage(['EN-gb']), 'en');
  assert.equal(pickLanguage(['fr', 'de']), 'en');
  assert.equal(pickLanguage([]), 'en');
});

test('format fills placeholders and leaves unknown ones visible', () => {
  assert.equal(format('Lesson {n} of {total}', { n: 2, total: 9 }), 'Lesson 2 of 9');
  assert.equal(format('{a} and {b}', { a: 'x' }), 'x and {b}');
  assert.deepEqual(placeholders('{b} {a} {b}'), ['a', 'b', 'b']);
});
