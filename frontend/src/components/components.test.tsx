import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_IMAGE } from '../lib/cdn';
import { emptyPhone } from '../lib/phone';
import { required, type Schema } from '../lib/validation';
import { json, mockApi, signedIn } from '../testing/api';
import { ExportControl } from './ExportControl';
import { AsyncPicker, PICKER_PAGE_SIZE } from './form/AsyncPicker';
import { ImagePicker, ONLY_IMAGES_MESSAGE, type ImageValue } from './form/ImagePicker';
import type { FieldDef, PickerLoader } from './form/types';
import { FormDialog } from './FormDialog';
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

describe('pageWindow', () => {
  it('keeps first, last and the neighbours of the current page', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageWindow(10, 10)).toEqual([1, 'gap', 9, 10]);
  });
});

describe('ImagePicker', () => {
  function Harness({ initial, onChange }: { initial: ImageValue; onChange: (value: ImageValue) => void }) {
    return <ImagePicker id="image" value={initial} onChange={onChange} onBlur={() => undefined} invalid={false} />;
  }

  it('accepts images only and previews the existing one with a Remove button', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ applyAccept: false });
    render(<Harness initial="cdn/3.webp" onChange={onChange} />);
    expect(screen.getByRole('img', { name: 'Image preview' })).toHaveAttribute('src', '/cdn/3.webp');
    expect(screen.getByLabelText('Change image')).toHaveAttribute('accept', 'image/*');

    await user.upload(screen.getByLabelText('Change image'), new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }));
    expect(screen.getByText(ONLY_IMAGES_MESSAGE)).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();

    const png = new File(['png'], 'logo.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Change image'), png);
    expect(onChange).toHaveBeenLastCalledWith(png);

    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
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
  interface PartnerValues {
    name: string;
    phone: ReturnType<typeof emptyPhone>;
    promo: boolean;
    cities: Record<string, unknown>[];
  }
  const fields: FieldDef<PartnerValues>[] = [
    { name: 'name', label: { raw: 'Name' }, kind: 'text' },
    { name: 'phone', label: { raw: 'Phone' }, kind: 'phone' },
    { name: 'promo', label: { raw: 'Promo codes' }, kind: 'switch' },
    {
      name: 'cities',
      label: { raw: 'City' },
      kind: 'rows',
      addLabel: { raw: 'Add city' },
      newRow: () => ({ address: '', latitude: '' }),
      fields: [
        { name: 'address', label: { raw: 'Address' }, kind: 'text' },
        { name: 'latitude', label: { raw: 'Latitude' }, kind: 'text', inputMode: 'decimal' },
      ],
    },
  ];
  const schema: Schema<PartnerValues> = {
    name: [required('Name is required')],
    cities: [
      (rows) =>
        (rows as Record<string, unknown>[]).some((row) => !row.address || !row.latitude)
          ? 'Address, Latitude and Longitude fields are required.'
          : undefined,
    ],
  };

  it('edits repeating rows and a switch, validates the group, and keeps the dialog open on a server error', async () => {
    const submit = vi.fn().mockRejectedValueOnce(new Error('Name already taken.')).mockResolvedValueOnce({});
    const onSuccess = vi.fn();
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(
      <FormDialog
        open
        onClose={onClose}
        title="Create"
        fields={fields}
        schema={schema}
        initialValues={{ name: '', phone: emptyPhone(), promo: false, cities: [] }}
        submit={submit}
        onSuccess={onSuccess}
      />,
    );
    const dialog = within(screen.getByRole('dialog', { name: 'Create' }));
    await user.type(dialog.getByLabelText('Name'), 'Gold');
    await user.click(dialog.getByRole('switch', { name: 'Promo codes' }));
    await user.click(dialog.getByRole('button', { name: 'Add city' }));
    await user.click(dialog.getByRole('button', { name: 'Add city' }));
    expect(dialog.getAllByLabelText('Address')).toHaveLength(2);
    await user.click(dialog.getByRole('button', { name: 'Remove 2' }));
    await user.type(dialog.getByLabelText('Address'), 'Nizami 1');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(dialog.getByText('Address, Latitude and Longitude fields are required.')).toBeInTheDocument();
    await user.type(dialog.getByLabelText('Latitude'), '40.4');
    await user.click(dialog.getByRole('button', { name: 'Save' }));

    expect(await dialog.findByText('Name already taken.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
    expect(submit).toHaveBeenLastCalledWith({ name: 'Gold', phone: emptyPhone(), promo: true, cities: [{ address: 'Nizami 1', latitude: '40.4' }] });

    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSuccess).toHaveBeenCalledTimes(1);
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
    const saved: string[] = [];
    URL.createObjectURL = () => 'blob:x';
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
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
    expect(dialog.getByRole('button', { name: 'Download' })).toBeDisabled();
    fireEvent.change(dialog.getByLabelText('Start date'), { target: { value: '2024-01-01' } });
    fireEvent.change(dialog.getByLabelText('End date'), { target: { value: '2024-01-31' } });
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual(['HumanResources.xlsx']));
    expect(Object.fromEntries(api.calls[0].url.searchParams)).toEqual({ AssetName: 'Bank', startDate: '2024-01-01', endDate: '2024-01-31' });
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
