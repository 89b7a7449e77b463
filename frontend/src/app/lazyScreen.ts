import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A code-split screen that can also be fetched ahead of its first render. */
export type LazyScreen = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/**
 * `React.lazy` plus `preload()`: the same import, started early. The browser's
 * module map fetches each chunk once, so the later render finds it loaded.
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>): LazyScreen {
  const screen = lazy(load) as LazyScreen;
  screen.preload = load;
  return screen;
}
