import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { admin, captureDownloads, json, mockApi, multipartOf, pageOf, queryOf, signedIn, type Handler } from '../../testing/api';
import { renderAt } from '../../testing/render';
import { expectReadOnlyList, typeInto } from '../../testing/screens';
import PartnersPage from './PartnersPage';
import type { PartnerRow } from './schemas';

const makePartners = (count: number): PartnerRow[] =>
  Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    filePath: `cdn/${i + 10}.png`,
    name: `Partner ${i + 1}`,
    contactPerson: `Contact${i + 1} Person`,
    phoneNumber: '994707631141',
    email: `partner${i + 1}@example.az`,
    isPromoCodeUsing: i === 0,
    promoCode: i === 0 ? 'Bəli' : 'Xeyr',
    promoCodeVersion: i === 0 ? 2 : null,
    isActive: true,
  }));

const detailOf = (partner: PartnerRow): PartnerRow => ({
  ...partner,
  contactPersonFirstName: partner.contactPerson.split(' ')[0],
  contactPersonLastName: 'Person',
  createdAt: '2026-02-10T08:00:00.000Z',
  cities: [
    { id: 15, cityId: 1, cityName: 'Bakı', address: 'Dənizkənarı Milli Park', latitude: 40.3676, longitude: 49.8419 },
    { id: 16, cityId: 5, cityName: 'Lənkəran', address: 'Dəniz sahili küç. 2', latitude: 38.7529, longitude: 48.8475 },
  ],
});

const cities = [
  { id: 1, name: 'Bakı' },
  { id: 2, name: 'Gəncə' },
  { id: 5, name: 'Lənkəran' },
];

function setup(path = '/partners', rows = makePartners(3), extra: Record<string, Handler> = {}) {
  signedIn();
  const api = mockApi({
    'GET /api/partner': pageOf(rows),
    'GET /api/partner/filter': pageOf(rows.slice(0, 1)),
    'GET /api/city': (call) => pageOf(cities.filter((city) => city.name.includes(call.url.searchParams.get('Name') ?? '')))(call),
    ...extra,
  });
  const view = renderAt(path, <PartnersPage />);
  return { ...view, api, user: userEvent.setup() };
}

type User = ReturnType<typeof userEvent.setup>;
type Scope = ReturnType<typeof within>;

/** Picks a city in the row's picker; the open combobox makes the rest inert, so the element is kept. */
async function pickCity(user: User, form: Scope, row: number, city: string) {
  const picker = form.getAllByRole('combobox', { name: 'City' })[row];
  await user.click(picker);
  await user.click(await screen.findByRole('option', { name: city }));
}

async function fillRow(user: User, form: Scope, row: number, { city, ...inputs }: { city: string; Address: string; Latitude: string; Longitude: string }) {
  await pickCity(user, form, row, city);
  for (const [label, value] of Object.entries(inputs)) await user.type(form.getAllByLabelText(label)[row], value);
}

async function openCreate(user: User) {
  await screen.findByText('Partner 1');
  await user.click(screen.getByRole('button', { name: 'Create' }));
  return within(await screen.findByRole('dialog', { name: 'Create Partner' }));
}

