import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_IMAGE } from '../lib/cdn';
import { localDayEnd, localDayStart } from '../lib/dates';
import { emptyPhone } from '../lib/phone';
import { ApiError } from '../lib/api';
import { decimalBetween, eachRow, required, type Schema } from '../lib/validation';
import { captureDownloads, json, mockApi, signedIn } from '../testing/api';
import { DATE_RANGE_MESSAGES, ExportControl } from './ExportControl';
import { AsyncPicker, PICKER_PAGE_SIZE } from './form/AsyncPicker';
import { IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE, ImagePicker, type ImageValue } from './form/ImagePicker';
import type { FieldDef, PickerLoader } from './form/types';
import { serverFieldErrors, splitServerErrors } from './form/useForm';
import { FormDialog } from './FormDialog';
import { DataTable, textColumnShares, type TableColumn } from './DataTable';
import { pageWindow } from './Pagination';
import { SafeImage } from './SafeImage';

describe('SafeImage', () => {
  it('prefixes CDN paths and falls back to the default logo when the image breaks', () => {
    render(<SafeImage path="cdn/12.png" alt="logo" />);
    const image = screen.getByRole('img', { name: 'logo' });
    expect(image).toHaveAttribute('src', '/cdn/12.png');
    fireEvent.error(image);
    expect(image).toHaveAttribute('src', DEFAULT_IMAGE);
  });

  it('uses the default logo when there is no image', () => {
    render(<SafeImage path={null} alt="none" />);
    expect(screen.getByRole('img', { name: 'none' })).toHaveAttribute('src', DEFAULT_IMAGE);
  });
});

describe('DataTable text columns', () => {
  type Row = { id: number; name: string; email: string; phone: string };
  const columns: TableColumn<Row>[] = [
    { key: 'name', header: 'Name', render: (row) => row.name, text: (row) => row.name },
    { key: 'email', header: 'Email', render: (row) => row.email, text: (row) => row.email },
    { key: 'phone', header: 'Phone number', render: (row) => row.phone },
  ];
  const rows: Row[] = [
    { id: 1, name: 'Ali', email: 'gulnara.mammadova-huseynzade@bravo-supermarket.test', phone: '+994 55 300 33 44' },
    { id: 2, name: 'Gülnarə Məmmədova', email: 'a@b.test', phone: '+994 50 200 11 22' },
  ];

  it('share the free width by their declared widths (16 characters unless declared), never by the rows; other columns take none', () => {
    expect(textColumnShares(columns)).toEqual(new Map([['name', '50.00%'], ['email', '50.00%']]));
    expect(textColumnShares([columns[0], { ...columns[1], width: 48 }, columns[2]])).toEqual(
      new Map([['name', '25.00%'], ['email', '75.00%']]),
    );
  });

  it('never cuts an e-mail: it wraps, after its @ and dots first', () => {
    render(<DataTable caption="People" columns={columns} rows={rows} status="ready" />);
    const cell = screen.getAllByRole('cell')[1];
    expect(cell).toHaveTextContent(rows[0].email);
    const whole = cell.firstElementChild as HTMLElement;
    expect(whole).not.toHaveClass('truncate');
    expect(whole).toHaveClass('whitespace-normal');
    expect(whole.innerHTML).toBe('gulnara.<wbr>mammadova-huseynzade<wbr>@bravo-supermarket.<wbr>test');
  });

  it('cuts the text with the whole of it on hover, and keeps a sort icon right after a wrapped label', () => {
    render(<DataTable caption="People" columns={[columns[0], columns[1], { ...columns[2], sortField: 'phone' }]} rows={rows} status="ready" onSort={() => {}} />);
    const cut = screen.getByText(rows[1].name);
    expect(cut).toHaveAttribute('title', rows[1].name);
    expect(cut).toHaveClass('truncate');
    expect(cut.closest('td')?.style.getPropertyValue('--share')).toBe('');
    expect(screen.getAllByRole('columnheader')[1].style.getPropertyValue('--share')).toBe('50.00%');
    const header = screen.getByRole('columnheader', { name: 'Phone number' });
    expect(header).toHaveAttribute('aria-sort', 'none');
    const sort = within(header).getByRole('button', { name: 'Phone number' });
    expect(sort).toHaveAttribute('aria-description', 'Sort by Phone number');
    expect(sort).not.toHaveClass('inline-flex');
    expect(sort.querySelector('svg')).toHaveClass('inline-block');
    // The last word and the icon never break apart.
    expect(sort.querySelector('svg')?.parentElement).toHaveClass('whitespace-nowrap');
    expect(sort.querySelector('svg')?.parentElement).toHaveTextContent(/^number$/);
    expect(sort).toHaveTextContent('Phone number');
  });
});

