import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockApi, pageOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import ExpectedCampaignsPage from './ExpectedCampaignsPage';
import type { CampaignDetail } from './schemas';
import { UNLIMITED } from './limits';

const waiting: CampaignDetail = {
  id: 8,
  filePath: 'cdn/8.png',
  backgroundFilePath: 'cdn/8b.png',
  partnerId: 4,
  partnerName: 'Bravo',
  name: 'Bahar',
  nameAz: 'Bahar endirimi',
  nameEn: 'Spring sale',
  nameRu: 'Весенняя распродажа',
  description: 'Hər şeyə',
  descriptionAz: 'Hər şeyə',
  descriptionEn: 'On everything',
  descriptionRu: 'На всё',
  discountPercent: 30,
  specialOffer: false,
  isPremium: false,
  isTrend: false,
  startDate: '2026-12-01T08:00:00Z',
  expireDate: '2027-01-15T20:00:00Z',
  campaignCategoryId: 2,
  categoryName: 'Yemək',
  order: 1,
  isActive: true,
  isConfirmed: false,
  notificationStatus: 0,
  ...UNLIMITED,
  assets: [],
  createdAt: '2026-11-20T10:00:00Z',
  assetList: [],
};

function setup() {
  signedIn();
  const api = mockApi({
    'GET /api/campaign/notConfirmed': pageOf([waiting]),
    'GET /api/campaign/8': () => json(waiting),
    'GET /api/campaign/campaignOrdersNew': () => json({ data: [{ id: 8, order: 1, partnerName: 'Bravo', campaignName: 'Bahar' }], totalCount: 1 }),
    'PUT /api/campaign/approve': () => json({ ...waiting, isConfirmed: true }),
    'DELETE /api/campaign': () => json(undefined, 204),
  });
  renderAt('/expectedcampaigns', <ExpectedCampaignsPage />);
  return { api, user: userEvent.setup() };
}

describe('Expected Campaigns screen', () => {
  it('lists image, partner, Az name, discount and expire date with approve and edit', async () => {
    setup();
    await screen.findByText('Bahar endirimi');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent).slice(1)).toEqual(['Image', 'Partner name', 'Name Az', 'Discount percent', 'Expire date', 'Actions']);
    expect(within(screen.getByRole('row', { name: /Bahar/ })).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Edit', 'Approve', 'Delete']);
  });

  it('approves through PUT campaign/approve after the question', async () => {
    const { api, user } = setup();
    await screen.findByText('Bahar endirimi');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Approve' }));
    expect(dialog.getByText('Approve Bahar endirimi? It moves to Campaigns.')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.callsTo('PUT /api/campaign/approve')).toHaveLength(1));
    expect(api.callsTo('PUT /api/campaign/approve')[0].body).toEqual({ id: 8 });
  });

  it('edits through GET campaign/{id} in the side panel and deletes through DELETE campaign', async () => {
    const { api, user } = setup();
    await screen.findByText('Bahar endirimi');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Edit Campaign' }));
    expect(await panel.findByDisplayValue('Bahar endirimi')).toBeInTheDocument();
    expect(api.callsTo('GET /api/campaign/8')).toHaveLength(1);
    await user.click(panel.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete' })).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.callsTo('DELETE /api/campaign')).toHaveLength(1));
    expect(api.callsTo('DELETE /api/campaign')[0].body).toEqual({ id: [8] });
  });
});
