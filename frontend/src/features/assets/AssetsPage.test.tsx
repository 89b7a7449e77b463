import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../lib/cdn';
import { admin, captureDownloads, json, mockApi, multipartOf, pageOf, queryOf, signedIn, type Handler } from '../../testing/api';
import { renderAt } from '../../testing/render';
import { expectReadOnlyList, typeInto } from '../../testing/screens';
import AssetsPage from './AssetsPage';
import type { AssetRow } from './schemas';

const makeAssets = (count: number): AssetRow[] =>
  Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    filePath: i === 1 ? null : `cdn/${i + 1}.png`,
    name: `Asset ${i + 1}`,
    contactPerson: `Contact ${i + 1}`,
    contactPersonPhoneNumber: '994558872252',
    contactPersonEmail: `asset${i + 1}@example.az`,
    barcodePrefix: `A${i + 1}`,
    isActive: i !== 2,
  }));

const logo = new File(['png-bytes'], 'logo.png', { type: 'image/png' });

function setup(path = '/assets', rows = makeAssets(3), extra: Record<string, Handler> = {}) {
  signedIn();
  const api = mockApi({ 'GET /api/asset': pageOf(rows), 'GET /api/asset/filter': pageOf(rows.slice(0, 1)), ...extra });
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => undefined;
  const view = renderAt(path, <AssetsPage />);
  return { ...view, api, user: userEvent.setup() };
}

async function openCreate(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByText('Asset 1');
  await user.click(screen.getByRole('button', { name: 'Create' }));
  return within(await screen.findByRole('dialog', { name: 'Create Asset' }));
}

/** Opens Create, fills every field validly and saves; the server's answer is the test's. */
async function submitValidCreate(user: ReturnType<typeof userEvent.setup>) {
  const form = await openCreate(user);
  await typeInto(user, form, { 'Asset name': 'Bank', 'Primary contact person name': 'Kamran', 'Phone number': '1234567', Email: 'k@bank.az', 'Barcode prefix': 'B1' });
  await user.upload(form.getByLabelText('Choose image'), logo);
  await user.click(form.getByRole('button', { name: 'Save' }));
  return form;
}

