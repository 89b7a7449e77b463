import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockApi, multipartOf, pageOf, queryOf, signedIn, type Handler } from '../../testing/api';
import { renderAt } from '../../testing/render';
import CampaignsPage from './CampaignsPage';
import type { CampaignRow } from './schemas';
import { UNLIMITED } from './limits';

const row = (id: number, change: Partial<CampaignRow> = {}): CampaignRow => ({
  id,
  filePath: `cdn/${id}.png`,
  partnerName: 'Araz Market',
  name: `Kampaniya ${id}`,
  nameAz: `Kampaniya ${id}`,
  discountPercent: 10 + id,
  specialOffer: id === 1,
  isPremium: false,
  isTrend: false,
  startDate: '2026-11-23T09:00:00Z',
  expireDate: '2026-12-31T20:00:00Z',
  campaignCategoryId: 2,
  categoryName: 'Yemək',
  order: id,
  isActive: true,
  isConfirmed: true,
  notificationStatus: id === 1 ? 1 : 0,
  ...UNLIMITED,
  ...change,
});

const categories = [
  { id: 2, name: 'Yemək' },
  { id: 5, name: 'Geyim' },
];

function setup(extra: Record<string, Handler> = {}) {
  signedIn();
  const api = mockApi({
    'GET /api/campaign': pageOf([row(1), row(2)]),
    'GET /api/partner/filter': pageOf([{ id: 4, name: 'Araz Market' }]),
    'GET /api/campaign/category': pageOf(categories),
    'GET /api/asset': pageOf([
      { id: 3, name: 'Kapital Bank' },
      { id: 7, name: 'Azercell' },
    ]),
    'GET /api/campaign/campaignOrdersNew': ({ url }) =>
      json({
        data:
          url.searchParams.get('categoryId') === '5'
            ? [{ id: 9, order: 1, partnerName: 'Bravo', campaignName: 'Payız' }]
            : [
                { id: 1, order: 1, partnerName: 'Araz Market', campaignName: 'Kampaniya 1' },
                { id: 2, order: 2, partnerName: 'Araz Market', campaignName: 'Kampaniya 2' },
              ],
        totalCount: 1,
      }),
    ...extra,
  });
  const view = renderAt('/campaigns', <CampaignsPage />);
  return { ...view, api, user: userEvent.setup() };
}

type User = ReturnType<typeof userEvent.setup>;

