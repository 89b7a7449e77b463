import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyScreen } from './lazyScreen';

function Loaded() {
  return <p>the screen</p>;
}

describe('lazyScreen', () => {
  it('renders a preloaded screen at once, without passing through the fallback', async () => {
    let loads = 0;
    const Screen = lazyScreen(async () => {
      loads += 1;
      return { default: Loaded };
    });
    await Screen.preload();
    render(
      <Suspense fallback={<p>fallback</p>}>
        <Screen />
      </Suspense>,
    );
    // Synchronously there: no suspension, so React's reveal throttle never holds it back.
    expect(screen.getByText('the screen')).toBeInTheDocument();
    expect(screen.queryByText('fallback')).toBeNull();
    expect(loads).toBe(1);
  });

  it('suspends until the chunk arrives when it was not preloaded, and fetches it once', async () => {
    let loads = 0;
    let arrive: () => void = () => undefined;
    const Screen = lazyScreen(() => {
      loads += 1;
      return new Promise((resolve) => (arrive = () => resolve({ default: Loaded })));
    });
    render(
      <Suspense fallback={<p>fallback</p>}>
        <Screen />
      </Suspense>,
    );
    expect(screen.getByText('fallback')).toBeInTheDocument();
    void Screen.preload();
    await act(async () => arrive());
    expect(await screen.findByText('the screen')).toBeInTheDocument();
    expect(loads).toBe(1);
  });
});
