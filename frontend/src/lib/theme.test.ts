import { afterEach, describe, expect, it, vi } from 'vitest';

/** The theme module as a fresh page loads it, with the system asking for `dark` or not. */
async function freshTheme(systemDark: boolean) {
  const listeners: ((event: MediaQueryListEvent) => void)[] = [];
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(prefers-color-scheme: dark)' && systemDark,
    addEventListener: (_: string, listener: (event: MediaQueryListEvent) => void) => listeners.push(listener),
    removeEventListener: () => undefined,
  }));
  vi.resetModules();
  const theme = await import('./theme');
  const stop = theme.startTheme();
  const systemTurns = (dark: boolean) => listeners.forEach((listener) => listener({ matches: dark } as MediaQueryListEvent));
  return { ...theme, stop, systemTurns };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('the colour scheme', () => {
  it('follows the system until the person chooses, and keeps following it live', async () => {
    const theme = await freshTheme(true);
    expect(theme.themeChoice.value).toBe('system');
    expect(document.documentElement.dataset.theme).toBe('dark');
    theme.systemTurns(false);
    expect(document.documentElement.dataset.theme).toBe('light');
    theme.stop();
  });

  it('remembers Light or Dark in this browser, over the system', async () => {
    const first = await freshTheme(true);
    first.setThemeChoice('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem(first.THEME_KEY)).toBe('light');
    first.systemTurns(true);
    expect(document.documentElement.dataset.theme).toBe('light');
    first.stop();

    // The next page load reads the stored choice.
    const next = await freshTheme(true);
    expect(next.themeChoice.value).toBe('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    next.setThemeChoice('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    next.setThemeChoice('system');
    expect(document.documentElement.dataset.theme).toBe('dark');
    next.stop();
  });

  it('an unknown stored value counts as System', async () => {
    localStorage.setItem('perkdesk-theme', 'sepia');
    const theme = await freshTheme(false);
    expect(theme.themeChoice.value).toBe('system');
    expect(document.documentElement.dataset.theme).toBe('light');
    theme.stop();
  });
});
