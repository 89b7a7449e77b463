import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AsyncPicker } from './AsyncPicker';
import { MultiPicker } from './MultiPicker';
import type { PickerLoader, PickerOption } from './types';

const assets = ['Azersun', 'Bravo', 'Baku Electronics', 'Bolt'].map((label, i) => ({ id: i + 1, label }));
const load: PickerLoader = async (search) => {
  const matching = assets.filter((item) => item.label.toLowerCase().includes(search.toLowerCase()));
  return { items: matching, total: matching.length };
};

function Assets({ onChange, describedBy }: { onChange: (value: PickerOption[]) => void; describedBy?: string }) {
  const [value, setValue] = useState<PickerOption[]>([]);
  return (
    <>
      <MultiPicker
        id="assets"
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
        onBlur={() => undefined}
        invalid={describedBy !== undefined}
        describedBy={describedBy}
        load={vi.fn(load)}
      />
      {describedBy && <p id={describedBy}>Assets are required.</p>}
      <button type="button">Save</button>
    </>
  );
}

describe('the shared picker combobox', () => {
  it('closes its list and clears the search after each pick, so the form under it stays reachable', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Assets onChange={onChange} />);
    const input = screen.getByRole('combobox');

    await user.type(input, 'b');
    await user.click(await screen.findByRole('option', { name: 'Bravo' }));
    expect(onChange).toHaveBeenLastCalledWith([{ id: 2, label: 'Bravo' }]);
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(input).toHaveValue('');
    expect(input).toHaveAttribute('aria-expanded', 'false');

    await user.click(input);
    await user.click(await screen.findByRole('option', { name: 'Bolt' }));
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(onChange).toHaveBeenLastCalledWith([
      { id: 2, label: 'Bravo' },
      { id: 4, label: 'Bolt' },
    ]);
    expect(within(screen.getByRole('list', { name: 'Chosen' })).getAllByRole('listitem')).toHaveLength(2);
  });

  it('closes on a click outside without changing the choice', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Assets onChange={onChange} />);
    await user.click(screen.getByRole('combobox'));
    await screen.findByRole('option', { name: 'Azersun' });
    await user.click(document.body);
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(onChange).not.toHaveBeenCalled();
  });

  it('is worked by keyboard: arrows move through the options, Enter picks and closes, Escape closes', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Assets onChange={onChange} />);
    const input = screen.getByRole('combobox');
    input.focus();
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('option', { name: 'Azersun' });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith([{ id: 2, label: 'Bravo' }]);
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());

    await user.keyboard('{ArrowDown}');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('ties a validation message to the combobox, as plain inputs do', () => {
    render(<Assets onChange={vi.fn()} describedBy="assets-error" />);
    const input = screen.getByRole('combobox');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Assets are required.');
  });

  it('shows one choice by its label and clears the typed text when closed', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(
      <>
        <AsyncPicker id="partner" value={{ id: 1, label: 'Azersun' }} onChange={onChange} onBlur={() => undefined} invalid describedBy="partner-error" load={load} />
        <p id="partner-error">Partner is required.</p>
      </>,
    );
    const input = screen.getByRole('combobox');
    expect(input).toHaveValue('Azersun');
    expect(input).toHaveAccessibleDescription('Partner is required.');
    await user.click(input);
    await user.click(await screen.findByRole('option', { name: 'Bolt' }));
    expect(onChange).toHaveBeenCalledWith({ id: 4, label: 'Bolt' });
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
  });
});

describe('the picker pages', () => {
  it('load once per search, not again on every render', async () => {
    const counted = vi.fn(load);
    const user = userEvent.setup();
    render(<AsyncPicker id="partner" value={null} onChange={() => undefined} onBlur={() => undefined} invalid={false} load={counted} />);
    await user.click(screen.getByRole('combobox'));
    await screen.findByRole('option', { name: 'Bolt' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(counted).toHaveBeenCalledTimes(1);
  });
});
