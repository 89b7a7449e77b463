import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/validation';
import { captureDownloads, json, mockApi, pageOf, queryOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import MerchantsPage from './MerchantsPage';
import { createPayload, editPayload, emptyMerchant, merchantSchema, merchantValuesOf, type MerchantRow, type MerchantValues } from './schemas';

const rows: MerchantRow[] = [
  {
    id: 1,
    firstName: 'Rəşad',
    lastName: 'Əliyev',
    email: 'resad@bulvar.az',
    phone: '994501234567',
    partnerName: 'Bulvar Kafe',
    userName: 'resad@bulvar.az',
    partnerCityName: 'Bakı, Nizami küç. 5',
  },
  {
    id: 2,
    firstName: 'Səbinə',
    lastName: 'Hüseynova',
    email: 'sabina@qala.az',
    phone: '994702223344',
    partnerName: 'Qala Kafe',
    userName: 'sabina@qala.az',
    partnerCityName: 'Şəki, M. Ə. Rəsulzadə 12',
  },
];
const detail = { ...rows[0], partnerId: 7, partnerCityId: 71, createdAt: '2026-11-20T10:00:00Z' };
const branches = {
  7: [
    { id: 71, cityId: 1, cityName: 'Bakı', address: 'Nizami küç. 5', latitude: 40.4, longitude: 49.8 },
    { id: 72, cityId: 2, cityName: 'Gəncə', address: 'Atatürk pr. 3', latitude: 40.6, longitude: 46.3 },
  ],
  8: [{ id: 81, cityId: 3, cityName: 'Şəki', address: 'M. Ə. Rəsulzadə 12', latitude: 41.2, longitude: 47.1 }],
} as const;

function setup() {
  signedIn();
  const api = mockApi({
    'GET /api/partner/merchant': pageOf(rows),
    'GET /api/partner/merchant/filter': pageOf([rows[1]]),
    'GET /api/partner/merchant/1': () => json(detail),
    'POST /api/partner/merchant': () => json(rows[0], 201),
    'PUT /api/partner/merchant': () => json(rows[0]),
    'GET /api/partner/filter': pageOf([
      { id: 7, name: 'Bulvar Kafe' },
      { id: 8, name: 'Qala Kafe' },
    ]),
    'GET /api/partner/cities/7': () => json({ data: branches[7], totalCount: 2 }),
    'GET /api/partner/cities/8': () => json({ data: branches[8], totalCount: 1 }),
    'GET /api/partner/merchant/export': () => new Response(new Blob(['xlsx']), { headers: { 'Content-Length': '4' } }),
  });
  renderAt('/merchants', <MerchantsPage />);
  return { api, user: userEvent.setup() };
}

describe('merchant form rules (create and edit)', () => {
  const valid: MerchantValues = {
    firstName: 'Rəşad',
    lastName: 'Əliyev',
    email: 'resad@bulvar.az',
    phone: { code: '070', number: '555 44 33' },
    partnerId: { id: 7, label: 'Bulvar Kafe' },
    partnerCityId: '72',
  };
  const errorsOf = (change: Partial<MerchantValues>) => validate(merchantSchema, { ...valid, ...change });

  it('accepts a complete form and asks for every field of an empty one with the spec messages', () => {
    expect(errorsOf({})).toEqual({});
    expect(validate(merchantSchema, emptyMerchant())).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      phone: 'Phone is required',
      partnerId: 'Partner Id is required',
      partnerCityId: 'Partner City Id is required',
    });
  });

  it.each([
    [{ firstName: '  ' }, 'firstName', 'First name is required'],
    [{ lastName: '' }, 'lastName', 'Last name is required'],
    [{ email: 'r@' }, 'email', 'Minimum 3 symbols'],
    [{ email: `${'r'.repeat(45)}@bulvar.az` }, 'email', 'Maximum 50 symbols'],
    [{ email: 'resad@bulvar' }, 'email', 'Wrong email format. E.g. name@example.com'],
    [{ phone: { code: '050', number: '' } }, 'phone', 'Phone is required'],
    [{ phone: { code: '050', number: '555 4' } }, 'phone', 'Phone number must consist of 7 digits'],
    [{ partnerId: null }, 'partnerId', 'Partner Id is required'],
    [{ partnerCityId: '' }, 'partnerCityId', 'Partner City Id is required'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change as Partial<MerchantValues>)[field]).toBe(message);
  });

  it('sends the spec payloads: phoneNumber on create, phone on edit, 994 + code without its 0 + 7 digits', () => {
    expect(createPayload({ ...valid, firstName: ' Rəşad ' })).toEqual({
      firstName: 'Rəşad',
      lastName: 'Əliyev',
      email: 'resad@bulvar.az',
      phoneNumber: '994705554433',
      partnerId: 7,
      partnerCityId: 72,
    });
    expect(editPayload(valid, { id: 1 })).toEqual({
      id: 1,
      firstName: 'Rəşad',
      lastName: 'Əliyev',
      email: 'resad@bulvar.az',
      phone: '994705554433',
      partnerId: 7,
      partnerCityId: 72,
    });
    expect(merchantValuesOf(detail)).toMatchObject({ phone: { code: '050', number: '123 45 67' }, partnerId: { id: 7, label: 'Bulvar Kafe' }, partnerCityId: '71' });
  });
});