describe('pageWindow', () => {
  it('keeps first, last and the neighbours of the current page', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageWindow(10, 10)).toEqual([1, 'gap', 9, 10]);
  });
});

describe('ImagePicker', () => {
  function Harness({ initial, onChange }: { initial: ImageValue; onChange: (value: ImageValue) => void }) {
    const [value, setValue] = useState(initial);
    const change = (next: ImageValue) => {
      setValue(next);
      onChange(next);
    };
    return <ImagePicker id="image" value={value} onChange={change} onBlur={() => undefined} invalid={false} />;
  }
  const png = new File(['png'], 'logo.png', { type: 'image/png' });

  it('accepts only the image types the server takes, at most 5 MB, with the server messages', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ applyAccept: false });
    render(<Harness initial={null} onChange={onChange} />);
    const input = screen.getByLabelText('Choose image');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp,image/gif');

    await user.upload(input, new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }));
    expect(screen.getByText(IMAGE_TYPE_MESSAGE)).toBeInTheDocument();
    await user.upload(input, new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(screen.getByText(IMAGE_TYPE_MESSAGE)).toBeInTheDocument();
    const huge = new File(['x'], 'huge.png', { type: 'image/png' });
    Object.defineProperty(huge, 'size', { value: 5 * 1024 * 1024 + 1 });
    await user.upload(input, huge);
    expect(screen.getByText(IMAGE_SIZE_MESSAGE)).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();

    await user.upload(input, png);
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(png));
    expect(screen.queryByText(IMAGE_SIZE_MESSAGE)).not.toBeInTheDocument();
    expect(await screen.findByText('logo.png')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(screen.getByText('No image selected')).toBeInTheDocument();
  });

  it('shows the stored image, previews a new choice, and removing the choice brings the stored image back', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    URL.createObjectURL = () => 'blob:new-logo';
    URL.revokeObjectURL = () => undefined;
    render(<Harness initial="cdn/3.webp" onChange={onChange} />);
    expect(screen.getByRole('img', { name: 'Image preview' })).toHaveAttribute('src', '/cdn/3.webp');
    // The stored image cannot be deleted through the API, so only a new choice offers Remove.
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();

    await user.upload(screen.getByLabelText('Change image'), png);
    // The choice is taken once the file is known to decode (a moment later).
    await waitFor(() => expect(screen.getByRole('img', { name: 'Image preview' })).toHaveAttribute('src', 'blob:new-logo'));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onChange).toHaveBeenLastCalledWith('cdn/3.webp');
    expect(screen.getByRole('img', { name: 'Image preview' })).toHaveAttribute('src', '/cdn/3.webp');
  });

  it('refuses a file with an image name that the browser cannot decode, when it is chosen', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    // The test's decoder refuses the file named as notes, as a browser refuses text renamed .png.
    const decode = vi.fn(async (file: File) => {
      if (file.name === 'notes.png') throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
      return { close: () => undefined };
    });
    vi.stubGlobal('createImageBitmap', decode);
    try {
      render(<Harness initial={null} onChange={onChange} />);
      await user.upload(screen.getByLabelText('Choose image'), new File(['not a picture'], 'notes.png', { type: 'image/png' }));
      expect(await screen.findByText(IMAGE_TYPE_MESSAGE)).toBeInTheDocument();
      expect(onChange).not.toHaveBeenCalled();
      await user.upload(screen.getByLabelText('Choose image'), new File(['\x89PNG'], 'logo.png', { type: 'image/png' }));
      await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
      expect(screen.queryByText(IMAGE_TYPE_MESSAGE)).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('AsyncPicker', () => {
  it('loads 30 at a time, loads more at the end of the list, and searches', async () => {
    const all = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, label: `City ${i + 1}` }));
    const load = vi.fn<PickerLoader>(async (search, skip, take) => {
      const matching = all.filter((item) => item.label.includes(search));
      return { items: matching.slice(skip, skip + take), total: matching.length };
    });
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<AsyncPicker id="city" value={null} onChange={onChange} onBlur={() => undefined} invalid={false} load={load} />);

    await user.click(screen.getByRole('combobox'));
    await waitFor(() => expect(load).toHaveBeenCalledWith('', 0, PICKER_PAGE_SIZE, expect.any(AbortSignal)));
    const list = await screen.findByRole('listbox');
    expect(await within(list).findAllByRole('option')).toHaveLength(30);

    Object.defineProperties(list, { scrollHeight: { value: 1000 }, clientHeight: { value: 200 }, scrollTop: { value: 800, writable: true } });
    fireEvent.scroll(list);
    await waitFor(() => expect(load).toHaveBeenCalledWith('', 30, PICKER_PAGE_SIZE, expect.any(AbortSignal)));
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(45));

    await user.type(screen.getByRole('combobox'), 'City 4');
    await waitFor(() => expect(load).toHaveBeenLastCalledWith('City 4', 0, PICKER_PAGE_SIZE, expect.any(AbortSignal)));
    await user.click(await screen.findByRole('option', { name: 'City 42' }));
    expect(onChange).toHaveBeenCalledWith({ id: 42, label: 'City 42' });
  });
});