async function pick(user: User, scope: ReturnType<typeof within>, label: string, option: string) {
  await user.click(scope.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Campaigns screen', () => {
  it('says Loading… in its count line until the first page arrives, never "0 campaigns"', async () => {
    setup();
    expect(screen.getByText('Loading…', { selector: '[role="status"]' })).toBeInTheDocument();
    expect(screen.queryByText('0 campaigns')).toBeNull();
    expect(await screen.findByText('2 campaigns', { selector: '[role="status"]' })).toBeInTheDocument();
  });

  it('shows the spec columns, yes/no, dd-MM-yyyy and Send notification only while none was sent', async () => {
    setup();
    await screen.findByText('Kampaniya 1');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent).slice(1)).toEqual([
      'Image',
      'Partner name',
      'Campaign name',
      'Discount percent',
      'Special offer',
      'Premium',
      'Expire date',
      'Order',
      'Uses',
      'Status',
      'Actions',
    ]);
    const first = within(screen.getByRole('row', { name: /Kampaniya 1/ }));
    expect(first.getByText('31-12-2026')).toBeInTheDocument();
    expect(first.getByText('11%')).toBeInTheDocument();
    expect(first.queryByRole('button', { name: 'Send notification' })).toBeNull();
    expect(within(screen.getByRole('row', { name: /Kampaniya 2/ })).getByRole('button', { name: 'Send notification' })).toBeInTheDocument();
  });

  it('filters by the four spec fields; the discount keeps digits only', async () => {
    const { api, user } = setup({ 'GET /api/campaign/filter': pageOf([row(2)]) });
    await screen.findByText('Kampaniya 1');
    await user.click(screen.getByRole('button', { name: /^Show filter/ }));
    const filter = within(screen.getByRole('search', { name: 'Filter' }));
    expect(filter.getAllByRole('searchbox').length + filter.getAllByLabelText('Expire date').length).toBe(4);
    await user.type(filter.getByLabelText('Discount percent'), '1a5%');
    expect(filter.getByLabelText('Discount percent')).toHaveValue('15');
    await user.type(filter.getByLabelText('Campaign name'), 'yay');
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/campaign/filter').at(-1)!)).toMatchObject({ DiscountPercent: '15', CampaignName: 'yay' }));
  });

  it('sends a notification with its text; an empty text gets the spec message', async () => {
    const { api, user } = setup({ 'PUT /api/campaign/changeNotificationStatus': () => json(row(2, { notificationStatus: 1 })) });
    await screen.findByText('Kampaniya 2');
    await user.click(within(screen.getByRole('row', { name: /Kampaniya 2/ })).getByRole('button', { name: 'Send notification' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send notification' }));
    await user.click(dialog.getByRole('button', { name: 'Send' }));
    expect(dialog.getByText('Notification text is required')).toBeInTheDocument();
    await user.type(dialog.getByLabelText('Notification text'), 'Endirim başladı!');
    await user.click(dialog.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.callsTo('PUT /api/campaign/changeNotificationStatus')).toHaveLength(1));
    expect(api.callsTo('PUT /api/campaign/changeNotificationStatus')[0].body).toEqual({ id: 2, text: 'Endirim başladı!' });
  });

  it('creates in the side panel: tabs per language with copy from Az, order positions reloaded by category, assets repeated', async () => {
    const { api, user } = setup({ 'POST /api/campaign': () => json({ id: 30 }, 201) });
    await screen.findByText('Kampaniya 1');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Create Campaign' }));
    await user.click(panel.getByRole('button', { name: 'Save' }));
    for (const message of ['Partner is required', 'Discount percent is required', 'Start date is required', 'Expire date is required', 'Campaign category is required', 'Name is required', 'Description is required', 'File is required', 'Background file is required']) {
      expect(panel.getAllByText(message).length).toBeGreaterThan(0);
    }
    // Messages on the hidden En and Ru tabs are announced on the tabs.
    expect(panel.getByRole('tab', { name: /^En\s*\(has a message\)$/ })).toBeInTheDocument();

    await pick(user, panel, 'Partner', 'Araz Market');
    expect(queryOf(api.callsTo('GET /api/partner/filter')[0])).toMatchObject({ Take: '30' });
    await user.type(panel.getByLabelText('Discount percent'), '101');
    expect(panel.getByText('Discount percent cannot be greater than 100')).toBeInTheDocument();
    await user.clear(panel.getByLabelText('Discount percent'));
    await user.type(panel.getByLabelText('Discount percent'), '20');
    await user.type(panel.getByLabelText('Start date'), '2030-05-01T10:00');
    await user.type(panel.getByLabelText('Expire date'), '2030-04-01T10:00');
    expect(panel.getByText('Expire date must be after the start date')).toBeInTheDocument();
    await user.clear(panel.getByLabelText('Expire date'));
    await user.type(panel.getByLabelText('Expire date'), '2030-06-01T10:00');

    await pick(user, panel, 'Campaign category', 'Yemək');
    const order = panel.getByLabelText('Order');
    await waitFor(() => expect(within(order).getAllByRole('option').map((o) => o.textContent)).toEqual(['Last position', '1 · Araz Market: Kampaniya 1', '2 · Araz Market: Kampaniya 2']));
    await user.selectOptions(order, '2');
    await pick(user, panel, 'Campaign category', 'Geyim');
    await waitFor(() => expect(within(order).getAllByRole('option').map((o) => o.textContent)).toEqual(['Last position', '1 · Bravo: Payız']));
    expect(order).toHaveValue('');
    expect(queryOf(api.callsTo('GET /api/campaign/campaignOrdersNew').at(-1)!)).toEqual({ categoryId: '5' });
    await user.selectOptions(order, '1');

    await user.type(panel.getByLabelText('Name Az'), 'Yay endirimi');
    await user.type(panel.getByLabelText('Description Az'), 'Bütün məhsullara');
    expect(panel.getByLabelText('Description Az')).toHaveAttribute('rows', '4');
    await user.click(panel.getByRole('tab', { name: /^En/ }));
    await user.click(panel.getByRole('button', { name: 'Copy from Az' }));
    expect(panel.getByLabelText('Name En')).toHaveValue('Yay endirimi');
    expect(panel.getByLabelText('Description En')).toHaveValue('Bütün məhsullara');
    await user.clear(panel.getByLabelText('Name En'));
    await user.type(panel.getByLabelText('Name En'), 'Summer sale');
    await user.click(panel.getByRole('tab', { name: /^Ru/ }));
    await user.click(panel.getByRole('button', { name: 'Copy from Az' }));

    await user.upload(panel.getByLabelText('Image'), new File(['png'], 'card.png', { type: 'image/png' }));
    await user.upload(panel.getByLabelText('Background image'), new File(['png'], 'bg.png', { type: 'image/png' }));
    await user.click(panel.getByRole('switch', { name: 'Premium' }));
    // Each pick closes the list, so the next one opens it again and Save is clicked at once after.
    await pick(user, panel, 'Assets', 'Kapital Bank');
    await pick(user, panel, 'Assets', 'Azercell');
    expect(panel.getByRole('list', { name: 'Chosen' })).toHaveTextContent('Kapital BankAzercell');

    await user.click(panel.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST /api/campaign')).toHaveLength(1));
    const sent = multipartOf(api.callsTo('POST /api/campaign')[0]);
    expect(sent).toContainEqual(['partnerId', '4']);
    expect(sent).toContainEqual(['campaignCategoryId', '5']);
    expect(sent).toContainEqual(['order', '1']);
    expect(sent).toContainEqual(['nameEn', 'Summer sale']);
    expect(sent).toContainEqual(['nameRu', 'Yay endirimi']);
    expect(sent).toContainEqual(['descriptionRu', 'Bütün məhsullara']);
    expect(sent).toContainEqual(['isPremium', 'true']);
    expect(sent.filter(([key]) => key === 'assets')).toEqual([
      ['assets', '3'],
      ['assets', '7'],
    ]);
    expect(sent).toContainEqual(['backgroundFile', 'File:bg.png']);
  }, 60_000);

  it('shows the uses of the total limit with a badge once used up, and the limits in the drawer', async () => {
    const used = row(1, { usageLimitTotal: 500, usesCount: 500, usesRemaining: 0, usageLimitPerEmployee: 2, usageLimitPeriod: 'week', verifiedOnly: true });
    const { user } = setup({ 'GET /api/campaign': pageOf([used, row(2, { usesCount: 7 })]), 'GET /api/campaign/1': () => json(used) });
    await screen.findByText('Kampaniya 1');
    const first = within(screen.getByRole('row', { name: /Kampaniya 1/ }));
    expect(first.getByText('500 of 500')).toBeInTheDocument();
    expect(first.getByText('Limit reached')).toBeInTheDocument();
    const second = within(screen.getByRole('row', { name: /Kampaniya 2/ }));
    expect(second.getByText('7')).toBeInTheDocument();
    expect(second.queryByText('Limit reached')).toBeNull();
    await user.click(first.getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Campaign details' }));
    expect(drawer.getByText('Uses left').nextSibling).toHaveTextContent('0');
    expect(drawer.getByText('2 · Per week (from Monday)')).toBeInTheDocument();
    expect(drawer.getByText('Verified uses only').nextSibling).toHaveTextContent('Yes');
  });

  it('checks the limits as the server does and sends them with the form', async () => {
    const { user } = setup();
    await screen.findByText('Kampaniya 1');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Create Campaign' }));
    await user.type(panel.getByLabelText('Usage limit'), '0');
    await user.type(panel.getByLabelText('Limit per employee'), '2');
    await user.click(panel.getByRole('button', { name: 'Save' }));
    expect(panel.getByText('Usage limit must be a whole number from 1 to 10,000,000')).toBeInTheDocument();
    expect(panel.getByText('usageLimitPeriod is required with a limit per employee')).toBeInTheDocument();
    await user.selectOptions(panel.getByLabelText('Limit period'), 'week');
    expect(panel.queryByText('usageLimitPeriod is required with a limit per employee')).toBeNull();
    // Clearing the per-employee limit clears its period.
    await user.clear(panel.getByLabelText('Limit per employee'));
    expect(panel.getByLabelText('Limit period')).toHaveValue('');
  }, 30_000);
});
