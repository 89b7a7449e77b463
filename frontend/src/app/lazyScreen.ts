import { createElement, lazy, useState, type ComponentType } from 'react';

/** A code-split screen that can also be fetched ahead of its first render. */
export type LazyScreen = ComponentType & { preload: () => Promise<unknown> };

/**
 * `React.lazy` plus `preload()`: the same import, started early. Once the
 * chunk has arrived the screen renders its component directly instead of
 * through `React.lazy`, which suspends on its first render even when the code
 * is already there: a suspension shows the fallback, and React then holds the
 * finished screen back for 300 ms after a fallback appeared (its reveal
 * throttle), which was most of the first screen's time.
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>): LazyScreen {
  let loaded: ComponentType | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const fetchOnce = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A failed fetch (say, the network dropped) may be tried again on the next render.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(fetchOnce);
  function Screen() {
    // Chosen once per mount: switching from Lazy to the component later would remount the screen and lose its state.
    const [component] = useState(() => loaded ?? Lazy);
    return createElement(component);
  }
  return Object.assign(Screen, { preload: fetchOnce });
}
