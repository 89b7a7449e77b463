import { computed, signal } from '@preact/signals-react';
import { en, enFormats, type Message, type MessageKey, type TextTranslation, type Translation } from './en';
import { formatNumberIn, monthNamesIn, monthYearIn, type LocaleFormats, type NumberOptions } from './formats';
import { kindInSentence, sentenceStart } from './sentences';

export type { MessageKey } from './en';

/** The interface languages, each named in itself (the picker shows them so). English is the default. */
export const uiLanguages = [
  { code: 'en', label: 'English' },
  { code: 'az', label: 'Azərbaycanca' },
  { code: 'ru', label: 'Русский' },
  { code: 'de', label: 'Deutsch' },
  { code: 'es', label: 'Español' },
  { code: 'fr', label: 'Français' },
  { code: 'ja', label: '日本語' },
  { code: 'zh', label: '中文' },
] as const;
export type UiLanguage = (typeof uiLanguages)[number]['code'];

/** Content language ids sent as Accept-Language on list reads (docs/architecture.md, the API contract). */
export const contentLanguages = [
  { id: 1, label: 'Az' },
  { id: 2, label: 'En' },
  { id: 3, label: 'Ru' },
] as const;

/** The content language an interface language implies, for the three the content is written in. */
const CONTENT_OF_INTERFACE: Partial<Record<UiLanguage, number>> = { az: 1, en: 2, ru: 3 };
/** The spec's list calls send Accept-Language 1 while nobody has chosen a language. */
const DEFAULT_CONTENT_LANGUAGE = 1;

export const UI_LANGUAGE_KEY = 'perkdesk-language';
export const CONTENT_LANGUAGE_KEY = 'perkdesk-content-language';

interface Catalogue {
  messages: Translation;
  texts: TextTranslation;
  /** How the language writes numbers and months, for a browser without its data. */
  formats: LocaleFormats;
}

const english: Catalogue = { messages: en, texts: {}, formats: enFormats };

// Only English ships in the first bundle; other catalogues load when chosen.
const loaders: Record<Exclude<UiLanguage, 'en'>, () => Promise<Catalogue>> = {
  az: () => import('./az').then((m) => ({ messages: m.az, texts: m.azTexts, formats: m.azFormats })),
  ru: () => import('./ru').then((m) => ({ messages: m.ru, texts: m.ruTexts, formats: m.ruFormats })),
  de: () => import('./de').then((m) => ({ messages: m.de, texts: m.deTexts, formats: m.deFormats })),
  es: () => import('./es').then((m) => ({ messages: m.es, texts: m.esTexts, formats: m.esFormats })),
  fr: () => import('./fr').then((m) => ({ messages: m.fr, texts: m.frTexts, formats: m.frFormats })),
  ja: () => import('./ja').then((m) => ({ messages: m.ja, texts: m.jaTexts, formats: m.jaFormats })),
  zh: () => import('./zh').then((m) => ({ messages: m.zh, texts: m.zhTexts, formats: m.zhFormats })),
};

/** Loads a language's catalogue (tests read every language through it). */
export function loadCatalogue(code: UiLanguage): Promise<Catalogue> {
  return code === 'en' ? Promise.resolve(english) : loaders[code]();
}

export function isUiLanguage(value: string | null | undefined): value is UiLanguage {
  return uiLanguages.some((language) => language.code === value);
}

function storedContentLanguage(): number | null {
  const stored = Number(localStorage.getItem(CONTENT_LANGUAGE_KEY));
  return contentLanguages.some((language) => language.id === stored) ? stored : null;
}

/**
 * The first of the browser's preferred languages (`navigator.languages`, best first) that the panel
 * speaks, by its primary subtag: `ru-RU` is Russian, `az-Latn-AZ` Azerbaijani.
 */
export function browserLanguage(preferred: readonly string[] = navigator.languages ?? [navigator.language]): UiLanguage | null {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isUiLanguage(primary)) return primary;
  }
  return null;
}

export const uiLanguage = signal<UiLanguage>('en');
const catalogue = signal<Catalogue>(english);
export const contentLanguage = signal<number>(storedContentLanguage() ?? DEFAULT_CONTENT_LANGUAGE);

/**
 * Shows the interface in `code`. A language the person picks is remembered in this browser; one
 * taken from the browser's preferences is not (a later change of preference still counts). Until
 * the person picks a content language, the content follows the interface when it is Az, En or Ru.
 */
export async function setUiLanguage(code: UiLanguage, { remember = true }: { remember?: boolean } = {}): Promise<void> {
  catalogue.value = await loadCatalogue(code);
  uiLanguage.value = code;
  if (remember) localStorage.setItem(UI_LANGUAGE_KEY, code);
  document.documentElement.lang = code;
  if (storedContentLanguage() === null) contentLanguage.value = CONTENT_OF_INTERFACE[code] ?? DEFAULT_CONTENT_LANGUAGE;
}

/**
 * The remembered interface language, else the browser's preferred one the panel speaks, else
 * English (the default, with the spec's content language Az).
 */
