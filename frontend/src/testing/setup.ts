import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { adoptSession } from '../lib/session';

// Screens are lazy chunks; on a cold, busy 2-core machine the first import can take over a second.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks the layout observers Headless UI uses for positioning.
class NoopObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoopObserver as unknown as typeof ResizeObserver;
globalThis.IntersectionObserver ??= NoopObserver as unknown as typeof IntersectionObserver;

beforeEach(() => {
  localStorage.clear();
  adoptSession(null);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
