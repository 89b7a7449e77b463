import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

/** Renders `ui` inside a router that starts at `path` and records every navigation. */
export function renderAt(path: string, ui: ReactNode) {
  const memory = memoryLocation({ path, record: true });
  const result = render(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      {ui}
    </Router>,
  );
  return { ...result, memory, currentPath: () => memory.history[memory.history.length - 1] };
}