export function restoreUiLanguage(): Promise<void> {
  const stored = localStorage.getItem(UI_LANGUAGE_KEY);
  if (isUiLanguage(stored)) return stored === 'en' ? setUiLanguage('en') : setUiLanguage(stored).catch(() => undefined);
  const preferred = browserLanguage();
  return preferred && preferred !== 'en' ? setUiLanguage(preferred, { remember: false }).catch(() => undefined) : Promise.resolve();
}

export function setContentLanguage(id: number) {
  contentLanguage.value = id;
  localStorage.setItem(CONTENT_LANGUAGE_KEY, String(id));
}

/** The form of a message for `count` in `language` (`Intl.PluralRules`); a plain string is every form. */
export function pluralForm(message: Message, count: number | undefined, language: string): string {
  if (typeof message === 'string') return message;
  if (count === undefined) return message.other;
  return message[new Intl.PluralRules(language).select(count)] ?? message.other;
}

function fill(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * A number in the interface language ("3.000" and "4,04" in Azerbaijani), the browser's format
 * where it has the language's, else the catalogue's. Reads signals, as `t` does.
 */
export function formatNumber(value: number, options?: NumberOptions): string {
  return formatNumberIn(value, uiLanguage.value, catalogue.value.formats, options);
}

// One list per language, so a screen can keep what it drew from them until the language changes.
const monthNameLists = {
  long: computed(() => monthNamesIn(uiLanguage.value, catalogue.value.formats, 'long')),
  short: computed(() => monthNamesIn(uiLanguage.value, catalogue.value.formats, 'short')),
};

/**
 * The twelve month names in the interface language, January first (`short` for a chart's axis):
 * the same array until the language changes.
 */
export function monthNames(width: 'long' | 'short'): readonly string[] {
  return monthNameLists[width].value;
}

/** A month of a year in the interface language ("October 2026"); `month` is 1–12. */
export function formatMonthYear(year: number, month: number): string {
  return monthYearIn(year, month, uiLanguage.value, catalogue.value.formats);
}

/** `text` opening a sentence of the interface language: its first letter capitalised by the language's rules. */
export function atSentenceStart(text: string): string {
  return sentenceStart(text, uiLanguage.value);
}

/** Parameters that name a kind of record ("Merchant"): a common noun inside the sentence. */
const KIND_PARAMS = ['kind', 'noun'];

/**
 * Translates a UI string; a `count` parameter picks the plural form and is written grouped
 * ("3.000 əməkdaş"); a `kind` or `noun` is lower-case inside the sentence and capitalised where
 * the language's template opens with it. Reads a signal: components that call it must call
 * useSignals() so a language switch re-renders them.
 */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const language = uiLanguage.value;
  const count = typeof params?.count === 'number' ? params.count : undefined;
  const message = pluralForm(catalogue.value.messages[key] ?? en[key], count, language);
  if (!params) return message;
  const filled: Record<string, string | number> = { ...params };
  if (count !== undefined) filled.count = formatNumber(count);
  for (const name of KIND_PARAMS) {
    if (typeof filled[name] === 'string') filled[name] = kindInSentence(filled[name], language);
  }
  const text = fill(message, filled);
  return KIND_PARAMS.some((name) => name in params && message.startsWith(`{${name}}`)) ? sentenceStart(text, language) : text;
}

/** A catalogue's templates (texts with `{name}` parts) as patterns that match what the server filled in. */
interface TextTemplate {
  pattern: RegExp;
  names: string[];
  translated: string;
}

const compiledTemplates = new WeakMap<TextTranslation, TextTemplate[]>();

function templatesOf(texts: TextTranslation): TextTemplate[] {
  let templates = compiledTemplates.get(texts);
  if (!templates) {
    templates = Object.entries(texts)
      .filter(([english]) => /\{\w+\}/.test(english))
      .map(([english, translated]) => {
        const names = [...english.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        const literal = english.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
        return { pattern: new RegExp(`^${literal.join('(.*?)')}$`, 's'), names, translated };
      });
    compiledTemplates.set(texts, templates);
  }
  return templates;
}

/**
 * The parts of a refusal template that name a kind of record ("Campaign", "partner"): the
 * catalogue translates them too; every other part (a record's label, a count) stays as sent.
 */
const KIND_PARTS = new Set(['kind', 'parent']);

/**
 * A validation or refusal text (the server's or a form rule's English wording) in the interface
 * language, a template's filled-in text included ("Campaign «Yay» cannot be restored while its
 * partner is deleted…"); a text no catalogue lists stays as it came.
 */
export function translateText(text: string): string {
  const texts = catalogue.value.texts;
  const exact = texts[text];
  if (exact !== undefined) return exact;
  for (const { pattern, names, translated } of templatesOf(texts)) {
    const match = pattern.exec(text);
    if (!match) continue;
    const parts = Object.fromEntries(
      names.map((name, index) => {
        const sent = match[index + 1];
        return [name, KIND_PARTS.has(name) ? (texts[sent] ?? sent) : sent];
      }),
    );
    return fill(translated, parts);
  }
  return text;
}

/** A translatable key, or text that comes from data (server lists, user input) and stays as it is. */
export type Label = MessageKey | { raw: string };

export function labelText(label: Label): string {
  return typeof label === 'string' ? t(label) : label.raw;
}