describe('Partners screen', () => {
  it('shows the spec columns with Promokod as Bəli / Xeyr, sorted by the promo-code flag', async () => {
    const { api, user } = setup();
    await screen.findByText('Partner 1');
    expect(screen.getByRole('heading', { name: 'Partners' })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers.slice(1)).toEqual(['Image', 'Partner name', 'Contact person', 'Phone number', 'Email', 'Promokod', 'Status', 'Actions']);
    expect(within(screen.getByRole('row', { name: /Partner 1/ })).getByText('Bəli')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Partner 2/ })).getByText('Xeyr')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Partner 2/ })).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'View',
      'Edit',
      'Delete',
    ]);
    await user.click(within(screen.getByRole('columnheader', { name: 'Promokod' })).getByRole('button'));
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/partner').at(-1)!)).toMatchObject({ SortField: 'isPromoCodeUsing', OrderBy: 'true' }));
  });

  it('shows every rule with its spec message, a row at a time', async () => {
    const { user, api } = setup();
    const form = await openCreate(user);
    await user.click(form.getByRole('button', { name: 'Remove City 1' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    for (const message of [
      'Name is required',
      'Contact person firstname is required',
      'Contact person lastname is required',
      'Phone number is required',
      'Email is required',
      'Cities is required',
    ]) {
      expect(form.getByText(message)).toBeInTheDocument();
    }
    await user.click(form.getByRole('button', { name: 'Add city' }));
    await pickCity(user, form, 0, 'Bakı');
    expect(form.getByText('Address, Latitude and Longitude fields are required.')).toBeInTheDocument();
    expect(form.getByLabelText('Address')).toHaveAttribute('aria-invalid', 'true');
    expect(form.getByRole('combobox', { name: 'City' })).not.toHaveAttribute('aria-invalid');
    await user.type(form.getByLabelText('Address'), 'Nizami 1');
    await user.type(form.getByLabelText('Latitude'), '91');
    await user.type(form.getByLabelText('Longitude'), '49.8');
    expect(form.getByText('Latitude must be a number between -90 and 90.')).toBeInTheDocument();
    await user.clear(form.getByLabelText('Latitude'));
    await user.type(form.getByLabelText('Latitude'), '40.4');
    await user.clear(form.getByLabelText('Longitude'));
    await user.type(form.getByLabelText('Longitude'), '181');
    expect(form.getByText('Longitude must be a number between -180 and 180.')).toBeInTheDocument();

    await user.click(form.getByRole('switch', { name: 'Promo codes' }));
    expect(form.getByText('Choose the promo code version: Integration (1) or Static (2).')).toBeInTheDocument();
    expect(api.callsTo('POST /api/partner')).toHaveLength(0);
  });

  it('creates a partner: cities from GET city in the content language, rows added and removed, the multipart names', async () => {
    const { user, api } = setup('/partners', makePartners(3), { 'POST /api/partner': () => json({ id: 9 }, 201) });
    const form = await openCreate(user);
    await user.selectOptions(form.getByLabelText('Operator code'), '010');
    await typeInto(user, form, {
      'Partner name': 'Dadlı Market',
      'Contact person first name': 'Elvin',
      'Contact person last name': 'Quliyev',
      'Phone number': '9367033',
      Email: 'info@dadlimarket.az',
    });
    await fillRow(user, form, 0, { city: 'Bakı', Address: 'Nizami 1', Latitude: '40.4093', Longitude: '49.8671' });
    const cityCall = api.callsTo('GET /api/city')[0];
    expect(queryOf(cityCall)).toEqual({ Skip: '0', Take: '30', SortField: 'name', OrderBy: 'true' });
    expect(cityCall.headers.get('Accept-Language')).toBe('1');

    await user.click(form.getByRole('button', { name: 'Add city' }));
    await user.click(form.getByRole('button', { name: 'Add city' }));
    await user.click(form.getByRole('button', { name: 'Remove City 2' }));
    await fillRow(user, form, 1, { city: 'Gəncə', Address: 'Atatürk 5', Latitude: '40.68', Longitude: '46.36' });
    await user.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(multipartOf(api.callsTo('POST /api/partner')[0])).toEqual([
      ['name', 'Dadlı Market'],
      ['contactPersonFirstName', 'Elvin'],
      ['contactPersonLastName', 'Quliyev'],
      ['phoneNumber', '994109367033'],
      ['email', 'info@dadlimarket.az'],
      ['isPromoCodeUsing', 'false'],
      ['Cities[0].CityId', '1'],
      ['Cities[0].Address', 'Nizami 1'],
      ['Cities[0].Latitude', '40.4093'],
      ['Cities[0].Longitude', '49.8671'],
      ['Cities[1].CityId', '2'],
      ['Cities[1].Address', 'Atatürk 5'],
      ['Cities[1].Latitude', '40.68'],
      ['Cities[1].Longitude', '46.36'],
    ]);
  });

  it('turning promo codes off clears the chosen version; turning them on again asks for one', async () => {
    const { user, api } = setup('/partners', makePartners(3), { 'POST /api/partner': () => json({ id: 9 }, 201) });
    const form = await openCreate(user);
    await typeInto(user, form, {
      'Partner name': 'Kino',
      'Contact person first name': 'Murad',
      'Contact person last name': 'Zeynalov',
      'Phone number': '7253029',
      Email: 'info@kino.az',
    });
    await fillRow(user, form, 0, { city: 'Bakı', Address: 'Nizami 1', Latitude: '40.4', Longitude: '49.8' });
    expect(form.queryByRole('radiogroup', { name: 'Promo code version' })).not.toBeInTheDocument();

    await user.click(form.getByRole('switch', { name: 'Promo codes' }));
    await user.click(form.getByRole('radio', { name: 'Static' }));
    await user.click(form.getByRole('switch', { name: 'Promo codes' }));
    expect(form.queryByRole('radiogroup')).not.toBeInTheDocument();
    await user.click(form.getByRole('switch', { name: 'Promo codes' }));
    expect(form.getByRole('radio', { name: 'Static' })).not.toBeChecked();
    expect(form.getByRole('radio', { name: 'Integration' })).not.toBeChecked();
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(form.getByText('Choose the promo code version: Integration (1) or Static (2).')).toBeInTheDocument();
    await user.click(form.getByRole('radio', { name: 'Integration' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST /api/partner')).toHaveLength(1));
    const sent = multipartOf(api.callsTo('POST /api/partner')[0]);
    expect(sent).toContainEqual(['isPromoCodeUsing', 'true']);
    expect(sent).toContainEqual(['promoCodeVersion', '1']);
  });

  it('edits: stored rows keep their Id, new rows are Id 0, removed stored rows go to deletedCities', async () => {
    const rows = makePartners(3);
    const { user, api } = setup('/partners', rows, {
      'GET /api/partner/1': () => json(detailOf(rows[0])),
      'PUT /api/partner': () => json(detailOf(rows[0])),
    });
    await screen.findByText('Partner 1');
    await user.click(within(screen.getByRole('row', { name: /Partner 1/ })).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit Partner' }));
    expect(await form.findByLabelText('Contact person first name')).toHaveValue('Contact1');
    expect(form.getByRole('radio', { name: 'Static' })).toBeChecked();
    expect(form.getAllByRole('combobox', { name: 'City' }).map((input) => (input as HTMLInputElement).value)).toEqual(['Bakı', 'Lənkəran']);
    expect(form.getAllByLabelText('Latitude').map((input) => (input as HTMLInputElement).value)).toEqual(['40.3676', '38.7529']);

    await user.click(form.getByRole('button', { name: 'Remove City 1' }));
    await user.click(form.getByRole('button', { name: 'Add city' }));
    await fillRow(user, form, 1, { city: 'Gəncə', Address: 'Atatürk 5', Latitude: '40.68', Longitude: '46.36' });
    await user.click(form.getByRole('switch', { name: 'Promo codes' }));
    await user.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.callsTo('PUT /api/partner')).toHaveLength(1));
    expect(multipartOf(api.callsTo('PUT /api/partner')[0])).toEqual([
      ['id', '1'],
      ['name', 'Partner 1'],
      ['contactPersonFirstName', 'Contact1'],
      ['contactPersonLastName', 'Person'],
      ['phoneNumber', '994707631141'],
      ['email', 'partner1@example.az'],
      ['isPromoCodeUsing', 'false'],
      ['Cities[0].Id', '16'],
      ['Cities[0].CityId', '5'],
      ['Cities[0].Address', 'Dəniz sahili küç. 2'],
      ['Cities[0].Latitude', '38.7529'],
      ['Cities[0].Longitude', '48.8475'],
      ['Cities[1].Id', '0'],
      ['Cities[1].CityId', '2'],
      ['Cities[1].Address', 'Atatürk 5'],
      ['Cities[1].Latitude', '40.68'],
      ['Cities[1].Longitude', '46.36'],
      ['deletedCities[0]', '15'],
    ]);
  });

  it("puts the server's row errors under Cities and the others under their fields", async () => {
    const rows = makePartners(3);
    const { user } = setup('/partners', rows, {
      'GET /api/partner/2': () => json(detailOf(rows[1])),
      'PUT /api/partner': () =>
        json(
          {
            message: 'Latitude must be a number between -90 and 90.',
            errors: { 'cities[1].latitude': 'Latitude must be a number between -90 and 90.', email: 'A user with this e-mail already exists.' },
          },
          400,
        ),
    });
    await screen.findByText('Partner 2');
    await user.click(within(screen.getByRole('row', { name: /Partner 2/ })).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit Partner' }));
    await form.findByDisplayValue('Partner 2');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(form.getByRole('group', { name: 'Cities' })).toHaveAccessibleDescription('Latitude must be a number between -90 and 90.'));
    expect(form.queryByRole('alert')).not.toBeInTheDocument();
    expect(form.getByRole('group', { name: 'Cities' })).toHaveAccessibleDescription('Latitude must be a number between -90 and 90.');
    expect(form.getByLabelText('Email')).toHaveAccessibleDescription('A user with this e-mail already exists.');
  });

  it("shows the partner's real data and branches in Partner details, not placeholders", async () => {
    const rows = makePartners(3);
    const { user } = setup('/partners', rows, { 'GET /api/partner/1': () => json(detailOf(rows[0])) });
    await screen.findByText('Partner 1');
    await user.click(within(screen.getByRole('row', { name: /Partner 1/ })).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Partner details' }));
    const branches = within(await drawer.findByRole('region', { name: 'Branches' }));
    const items = branches.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual([
      'BakıDənizkənarı Milli ParkLatitude, Longitude: 40.3676, 49.8419',
      'LənkəranDəniz sahili küç. 2Latitude, Longitude: 38.7529, 48.8475',
    ]);
    const valueOf = (label: string) => drawer.getByText(label).nextElementSibling?.textContent;
    expect(valueOf('Partner name')).toBe('Partner 1');
    expect(valueOf('Contact person full name')).toBe('Contact1 Person');
    expect(valueOf('Promokod')).toBe('Bəli · Static');
    expect(drawer.getByRole('img', { name: 'Partner 1' })).toHaveAttribute('src', '/cdn/10.png');
    expect(drawer.queryByText('Gold')).not.toBeInTheDocument();
    expect(drawer.queryByText(/Score Limit/)).not.toBeInTheDocument();
  });

  it('filters by Name and ContactPersonName and exports Partners.xlsx with them', async () => {
    const { user, api, currentPath } = setup('/partners', makePartners(3), {
      'GET /api/partner/export': () => new Response(new Blob(['xlsx']), { headers: { 'Content-Length': '4' } }),
    });
    const saved = captureDownloads();
    await screen.findByText('Partner 1');
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    const filter = within(screen.getByRole('search', { name: 'Filter' }));
    await user.type(filter.getByLabelText('Name'), 'Kafe');
    await user.type(filter.getByLabelText('Contact person'), 'Emin');
    await waitFor(() => expect(currentPath()).toBe('/partners?name=Kafe&contactPerson=Emin'));
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/partner/filter').at(-1)!)).toMatchObject({ Name: 'Kafe', ContactPersonName: 'Emin' }));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saved).toEqual(['Partners.xlsx']));
    expect(queryOf(api.callsTo('GET /api/partner/export')[0])).toEqual({ Name: 'Kafe', ContactPersonName: 'Emin' });
  });

  it('shows Call Center the list and the drawer only', async () => {
    signedIn({}, { ...admin, roleId: 2 });
    mockApi({ 'GET /api/partner': pageOf(makePartners(3)) });
    renderAt('/partners', <PartnersPage />);
    await screen.findByText('Partner 1');
    expectReadOnlyList(3);
  });
});
