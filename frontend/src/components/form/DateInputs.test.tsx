import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { setUiLanguage } from '../../lib/i18n';
import { DateInput, DateTimeInput } from './DateInputs';

function Harness({ initial = '', withTime = false }: { initial?: string; withTime?: boolean }) {
  const [value, setValue] = useState(initial);
  const Input = withTime ? DateTimeInput : DateInput;
  return (
    <div>
      <label htmlFor="when">When</label>
      <Input id="when" label="When" value={value} onChange={setValue} onBlur={() => {}} invalid={false} />
      <output data-testid="value">{value}</output>
      <button type="button" onClick={() => setValue('')}>
        Reset
      </button>
    </div>
  );
}

const field = () => screen.getByLabelText('When') as HTMLInputElement;
const value = () => screen.getByTestId('value').textContent;

describe('DateInput', () => {
  it('says the shape of a date in the interface language', async () => {
    await act(() => setUiLanguage('az'));
    try {
      render(<Harness />);
      expect(field().placeholder).toBe('gg-aa-iiii');
      fireEvent.change(field(), { target: { value: '31-02-2026' } });
      fireEvent.blur(field());
      expect(screen.getByText('Tarixi gg-aa-iiii kimi daxil edin')).toBeInTheDocument();
    } finally {
      await act(() => setUiLanguage('en'));
    }
  });

  it('shows a day as dd-MM-yyyy and keeps the ISO day as its value', () => {
    render(<Harness initial="2026-12-25" />);
    expect(field().value).toBe('25-12-2026');
    expect(field().placeholder).toBe('dd-mm-yyyy');
    fireEvent.change(field(), { target: { value: '01-03-2026' } });
    expect(value()).toBe('2026-03-01');
  });

  it('takes dots, slashes and an ISO day, and writes them as dd-MM-yyyy once the field is left', () => {
    render(<Harness />);
    fireEvent.change(field(), { target: { value: '2026-03-01' } });
    expect(value()).toBe('2026-03-01');
    fireEvent.blur(field());
    expect(field().value).toBe('01-03-2026');
    fireEvent.change(field(), { target: { value: '5.4.2026' } });
    fireEvent.blur(field());
    expect(value()).toBe('2026-04-05');
    expect(field().value).toBe('05-04-2026');
  });

  it('gives no value for text that is not a day, and says how to type one once the field is left', () => {
    render(<Harness initial="2026-12-25" />);
    fireEvent.change(field(), { target: { value: '31-02-2026' } });
    expect(value()).toBe('');
    expect(screen.queryByText('Enter the date as dd-mm-yyyy')).toBeNull();
    fireEvent.blur(field());
    const hint = screen.getByText('Enter the date as dd-mm-yyyy');
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(field().getAttribute('aria-describedby')).toContain(hint.id);
    fireEvent.change(field(), { target: { value: '28-02-2026' } });
    expect(value()).toBe('2026-02-28');
    expect(screen.queryByText('Enter the date as dd-mm-yyyy')).toBeNull();
  });

  it('follows a value cleared from outside, and offers the calendar by a named button', () => {
    render(<Harness initial="2026-12-25" />);
    expect(screen.getByRole('button', { name: 'Choose When from a calendar' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(field().value).toBe('');
  });
});

describe('DateTimeInput', () => {
  it('shows and reads dd-MM-yyyy HH:mm', () => {
    render(<Harness initial="2026-12-25T18:30" withTime />);
    expect(field().value).toBe('25-12-2026 18:30');
    fireEvent.change(field(), { target: { value: '01-01-2027 09:05' } });
    expect(value()).toBe('2027-01-01T09:05');
    fireEvent.change(field(), { target: { value: '01-01-2027' } });
    expect(value()).toBe('');
    fireEvent.blur(field());
    expect(screen.getByText('Enter the date and time as dd-mm-yyyy hh:mm')).toBeInTheDocument();
  });
});
