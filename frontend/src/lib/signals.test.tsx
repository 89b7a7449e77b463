import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUiLanguage, t } from './i18n';

describe('signals without the Babel transform', () => {
  it('re-renders a component that calls useSignals() when a signal it read changes', () => {
    const count = signal(0);
    function Counter() {
      useSignals();
      return <p>count {count.value}</p>;
    }
    render(<Counter />);
    expect(screen.getByText('count 0')).toBeInTheDocument();
    act(() => {
      count.value = 5;
    });
    expect(screen.getByText('count 5')).toBeInTheDocument();
  });

  it('re-renders translated text when the UI language changes', async () => {
    function Title() {
      useSignals();
      return <h1>{t('button.cancel')}</h1>;
    }
    render(<Title />);
    expect(screen.getByRole('heading')).toHaveTextContent('Cancel');
    await act(() => setUiLanguage('de'));
    expect(screen.getByRole('heading')).toHaveTextContent('Abbrechen');
    expect(localStorage.getItem('perkdesk-language')).toBe('de');
    await act(() => setUiLanguage('en'));
  });
});
