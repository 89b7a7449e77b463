import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, priorityClass, type TableColumn } from './DataTable';
import { activeFilters, FilterChips, type FilterField } from './FilterPanel';
import { dismissToast, showToast, TOAST_DURATION_MS, ToastRegion, toasts } from './Toast';

describe('toasts', () => {
  afterEach(() => {
    for (const toast of toasts.value) dismissToast(toast.id);
    vi.useRealTimers();
  });

  it('are announced through a polite live region that is in the page before the first one', () => {
    vi.useFakeTimers();
    render(<ToastRegion />);
    const region = screen.getByRole('status', { name: 'Confirmations' });
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();
    act(() => void showToast('Partner Bravo created'));
    expect(within(region).getByText('Partner Bravo created')).toBeInTheDocument();
  });

  it('go by themselves after a few seconds, or at once with Close', async () => {
    vi.useFakeTimers();
    render(<ToastRegion />);
    act(() => void showToast('User Jane Doe saved'));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.getByText('User Jane Doe saved')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('User Jane Doe saved')).not.toBeInTheDocument();

    vi.useRealTimers();
    const user = userEvent.setup();
    act(() => void showToast('Users.xlsx downloaded'));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('Users.xlsx downloaded')).not.toBeInTheDocument();
  });

  it('keep the three newest when many arrive at once', () => {
    render(<ToastRegion />);
    act(() => {
      for (const n of [1, 2, 3, 4]) showToast(`Toast ${n}`);
    });
    expect(screen.queryByText('Toast 1')).not.toBeInTheDocument();
    expect(screen.getAllByText(/^Toast [234]$/)).toHaveLength(3);
  });
});