describe('Merchants screen', () => {
  it('shows the spec columns, the Merchant filter modal (500 ms after a change) and Merchant.xlsx', async () => {
    const { api, user } = setup();
    const saved = captureDownloads();
    await screen.findByText('Rəşad');
    expect(screen.getByRole('heading', { name: 'Merchants', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      '',
      'First name',
      'Last name',
      'Email',
      'Phone number',
      'Partner name',
      'User name',
      'Partner city',
      'Actions',
    ]);
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Merchant filter' }));
    await user.type(modal.getByLabelText('Name'), 'səbinə');
    expect(api.callsTo('GET /api/partner/merchant/filter')).toHaveLength(0);
    await waitFor(() => expect(api.callsTo('GET /api/partner/merchant/filter')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/partner/merchant/filter')[0])).toMatchObject({ name: 'səbinə' });
    await user.click(modal.getByRole('combobox', { name: 'Partner' }));
    await user.click(await screen.findByRole('option', { name: 'Qala Kafe' }));
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/partner/merchant/filter').at(-1)!)).toMatchObject({ name: 'səbinə', partnerId: '8' }));
    await user.click(modal.getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('button', { name: 'Remove filter Partner: Qala Kafe' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saved).toEqual(['Merchant.xlsx']));
    expect(queryOf(api.callsTo('GET /api/partner/merchant/export')[0])).toMatchObject({ name: 'səbinə', partnerId: '8' });
  });

  it('applies a change still pending when the filter modal closes', async () => {
    const { api, user } = setup();
    await screen.findByText('Rəşad');
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Merchant filter' }));
    await user.type(modal.getByLabelText('Email'), 'qala');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(api.callsTo('GET /api/partner/merchant/filter')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/partner/merchant/filter')[0])).toMatchObject({ email: 'qala' });
  });

  it('does not apply a pending change when the page itself goes (Back while typing)', async () => {
    signedIn();
    mockApi({ 'GET /api/partner/merchant': pageOf(rows), 'GET /api/partner/merchant/filter': pageOf([rows[1]]) });
    const view = renderAt('/merchants', <MerchantsPage />);
    const user = userEvent.setup();
    await screen.findByText('Rəşad');
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Merchant filter' }));
    await user.type(modal.getByLabelText('Email'), 'qala');
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(view.memory.history).toEqual(['/merchants']);
  });

  it('creates with a partner, then one of its branches; another partner reloads and empties the branch', async () => {
    const { api, user } = setup();
    await screen.findByText('Rəşad');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = within(await screen.findByRole('dialog', { name: 'Create Merchant' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    for (const message of ['First name is required', 'Last name is required', 'Email is required', 'Phone is required', 'Partner Id is required', 'Partner City Id is required']) {
      expect(form.getByText(message)).toBeInTheDocument();
    }
    const city = form.getByLabelText('Partner city');
    expect(within(city).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a city']);
    await user.type(form.getByLabelText('First name'), 'Orxan');
    await user.type(form.getByLabelText('Last name'), 'Quliyev');
    await user.type(form.getByLabelText('Email'), 'orxan@bulvar.az');
    await user.selectOptions(form.getByLabelText('Operator code'), '055');
    await user.type(form.getByLabelText('Phone number'), '2001122');
    await user.click(await form.findByRole('combobox', { name: 'Partner' }));
    await user.click(await screen.findByRole('option', { name: 'Bulvar Kafe' }));
    await waitFor(() => expect(within(city).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a city', 'Bakı, Nizami küç. 5', 'Gəncə, Atatürk pr. 3']));
    await user.selectOptions(city, 'Gəncə, Atatürk pr. 3');
    await user.click(form.getByRole('combobox', { name: 'Partner' }));
    await user.click(await screen.findByRole('option', { name: 'Qala Kafe' }));
    await waitFor(() => expect(within(city).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a city', 'Şəki, M. Ə. Rəsulzadə 12']));
    expect(city).toHaveValue('');
    await user.selectOptions(city, 'Şəki, M. Ə. Rəsulzadə 12');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.callsTo('POST /api/partner/merchant')[0]?.body).toEqual({
        firstName: 'Orxan',
        lastName: 'Quliyev',
        email: 'orxan@bulvar.az',
        phoneNumber: '994552001122',
        partnerId: 8,
        partnerCityId: 81,
      }),
    );
  });

  it('edits with the partner fixed and shows the server refusing a branch of another partner under Partner city', async () => {
    const { api, user } = setup();
    api.fetchMock.mockClear();
    await screen.findByText('Rəşad');
    await user.click(within(screen.getByRole('row', { name: /Rəşad/ })).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit Merchant' }));
    const partner = await form.findByLabelText('Partner');
    expect(partner).toBeDisabled();
    expect(partner).toHaveValue('Bulvar Kafe');
    expect(partner).toHaveAccessibleDescription('The partner of a merchant cannot be changed.');
    const city = form.getByLabelText('Partner city');
    await waitFor(() => expect(city).toHaveValue('71'));
    await user.selectOptions(city, 'Gəncə, Atatürk pr. 3');
    const refusal = 'This city is not a branch of the chosen partner.';
    api.fetchMock.mockImplementationOnce(async () => json({ message: refusal, errors: { partnerCityId: refusal } }, 400));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(refusal)).toBeInTheDocument();
    expect(city).toHaveAccessibleDescription(refusal);
    expect(form.queryByRole('alert')).toBeNull();
  });

  it('opens Merchants details', async () => {
    const { user } = setup();
    await screen.findByText('Rəşad');
    await user.click(within(screen.getByRole('row', { name: /Rəşad/ })).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Merchants details' }));
    for (const text of ['Rəşad', 'Əliyev', '+994 50 123 45 67', 'Bulvar Kafe', 'Bakı, Nizami küç. 5']) expect(await drawer.findByText(text)).toBeInTheDocument();
  });
});
