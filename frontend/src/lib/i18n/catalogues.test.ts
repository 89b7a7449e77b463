import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FORM_MESSAGES, REFUSALS } from '../../generated/messages';
import { MESSAGES } from '../validation';
import { en, type Message } from './en';
import {
  browserLanguage,
  CONTENT_LANGUAGE_KEY,
  contentLanguage,
  loadCatalogue,
  restoreUiLanguage,
  setContentLanguage,
  setUiLanguage,
  t,
  translateText,
  UI_LANGUAGE_KEY,
  uiLanguage,
  uiLanguages,
} from '.';

const SRC = join(__dirname, '..', '..');
const keys = Object.keys(en).sort();

/** Every source file of the panel but the catalogues and the tests: where a key counts as used. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path.endsWith(join('lib', 'i18n')) ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [readFileSync(path, 'utf8')] : [];
  });
}

/**
 * The English texts of every validation and refusal message the panel can show: the forms' rules,
 * each declared form field's server messages and every other refusal the server declares for people.
 */
function englishTexts(): string[] {
  const leaves = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : typeof value === 'object' && value ? Object.values(value).flatMap(leaves) : [];
  return [...new Set([...leaves(FORM_MESSAGES), ...Object.values(MESSAGES), ...REFUSALS])].sort();
}

const forms = (message: Message) => (typeof message === 'string' ? [message] : Object.values(message));
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

// Each test starts as a fresh page with nothing stored: English, and the spec's content language Az.
afterEach(async () => {
  await act(() => setUiLanguage('en'));
  localStorage.clear();
  contentLanguage.value = 1;
});