describe('filter chips', () => {
  const fields: FilterField[] = [
    { name: 'firstName', label: { raw: 'First name' } },
    { name: 'email', label: { raw: 'Email' } },
    {
      name: 'roleId',
      label: { raw: 'Role' },
      kind: 'select',
      options: [
        { value: '0', label: { raw: 'Admin' } },
        { value: '2', label: { raw: 'Call Center' } },
      ],
    },
  ];

  it('name each applied filter by its label and shown value (a select by its option)', () => {
    expect(activeFilters(fields, { firstName: 'ada', email: '', roleId: '2' })).toEqual([
      { name: 'firstName', label: 'First name', value: 'ada' },
      { name: 'roleId', label: 'Role', value: 'Call Center' },
    ]);
  });

  it('remove one filter, or clear them all; nothing shows without filters', async () => {
    const onRemove = vi.fn();
    const onClear = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(<FilterChips fields={fields} values={{ firstName: 'ada', roleId: '0' }} onRemove={onRemove} onClear={onClear} />);
    const chips = screen.getByRole('list', { name: 'Applied filters' });
    expect(within(chips).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove filter Role: Admin' }));
    expect(onRemove).toHaveBeenCalledWith('roleId');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onClear).toHaveBeenCalled();
    rerender(<FilterChips fields={fields} values={{}} onRemove={onRemove} onClear={onClear} />);
    expect(screen.queryByRole('list', { name: 'Applied filters' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });
});

describe('DataTable column priorities', () => {
  type Row = { id: number; name: string; phone: string; email: string };
  const columns: TableColumn<Row>[] = [
    { key: 'name', header: 'Name', render: (row) => row.name, text: (row) => row.name },
    { key: 'email', header: 'Email', render: (row) => row.email, text: (row) => row.email, priority: 2 },
    { key: 'phone', header: 'Phone number', render: (row) => row.phone, priority: 3 },
  ];
  const rows: Row[] = [{ id: 1, name: 'Ada', phone: '+994 50 123 45 67', email: 'ada@example.com' }];

  it('map each priority to the card width from which the column shows', () => {
    expect(priorityClass()).toBe('');
    expect(priorityClass(1)).toBe('');
    expect(priorityClass(2)).toBe('hidden @[40rem]:table-cell');
    expect(priorityClass(3)).toBe('hidden @[58rem]:table-cell');
  });

  it('put the class on the header and every cell of the column, inside a container the queries measure', () => {
    const { container } = render(<DataTable caption="People" columns={columns} rows={rows} status="ready" />);
    const [name, email, phone] = screen.getAllByRole('columnheader');
    const [nameCell, emailCell, phoneCell] = within(screen.getAllByRole('row')[1]).getAllByRole('cell');
    expect(name).not.toHaveClass('hidden');
    expect(nameCell).not.toHaveClass('hidden');
    for (const cell of [email, emailCell]) expect(cell).toHaveClass('hidden', '@[40rem]:table-cell');
    for (const cell of [phone, phoneCell]) expect(cell).toHaveClass('hidden', '@[58rem]:table-cell');
    expect(container.firstElementChild).toHaveClass('@container');
    // Headers never wrap, rows or no rows.
    for (const header of screen.getAllByRole('columnheader')) expect(header).toHaveClass('whitespace-nowrap');
  });

  it('offer Retry when the list failed, and the given action when it is empty', async () => {
    const onRetry = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(<DataTable caption="People" columns={columns} rows={[]} status="error" onRetry={onRetry} />);
    expect(screen.getByText("We've lost the connection")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalled();
    rerender(<DataTable caption="People" columns={columns} rows={[]} status="ready" emptyAction={<button type="button">Clear filters</button>} />);
    expect(screen.getByText('No information found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeInTheDocument();
  });

  it('keeps a blocked row out of the selection and says why', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    const two = [...rows, { id: 2, name: 'Bob', phone: '', email: 'bob@example.com' }];
    render(
      <DataTable
        caption="People"
        columns={columns}
        rows={two}
        status="ready"
        selection={{ selected: new Set([7]), onChange, blockedReason: (row) => (row.id === 1 ? 'You cannot delete your own account' : undefined) }}
      />,
    );
    expect(screen.getByRole('checkbox', { name: 'Select row 1' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Select row 1' })).toHaveAccessibleDescription('You cannot delete your own account');
    // Select all takes this page's selectable rows and keeps those chosen on other pages (7).
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    expect(onChange).toHaveBeenCalledWith(new Set([7, 2]));
  });
});

describe('DataTable squeezing into its card', () => {
  type Row = { id: number; name: string; email: string };
  const columns: TableColumn<Row>[] = [
    { key: 'name', header: 'Full name', render: (row) => row.name, text: (row) => row.name },
    { key: 'email', header: 'Email', render: (row) => row.email, text: (row) => row.email, minWidth: '8rem' },
  ];
  const rows: Row[] = [{ id: 1, name: 'Ada', email: 'ada.lovelace@analytical-engine.test' }];

  it('wraps its headers first, then lets an e-mail column give up its room, and takes both back when the card grows', async () => {
    const size = { card: 1000, content: 1200 };
    let observed: () => void = () => {};
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          observed = callback;
        }
        observe() {}
        disconnect() {}
      },
    );
    vi.stubGlobal('matchMedia', () => ({ matches: true }));
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => size.card);
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => size.content);
    render(<DataTable caption="People" columns={columns} rows={rows} status="ready" />);
    const header = () => screen.getByRole('columnheader', { name: 'Email' });
    const room = () => (header().firstElementChild as HTMLElement).style.minWidth;
    expect(header()).toHaveClass('whitespace-nowrap');
    expect(room()).toBe('8rem');

    // Too wide: the headers wrap; still too wide, the e-mail's room goes too (without another resize to report it).
    act(() => observed());
    expect(header()).toHaveClass('whitespace-normal');
    await waitFor(() => expect(room()).toBe(''));
    // It fits now, and stays so while the card keeps its width.
    size.content = 1000;
    act(() => observed());
    expect(room()).toBe('');
    // A wider card than the one it squeezed in: everything as declared again.
    size.card = 1300;
    act(() => observed());
    expect(header()).toHaveClass('whitespace-nowrap');
    expect(room()).toBe('8rem');
  });
});
