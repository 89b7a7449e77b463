import { signal } from '@preact/signals-react';

export interface LayoutConfig {
  header: { fixed: boolean; greeting: boolean };
  subheader: { display: boolean; breadcrumbs: boolean };
  content: { width: 'fluid' | 'fixed' };
  aside: { display: boolean; minimized: boolean; theme: 'dark' | 'light' };
  footer: { display: boolean; fixed: boolean };
}

export const LAYOUT_STORAGE_KEY = 'perkdesk-layout-config';

export const defaultLayoutConfig = (): LayoutConfig => ({
  header: { fixed: true, greeting: true },
  subheader: { display: true, breadcrumbs: true },
  content: { width: 'fluid' },
  aside: { display: true, minimized: false, theme: 'dark' },
  footer: { display: true, fixed: false },
});

/** Merges what was stored over the defaults, so options added later get their default. */
function readStoredLayout(): LayoutConfig {
  const defaults = defaultLayoutConfig();
  try {
    const stored = JSON.parse(localStorage.getItem(LAYOUT_STORAGE_KEY) ?? '{}') as Partial<LayoutConfig>;
    return {
      header: { ...defaults.header, ...stored.header },
      subheader: { ...defaults.subheader, ...stored.subheader },
      content: { ...defaults.content, ...stored.content },
      aside: { ...defaults.aside, ...stored.aside },
      footer: { ...defaults.footer, ...stored.footer },
    };
  } catch {
    return defaults;
  }
}

export const layoutConfig = signal<LayoutConfig>(readStoredLayout());

export function applyLayout(next: LayoutConfig) {
  localStorage.setItem(LAYOUT_STORAGE_KEY, JSON.stringify(next));
  layoutConfig.value = next;
}

export function resetLayout() {
  localStorage.removeItem(LAYOUT_STORAGE_KEY);
  layoutConfig.value = defaultLayoutConfig();
}