describe('the interface languages', () => {
  it('are eight, each named in itself, English first', () => {
    expect(uiLanguages.map((language) => `${language.code} ${language.label}`)).toEqual([
      'en English',
      'az Azərbaycanca',
      'ru Русский',
      'de Deutsch',
      'es Español',
      'fr Français',
      'ja 日本語',
      'zh 中文',
    ]);
  });

  it.each(uiLanguages.map((language) => language.code))('%s has every key of English and no other, with the same placeholders', async (code) => {
    const { messages } = await loadCatalogue(code);
    expect(Object.keys(messages).sort()).toEqual(keys);
    for (const key of keys) {
      const message = messages[key as keyof typeof en];
      if (typeof message !== 'string') expect(message.other, `${code} ${key} has an other form`).toBeTruthy();
      for (const form of forms(message)) {
        expect(form.trim(), `${code} ${key} is empty`).not.toBe('');
        // A translation may leave a count out of a plural form it spells ("Создан 1 промокод"), nothing else.
        const wanted = placeholders(en[key as keyof typeof en]).filter((name) => !(name === 'count' && typeof message !== 'string' && !form.includes('{count}')));
        expect(placeholders(form), `${code} ${key}: ${form}`).toEqual(wanted);
      }
    }
  });

  it.each(uiLanguages.map((language) => language.code))('%s names a filter chip with its visible text in it (as axe asks)', async (code) => {
    await act(() => setUiLanguage(code));
    // The chip shows "{label}: {value}" (FilterChips); its accessible name must contain that text.
    expect(t('filter.remove', { label: 'Səbəb', value: 'Digər' })).toContain('Səbəb: Digər');
  });

  it.each(uiLanguages.filter((language) => language.code !== 'en').map((language) => language.code))(
    '%s translates every validation and refusal text and no text nobody shows',
    async (code) => {
      const { texts } = await loadCatalogue(code);
      expect(Object.keys(texts).sort()).toEqual(englishTexts());
      for (const [english, translated] of Object.entries(texts)) {
        expect(translated, english).not.toBe('');
        // A template's parts are all in its translation, and no other.
        expect([...new Set(placeholders(translated))], `${code}: ${translated}`).toEqual([...new Set(placeholders(english))]);
      }
    },
  );

  it('every key is used by the code, and every key family the code builds exists', () => {
    const code = sources().join('\n');
    const families = [...code.matchAll(/`([a-zA-Z.]+\.)\$\{/g)].map((match) => match[1]);
    expect(families.length).toBeGreaterThan(0);
    for (const family of families) expect(keys.some((key) => key.startsWith(family)), `keys under ${family}`).toBe(true);
    const unused = keys.filter((key) => !code.includes(`'${key}'`) && !code.includes(`"${key}"`) && !families.some((family) => key.startsWith(family)));
    expect(unused).toEqual([]);
    const literal = [...code.matchAll(/\bt\('([^']+)'/g)].map((match) => match[1]);
    expect(literal.filter((key) => !(key in en))).toEqual([]);
  });
});

describe('plurals', () => {
  const counted = (count: number) => t('table.total', { count, noun: count === 1 ? t('noun.employee') : t('noun.employees', { count }) });

  it('Russian picks one, few or many by the number', async () => {
    await act(() => setUiLanguage('ru'));
    expect([1, 2, 5, 11, 21, 22, 25, 101].map(counted)).toEqual([
      '1 сотрудник',
      '2 сотрудника',
      '5 сотрудников',
      '11 сотрудников',
      '21 сотрудник',
      '22 сотрудника',
      '25 сотрудников',
      '101 сотрудник',
    ]);
    expect(t('trash.restoredMany', { count: 3 })).toBe('Восстановлено 3 записи');
    expect(t('trash.restoredMany', { count: 12 })).toBe('Восстановлено 12 записей');
    expect(t('promoCodes.created', { count: 21 })).toBe('Создан 21 промокод');
  });

  it('Azerbaijani keeps the noun singular after a number, English and German use their own plural', async () => {
    await act(() => setUiLanguage('az'));
    expect([1, 5].map(counted)).toEqual(['1 əməkdaş', '5 əməkdaş']);
    await act(() => setUiLanguage('de'));
    expect(t('import.apply', { count: 1 })).toBe('1 Zeile importieren');
    expect(t('import.apply', { count: 4 })).toBe('4 Zeilen importieren');
    await act(() => setUiLanguage('en'));
    expect([1, 5].map(counted)).toEqual(['1 employee', '5 employees']);
  });

  it('the spec texts keep their English words and are translated elsewhere', async () => {
    expect(t('table.empty')).toBe('No information found');
    expect(t('table.connectionLost')).toBe("We've lost the connection");
    expect(t('delete.question')).toBe('Are you sure to delete?');
    expect(translateText('Minimum 3 symbols')).toBe('Minimum 3 symbols');
    await act(() => setUiLanguage('az'));
    expect(t('table.empty')).toBe('Məlumat tapılmadı');
    expect(t('button.yes')).toBe('Bəli');
    expect(translateText('Minimum 3 symbols')).toBe('Minimum 3 simvol');
    expect(translateText('Partner «Araz» is still referred to')).toBe('Partner «Araz» is still referred to');
  });

  it('a refusal filled in by the server is translated with its kinds, its data kept as sent', async () => {
    const restore = 'Campaign «Yay {x}» cannot be restored while its partner is deleted: restore the partner first.';
    expect(translateText(restore)).toBe(restore);
    await act(() => setUiLanguage('ru'));
    expect(translateText(restore)).toBe(
      'Кампания «Yay {x}»: нельзя восстановить, пока удалён связанный объект (партнёр). Сначала восстановите его.',
    );
    expect(translateText('Promo code not found.')).toBe('Не найдено: Промокод.');
    expect(translateText('Too many attempts from your address. Try again in 42 seconds.')).toBe(
      'Слишком много попыток с вашего адреса. Повторите через 42 с.',
    );
    expect(translateText('You cannot delete your own account.')).toBe('Нельзя удалить собственную учётную запись.');
    await act(() => setUiLanguage('az'));
    expect(translateText('2 of the 5 selected records were not found; nothing was deleted.')).toBe(
      'Seçilmiş 5 qeyddən 2 tapılmadı; heç nə silinmədi.',
    );
    expect(translateText('Minimum 8 symbols')).toBe('Minimum 8 simvol');
  });
});

describe('the language preferences', () => {
  it('take the first of the browser’s preferred languages the panel speaks', () => {
    expect(browserLanguage(['ru-RU', 'en-US'])).toBe('ru');
    expect(browserLanguage(['pt-BR', 'az-Latn-AZ'])).toBe('az');
    expect(browserLanguage(['pt-BR', 'it'])).toBeNull();
  });

  it('a chosen language is remembered; one from the browser is used but not stored', async () => {
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
    Object.defineProperty(navigator, 'languages', { value: ['ru-RU', 'en'], configurable: true });
    try {
      await act(() => restoreUiLanguage());
      expect(uiLanguage.value).toBe('ru');
      expect(document.documentElement.lang).toBe('ru');
      expect(localStorage.getItem(UI_LANGUAGE_KEY)).toBeNull();
      // The content follows the Russian interface until a content language is chosen.
      expect(contentLanguage.value).toBe(3);

      await act(() => setUiLanguage('az'));
      expect(localStorage.getItem(UI_LANGUAGE_KEY)).toBe('az');
      expect(contentLanguage.value).toBe(1);
      setContentLanguage(2);
      await act(() => setUiLanguage('ru'));
      expect(contentLanguage.value).toBe(2);
      expect(localStorage.getItem(CONTENT_LANGUAGE_KEY)).toBe('2');
      localStorage.removeItem(CONTENT_LANGUAGE_KEY);

      // A stored choice wins over the browser.
      localStorage.setItem(UI_LANGUAGE_KEY, 'de');
      await act(() => restoreUiLanguage());
      expect(uiLanguage.value).toBe('de');
      expect(t('columns.button')).toBe('Spalten');
    } finally {
      if (languages) Object.defineProperty(navigator, 'languages', languages);
      delete (navigator as unknown as Record<string, unknown>).languages;
    }
  });

  it('an English browser keeps English and the spec’s content language Az', async () => {
    Object.defineProperty(navigator, 'languages', { value: ['en-US'], configurable: true });
    try {
      await act(() => restoreUiLanguage());
      expect(uiLanguage.value).toBe('en');
      expect(contentLanguage.value).toBe(1);
    } finally {
      delete (navigator as unknown as Record<string, unknown>).languages;
    }
  });
});
