import { computed, effect, signal } from '@preact/signals-react';

/**
 * Light, dark or the system's scheme (`prefers-color-scheme`), as the person chose in the user
 * menu; remembered in this browser. The page shows it as `<html data-theme>` (index.css).
 */
export type ThemeChoice = 'light' | 'dark' | 'system';
export type ColorScheme = 'light' | 'dark';

export const THEME_KEY = 'perkdesk-theme';
export const themeChoices: readonly ThemeChoice[] = ['light', 'dark', 'system'];

function storedChoice(): ThemeChoice {
  const stored = localStorage.getItem(THEME_KEY);
  return themeChoices.find((choice) => choice === stored) ?? 'system';
}

const darkQuery = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;

export const themeChoice = signal<ThemeChoice>(storedChoice());
/** Whether the system asks for dark, kept current while the page is open. */
const systemDark = signal(darkQuery?.matches ?? false);

export const colorScheme = computed<ColorScheme>(() => (themeChoice.value === 'system' ? (systemDark.value ? 'dark' : 'light') : themeChoice.value));

export function setThemeChoice(choice: ThemeChoice): void {
  themeChoice.value = choice;
  localStorage.setItem(THEME_KEY, choice);
}

/** Shows the scheme on the page from now on, following the choice and the system; returns the stop. */
export function startTheme(): () => void {
  const follow = (event: MediaQueryListEvent) => (systemDark.value = event.matches);
  darkQuery?.addEventListener('change', follow);
  const stop = effect(() => {
    document.documentElement.dataset.theme = colorScheme.value;
  });
  return () => {
    darkQuery?.removeEventListener('change', follow);
    stop();
  };
}
