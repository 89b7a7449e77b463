import { signal } from '@preact/signals-react';
import { en, type MessageKey, type Translation } from './en';

export type { MessageKey } from './en';

export const uiLanguages = [
  { code: 'en', label: 'English' },
  { code: 'de', label: 'Deutsch' },
  { code: 'es', label: 'Español' },
  { code: 'fr', label: 'Français' },
  { code: 'ja', label: '日本語' },
  { code: 'zh', label: '中文' },
] as const;
export type UiLanguage = (typeof uiLanguages)[number]['code'];

/** Content language ids sent as Accept-Language on list reads (design.md). */
export const contentLanguages = [
  { id: 1, label: 'Az' },
  { id: 2, label: 'En' },
  { id: 3, label: 'Ru' },
] as const;

const UI_LANGUAGE_KEY = 'perkdesk-language';
const CONTENT_LANGUAGE_KEY = 'perkdesk-content-language';

// Only English ships in the first bundle; other dictionaries load when chosen.
const loaders: Record<Exclude<UiLanguage, 'en'>, () => Promise<Translation>> = {
  de: () => import('./de').then((m) => m.de),
  es: () => import('./es').then((m) => m.es),
  fr: () => import('./fr').then((m) => m.fr),
  ja: () => import('./ja').then((m) => m.ja),
  zh: () => import('./zh').then((m) => m.zh),
};

function isUiLanguage(value: string | null): value is UiLanguage {
  return uiLanguages.some((language) => language.code === value);
}

function storedContentLanguage(): number {
  const stored = Number(localStorage.getItem(CONTENT_LANGUAGE_KEY));
  return contentLanguages.some((language) => language.id === stored) ? stored : 1;
}

export const uiLanguage = signal<UiLanguage>('en');
const dictionary = signal<Translation>(en);
export const contentLanguage = signal<number>(storedContentLanguage());

export async function setUiLanguage(code: UiLanguage): Promise<void> {
  const next = code === 'en' ? en : await loaders[code]();
  dictionary.value = next;
  uiLanguage.value = code;
  localStorage.setItem(UI_LANGUAGE_KEY, code);
  document.documentElement.lang = code;
}

/** Restores the remembered UI language (English when none was chosen). */
export function restoreUiLanguage(): Promise<void> {
  const stored = localStorage.getItem(UI_LANGUAGE_KEY);
  return isUiLanguage(stored) && stored !== 'en' ? setUiLanguage(stored).catch(() => undefined) : Promise.resolve();
}

export function setContentLanguage(id: number) {
  contentLanguage.value = id;
  localStorage.setItem(CONTENT_LANGUAGE_KEY, String(id));
}

/**
 * Translates a generic UI string. Reads a signal: components that call it must
 * call useSignals() so a language switch re-renders them.
 */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const template = dictionary.value[key] ?? en[key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** A translatable key, or text that comes from data (server lists, user input) and stays as it is. */
export type Label = MessageKey | { raw: string };

export function labelText(label: Label): string {
  return typeof label === 'string' ? t(label) : label.raw;
}