describe('FormDialog with the extensible field kinds', () => {
  interface BranchValues {
    name: string;
    phone: ReturnType<typeof emptyPhone>;
    promo: boolean;
    version: string;
    cities: Record<string, unknown>[];
  }
  const rowMessage = 'Address and Latitude are required.';
  const rowSchema: Schema<Record<string, unknown>> = {
    address: [required(rowMessage)],
    latitude: [required(rowMessage), decimalBetween(-90, 90, 'Latitude must be a number between -90 and 90.')],
  };
  const fields: FieldDef<BranchValues>[] = [
    { name: 'name', label: { raw: 'Name' }, kind: 'text' },
    { name: 'phone', label: { raw: 'Phone' }, kind: 'phone' },
    { name: 'promo', label: { raw: 'Promo codes' }, kind: 'switch', updates: (on) => (on ? {} : { version: '' }) },
    {
      name: 'version',
      label: { raw: 'Version' },
      kind: 'radio',
      options: [
        { value: '1', label: { raw: 'One' } },
        { value: '2', label: { raw: 'Two' } },
      ],
      visibleWhen: (values) => values.promo,
    },
    {
      name: 'cities',
      label: { raw: 'Cities' },
      kind: 'rows',
      addLabel: { raw: 'Add city' },
      rowLabel: { raw: 'City' },
      newRow: () => ({ address: '', latitude: '' }),
      rowSchema,
      fields: [
        { name: 'address', label: { raw: 'Address' }, kind: 'text' },
        { name: 'latitude', label: { raw: 'Latitude' }, kind: 'text', inputMode: 'decimal' },
      ],
    },
  ];
  const schema: Schema<BranchValues> = {
    name: [required('Name is required')],
    version: [(version, values) => (values.promo && !version ? 'Choose a version.' : undefined)],
    cities: [eachRow(rowSchema)],
  };
  const empty = (): BranchValues => ({ name: '', phone: emptyPhone(), promo: false, version: '', cities: [] });

  function renderForm(submit: (values: BranchValues) => Promise<unknown>, extra: { onSuccess?: () => void; onClose?: () => void } = {}) {
    render(
      <FormDialog
        open
        onClose={extra.onClose ?? (() => undefined)}
        title="Create"
        fields={fields}
        schema={schema}
        initialValues={empty()}
        serverErrorAliases={{ cityId: 'cities' }}
        submit={submit}
        onSuccess={extra.onSuccess}
      />,
    );
    return within(screen.getByRole('dialog', { name: 'Create' }));
  }

  it('edits repeating rows, marks the row inputs that break the row rules, and keeps the dialog open on a server error', async () => {
    const submit = vi.fn().mockRejectedValueOnce(new Error('Name already taken.')).mockResolvedValueOnce({});
    const onSuccess = vi.fn();
    const onClose = vi.fn();
    const user = userEvent.setup();
    const dialog = renderForm(submit, { onSuccess, onClose });
    await user.type(dialog.getByLabelText('Name'), 'Gold');
    await user.click(dialog.getByRole('button', { name: 'Add city' }));
    await user.click(dialog.getByRole('button', { name: 'Add city' }));
    expect(dialog.getAllByLabelText('Address')).toHaveLength(2);
    await user.click(dialog.getByRole('button', { name: 'Remove City 2' }));
    await user.type(dialog.getByLabelText('Address'), 'Nizami 1');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(dialog.getByText(rowMessage)).toBeInTheDocument();
    expect(dialog.getByLabelText('Latitude')).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.getByLabelText('Address')).not.toHaveAttribute('aria-invalid');
    await user.type(dialog.getByLabelText('Latitude'), '91');
    expect(dialog.getByText('Latitude must be a number between -90 and 90.')).toBeInTheDocument();
    await user.clear(dialog.getByLabelText('Latitude'));
    await user.type(dialog.getByLabelText('Latitude'), '40.4');
    expect(dialog.getByLabelText('Latitude')).not.toHaveAttribute('aria-invalid');
    await user.click(dialog.getByRole('button', { name: 'Save' }));

    expect(await dialog.findByText('Name already taken.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
    expect(submit).toHaveBeenLastCalledWith({ ...empty(), name: 'Gold', cities: [{ address: 'Nizami 1', latitude: '40.4' }] });

    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('shows a dependent choice only while its switch is on, and turning the switch off clears it', async () => {
    const submit = vi.fn().mockResolvedValue({});
    const user = userEvent.setup();
    const dialog = renderForm(submit);
    await user.type(dialog.getByLabelText('Name'), 'Gold');
    expect(dialog.queryByRole('radiogroup', { name: 'Version' })).not.toBeInTheDocument();
    await user.click(dialog.getByRole('switch', { name: 'Promo codes' }));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(dialog.getByText('Choose a version.')).toBeInTheDocument();
    await user.click(within(dialog.getByRole('radiogroup', { name: 'Version' })).getByRole('radio', { name: 'Two' }));
    expect(dialog.queryByText('Choose a version.')).not.toBeInTheDocument();
    await user.click(dialog.getByRole('switch', { name: 'Promo codes' }));
    expect(dialog.queryByRole('radiogroup')).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(submit).toHaveBeenCalledWith({ ...empty(), name: 'Gold', promo: false, version: '' }));
  });

  it("puts the server's per-field messages under their fields (row keys and aliases included) until the field changes", async () => {
    const refusal = new ApiError(400, 'Name is taken', { Name: 'Name is taken', cityId: 'Cities is required', unknownKey: 'x' });
    const submit = vi.fn().mockRejectedValueOnce(refusal);
    const user = userEvent.setup();
    const dialog = renderForm(submit);
    await user.type(dialog.getByLabelText('Name'), 'Gold');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    // Said once, under the field; the alert keeps only what no field takes.
    expect(await dialog.findByRole('alert')).toHaveTextContent(/^x$/);
    expect(dialog.getByLabelText('Name')).toHaveAccessibleDescription('Name is taken');
    expect(dialog.getByRole('group', { name: 'Cities' })).toHaveAccessibleDescription('Cities is required');
    await user.type(dialog.getByLabelText('Name'), ' Ltd');
    expect(dialog.getByLabelText('Name')).not.toHaveAccessibleDescription();
    expect(dialog.getByRole('group', { name: 'Cities' })).toHaveAccessibleDescription('Cities is required');
  });

  it("clears the server's alert and field message once the field it concerned changes (a taken name; errors.file of a refused upload alike)", async () => {
    const submit = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(409, 'A partner with this name already exists.', { NAME: 'A partner with this name already exists.' }))
      .mockResolvedValueOnce({});
    const user = userEvent.setup();
    const dialog = renderForm(submit);
    await user.type(dialog.getByLabelText('Name'), 'Gold');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    // The message belongs to Name: it shows there once, not also in an alert.
    await waitFor(() => expect(dialog.getByLabelText('Name')).toHaveAccessibleDescription('A partner with this name already exists.'));
    expect(dialog.queryByRole('alert')).not.toBeInTheDocument();
    // Another field leaves it in place; the named one clears it.
    await user.click(dialog.getByRole('switch', { name: 'Promo codes' }));
    expect(dialog.getByLabelText('Name')).toHaveAccessibleDescription('A partner with this name already exists.');
    await user.click(dialog.getByRole('switch', { name: 'Promo codes' }));
    await user.type(dialog.getByLabelText('Name'), ' Ltd');
    expect(dialog.queryByRole('alert')).not.toBeInTheDocument();
    expect(dialog.getByLabelText('Name')).not.toHaveAccessibleDescription();
  });

  it('keeps the alert while a named field is unchanged, or while it carries keys no field takes, or names no field', async () => {
    const submit = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(400, 'Validation failed.', { name: 'Name is too long', cityId: 'Cities is required' }))
      .mockRejectedValueOnce(new ApiError(400, 'Validation failed.', { name: 'Name is too long', 'branches[0].address': 'Address is required' }))
      .mockRejectedValueOnce(new ApiError(500, 'Something went wrong.'));
    const user = userEvent.setup();
    const dialog = renderForm(submit);
    await user.type(dialog.getByLabelText('Name'), 'Gold');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Validation failed.');
    await user.type(dialog.getByLabelText('Name'), '!');
    expect(dialog.getByRole('alert')).toHaveTextContent('Validation failed.');
    await user.click(dialog.getByRole('button', { name: 'Add city' }));
    expect(dialog.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Remove City 1' }));

    // A key no field takes stays in the alert, after the alert's message.
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dialog.getByRole('alert')).toHaveTextContent('Validation failed. Address is required'));
    await user.type(dialog.getByLabelText('Name'), '!');
    expect(dialog.getByRole('alert')).toHaveTextContent('Validation failed. Address is required');

    // A refusal that names no field stays until the next submit.
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dialog.getByRole('alert')).toHaveTextContent('Something went wrong.'));
    await user.type(dialog.getByLabelText('Name'), '!');
    expect(dialog.getByRole('alert')).toHaveTextContent('Something went wrong.');
  });
});