describe('Assets screen', () => {
  it("shows 'Asset list' with the spec's columns; images fall back to the default logo; the image column does not sort", async () => {
    const { api } = setup();
    expect(await screen.findByText('Asset 1')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Asset list' })).toBeInTheDocument();
    expect(queryOf(api.callsTo('GET /api/asset')[0])).toEqual({ Skip: '0', Take: '10', SortField: 'id', OrderBy: 'false' });
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers.slice(1)).toEqual(['Image', 'Asset name', 'Primary contact person name', 'Phone number', 'Email', 'Status', 'Actions']);
    expect(within(screen.getByRole('columnheader', { name: 'Image' })).queryByRole('button')).not.toBeInTheDocument();
    expect(within(screen.getByRole('columnheader', { name: 'Primary contact person name' })).getByRole('button')).toBeInTheDocument();

    const rows = screen.getAllByRole('row').slice(1);
    // Table images are decorative (alt=""): the name beside them says what they show.
    const imageOf = (row: HTMLElement) => row.querySelector('img') as HTMLImageElement;
    expect(imageOf(rows[0])).toHaveAttribute('src', '/cdn/1.png');
    expect(imageOf(rows[1])).toHaveAttribute('src', DEFAULT_IMAGE);
    fireEvent.error(imageOf(rows[0]));
    expect(imageOf(rows[0])).toHaveAttribute('src', DEFAULT_IMAGE);
    expect(within(rows[0]).getByText('+994 55 887 22 52')).toBeInTheDocument();
    expect(within(rows[0]).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['View', 'Edit', 'Delete']);
  });

  it('shows every create rule with its spec message on submit', async () => {
    const { user, api } = setup();
    const form = await openCreate(user);
    await user.click(form.getByRole('button', { name: 'Save' }));
    for (const message of ['Name is required', 'Contact person is required', 'Phone number is required', 'Email is required', 'Barcode is required', 'File is required']) {
      expect(form.getByText(message)).toBeInTheDocument();
    }
    await user.type(form.getByLabelText('Email'), 'ab');
    expect(form.getByText('Minimum 3 symbols')).toBeInTheDocument();
    await user.type(form.getByLabelText('Email'), 'c@x');
    expect(form.getByText('Wrong email format. E.g. name@example.com')).toBeInTheDocument();
    await user.type(form.getByLabelText('Barcode prefix'), 'AB-1');
    expect(form.getByText('Barcode must consist of max 3 letter or number')).toBeInTheDocument();
    expect(api.callsTo('POST /api/asset')).toHaveLength(0);
  });

  it('creates an asset with its image as multipart, closes and reloads the same page', async () => {
    const { user, api } = setup('/assets?page=1&name=Asset', makeAssets(3), { 'POST /api/asset': () => json({ id: 9 }, 201) });
    const form = await openCreate(user);
    await user.selectOptions(form.getByLabelText('Operator code'), '077');
    await typeInto(user, form, {
      'Asset name': ' Xəzər Telekom ',
      'Primary contact person name': 'Nigar Həsənova',
      'Phone number': '8020730',
      Email: 'nigar@xezertelekom.az',
      'Barcode prefix': 'XT',
    });
    await user.upload(form.getByLabelText('Choose image'), logo);
    expect(form.getByRole('img', { name: 'Image preview' })).toHaveAttribute('src', 'blob:preview');
    await user.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(multipartOf(api.callsTo('POST /api/asset')[0])).toEqual([
      ['name', 'Xəzər Telekom'],
      ['contactPerson', 'Nigar Həsənova'],
      ['phoneNumber', '994778020730'],
      ['email', 'nigar@xezertelekom.az'],
      ['file', 'File:logo.png'],
      ['barcodePrefix', 'XT'],
    ]);
    expect(api.callsTo('POST /api/asset')[0].headers.get('x-requestid')).toBeTruthy();
    await waitFor(() => expect(api.callsTo('GET /api/asset/filter')).toHaveLength(2));
    expect(queryOf(api.callsTo('GET /api/asset/filter')[1])).toMatchObject({ Skip: '0', Name: 'Asset' });
  });

  it("puts the server's refusals in the form: each error once, under its field, not again in the alert", async () => {
    const { user } = setup('/assets', makeAssets(3), {
      'POST /api/asset': () =>
        json({ message: 'Barcode must consist of max 3 letter or number', errors: { barcodePrefix: 'Barcode must consist of max 3 letter or number', phoneNumber: 'Wrong phone format. E.g. 994501234567' } }, 400),
    });
    const form = await submitValidCreate(user);

    await waitFor(() => expect(form.getByLabelText('Barcode prefix')).toHaveAccessibleDescription('Barcode must consist of max 3 letter or number'));
    expect(form.queryByRole('alert')).not.toBeInTheDocument();
    expect(form.getByLabelText('Barcode prefix')).toHaveAccessibleDescription('Barcode must consist of max 3 letter or number');
    expect(form.getByLabelText('Phone number')).toHaveAccessibleDescription('Wrong phone format. E.g. 994501234567');
    expect(form.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows an upload refusal (415) inside the form', async () => {
    const { user } = setup('/assets', makeAssets(3), {
      'POST /api/asset': () => json({ message: 'Only PNG, JPEG, WebP or GIF images are accepted.' }, 415),
    });
    const form = await submitValidCreate(user);
    expect(await form.findByRole('alert')).toHaveTextContent('Only PNG, JPEG, WebP or GIF images are accepted.');
  });

  it('edits from GET asset/{id}: without a new image no file is sent; a new image can be previewed, removed or sent', async () => {
    const rows = makeAssets(3);
    let stored = { ...rows[0], createdAt: '2026-03-01T09:30:00Z' };
    const { user, api } = setup('/assets', rows, {
      'GET /api/asset/1': () => json(stored),
      'PUT /api/asset': ({ body }) => {
        stored = { ...stored, name: String((body as FormData).get('name')) };
        return json(stored);
      },
    });
    await screen.findByText('Asset 1');
    const row = () => screen.getByRole('row', { name: /Asset 1/ });
    await user.click(within(row()).getByRole('button', { name: 'Edit' }));
    let form = within(await screen.findByRole('dialog', { name: 'Edit Asset' }));
    expect(await form.findByLabelText('Asset name')).toHaveValue('Asset 1');
    expect(form.queryByLabelText('Barcode prefix')).not.toBeInTheDocument();
    // The stored image's preview may come a render after the fields (under load, later).
    expect(await form.findByRole('img', { name: 'Image preview' })).toHaveAttribute('src', '/cdn/1.png');
    expect(form.getByLabelText('Operator code')).toHaveValue('055');

    await user.upload(form.getByLabelText('Change image'), logo);
    expect(form.getByRole('img', { name: 'Image preview' })).toHaveAttribute('src', 'blob:preview');
    await user.click(form.getByRole('button', { name: 'Remove' }));
    expect(form.getByRole('img', { name: 'Image preview' })).toHaveAttribute('src', '/cdn/1.png');
    await user.clear(form.getByLabelText('Asset name'));
    await user.type(form.getByLabelText('Asset name'), 'Asset One');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/asset')).toHaveLength(1));
    expect(multipartOf(api.callsTo('PUT /api/asset')[0])).toEqual([
      ['id', '1'],
      ['name', 'Asset One'],
      ['contactPerson', 'Contact 1'],
      ['phoneNumber', '994558872252'],
      ['email', 'asset1@example.az'],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Opening the same record again shows it as saved, not as first loaded.
    await user.click(within(row()).getByRole('button', { name: 'Edit' }));
    form = within(await screen.findByRole('dialog', { name: 'Edit Asset' }));
    expect(await form.findByLabelText('Asset name')).toHaveValue('Asset One');
    await user.upload(form.getByLabelText('Change image'), logo);
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/asset')).toHaveLength(2));
    expect(multipartOf(api.callsTo('PUT /api/asset')[1]).at(-1)).toEqual(['file', 'File:logo.png']);
  });

  it('opens the Asset details drawer with the record', async () => {
    const rows = makeAssets(3);
    const { user } = setup('/assets', rows, { 'GET /api/asset/3': () => json({ ...rows[2], createdAt: '2026-03-01T09:30:00Z' }) });
    await screen.findByText('Asset 3');
    await user.click(within(screen.getByRole('row', { name: /Asset 3/ })).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Asset details' }));
    expect(await drawer.findByText(/01-03-2026/)).toBeInTheDocument();
    expect(drawer.getByRole('img', { name: 'Asset 3' })).toHaveAttribute('src', '/cdn/3.png');
    for (const text of ['Contact 3', '+994 55 887 22 52', 'asset3@example.az', 'A3', 'Inactive']) expect(drawer.getByText(text)).toBeInTheDocument();
  });

  it('filters by Name, ContactPerson, ContactPersonPhoneNumber and ContactPersonEmail through asset/filter', async () => {
    const { user, api, currentPath } = setup();
    await screen.findByText('Asset 1');
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    const filter = within(screen.getByRole('search', { name: 'Filter' }));
    await user.type(filter.getByLabelText('Name'), 'Bank');
    await user.type(filter.getByLabelText('Contact person'), 'Kam');
    await user.type(filter.getByLabelText('Phone number'), '99455');
    await user.type(filter.getByLabelText('Email'), 'qafqaz');
    await waitFor(() => expect(currentPath()).toBe('/assets?name=Bank&contactPerson=Kam&phone=99455&email=qafqaz'));
    await waitFor(() =>
      expect(queryOf(api.callsTo('GET /api/asset/filter').at(-1)!)).toEqual({
        Skip: '0',
        Take: '10',
        SortField: 'id',
        OrderBy: 'false',
        Name: 'Bank',
        ContactPerson: 'Kam',
        ContactPersonPhoneNumber: '99455',
        ContactPersonEmail: 'qafqaz',
      }),
    );
  });

  it('toggles the status, deletes in bulk and exports Assets.xlsx with the filter', async () => {
    const { user, api } = setup('/assets', makeAssets(3), {
      'PATCH /api/asset/active': () => json({}),
      'DELETE /api/asset': () => json({ deleted: 2 }),
      'GET /api/asset/export': () => new Response(new Blob(['xlsx']), { headers: { 'Content-Length': '4' } }),
    });
    const saved = captureDownloads();
    await screen.findByText('Asset 1');
    await user.click(screen.getByRole('switch', { name: 'Change status: Asset 3' }));
    await waitFor(() => expect(api.callsTo('PATCH /api/asset/active')[0]?.body).toEqual({ id: 3, isActive: true }));

    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saved).toEqual(['Assets.xlsx']));

    await user.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    await user.click(within(screen.getByRole('group', { name: 'Table actions' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete' })).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.callsTo('DELETE /api/asset')[0]?.body).toEqual({ id: [1, 2] }));
  });

  it('shows Call Center the list and the drawer only', async () => {
    signedIn({}, { ...admin, roleId: 2 });
    mockApi({ 'GET /api/asset': pageOf(makeAssets(3)) });
    renderAt('/assets', <AssetsPage />);
    await screen.findByText('Asset 1');
    expectReadOnlyList(3);
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
  });
});