describe('splitServerErrors', () => {
  it('hands each key to its field (any case) and keeps the keys no field takes, once each', () => {
    expect(
      splitServerErrors({ Email: 'taken', FILE: 'Not an image', 'cities[0].address': 'Address is required', 'other[1]': 'Address is required' }, ['email', 'file'], {}),
    ).toEqual({ fields: { email: 'taken', file: 'Not an image' }, unmatched: ['Address is required'] });
  });
});

describe('serverFieldErrors', () => {
  it('matches field names in any case, row keys to their group, aliases, and keeps the first message per field', () => {
    expect(
      serverFieldErrors(
        { PhoneNumber: 'Phone number is required', 'cities[1].latitude': 'Latitude must be a number between -90 and 90.', 'cities[0].address': 'x', cityId: 'Cities is required', other: 'ignored' },
        ['phoneNumber', 'cities', 'name'],
        { cityId: 'cities' },
      ),
    ).toEqual({ phoneNumber: 'Phone number is required', cities: 'Latitude must be a number between -90 and 90.' });
  });
});

describe('ExportControl', () => {
  function streamOf(chunks: string[]) {
    const bytes = chunks.map((chunk) => new TextEncoder().encode(chunk));
    return new ReadableStream<Uint8Array>({
      start(controller) {
        bytes.forEach((chunk) => controller.enqueue(chunk));
        controller.close();
      },
    });
  }

  it('asks for a date range, reports real progress from Content-Length and saves the server-named file', async () => {
    signedIn();
    const api = mockApi({
      'GET /api/humanResource/export': () =>
        new Response(streamOf(['12345', '67890']), {
          headers: { 'Content-Length': '10', 'Content-Disposition': 'attachment; filename="HumanResources.xlsx"' },
        }),
    });
    const saved = captureDownloads();
    const user = userEvent.setup();
    render(
      <ExportControl
        spec={{ fileName: 'HR.xlsx', dateRange: { startParam: 'startDate', endParam: 'endDate' } }}
        basePath="humanResource"
        filterQuery={{ AssetName: 'Bank' }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Export Excel' }));
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    expect(dialog.getByText(DATE_RANGE_MESSAGES.startRequired)).toBeInTheDocument();
    expect(dialog.getByText(DATE_RANGE_MESSAGES.endRequired)).toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText('Start date'), { target: { value: '2024-01-31' } });
    fireEvent.change(dialog.getByLabelText('End date'), { target: { value: '2024-01-01' } });
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    expect(dialog.getByText(DATE_RANGE_MESSAGES.endBeforeStart)).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
    fireEvent.change(dialog.getByLabelText('Start date'), { target: { value: '2024-01-01' } });
    fireEvent.change(dialog.getByLabelText('End date'), { target: { value: '2024-01-31' } });
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual(['HumanResources.xlsx']));
    // The browser's days as instants: the start day's local midnight, and the one after the end day.
    expect(Object.fromEntries(api.calls[0].url.searchParams)).toEqual({ AssetName: 'Bank', startDate: localDayStart('2024-01-01'), endDate: localDayEnd('2024-01-31') });
    expect(api.calls[0].url.searchParams.get('endDate')).toMatch(/^2024-02-01T00:00:00[+-]\d\d:\d\d$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the date-range dialog open with the server message when the export fails', async () => {
    signedIn();
    mockApi({ 'GET /api/humanResource/export': () => json({ message: 'Export failed.' }, 500) });
    const user = userEvent.setup();
    render(
      <ExportControl spec={{ fileName: 'HumanResources.xlsx', dateRange: { startParam: 'startDate', endParam: 'endDate' } }} basePath="humanResource" filterQuery={{}} />,
    );
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Export Excel' }));
    fireEvent.change(dialog.getByLabelText('Start date'), { target: { value: '2024-01-01' } });
    fireEvent.change(dialog.getByLabelText('End date'), { target: { value: '2024-01-01' } });
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Export failed.');
    expect(dialog.getByRole('button', { name: 'Download' })).toBeEnabled();
  });

  it('shows the download progress bar while the stream arrives', async () => {
    signedIn();
    let push: (chunk: string) => void = () => undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (chunk) => controller.enqueue(new TextEncoder().encode(chunk));
      },
    });
    mockApi({ 'GET /api/user/export': () => new Response(stream, { headers: { 'Content-Length': '8' } }) });
    const user = userEvent.setup();
    render(<ExportControl spec={{ fileName: 'Users.xlsx' }} basePath="user" filterQuery={{}} />);
    await user.click(screen.getByRole('button', { name: 'Export' }));
    push('1234');
    const bar = await screen.findByRole('progressbar', { name: 'Downloading… 50%' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
  });

  it('shows a failed export', async () => {
    signedIn();
    mockApi({ 'GET /api/user/export': () => json({ message: 'Export failed.' }, 500) });
    const user = userEvent.setup();
    render(<ExportControl spec={{ fileName: 'Users.xlsx' }} basePath="user" filterQuery={{}} />);
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Export failed.');
  });
});
