import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { captureDownloads, json, mockApi, pageOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import MerchantRequestsPage from './MerchantRequestsPage';
import type { MerchantRequestRow } from './merchantRequestsResource';

const rows: MerchantRequestRow[] = [
  { id: 1, partnerName: 'Şirin Çay Evi', fullName: 'Səbinə Hüseynova', email: 'sabina@sirincay.az', phone: '994552001122', file: 'cdn/ab12cd.pdf', cityNames: 'Bakı, Gəncə', cities: [{ id: 1, cityName: 'Bakı' }, { id: 2, cityName: 'Gəncə' }], createdAt: '2026-11-20T10:00:00Z' },
  { id: 2, partnerName: 'Qala Kafe', fullName: 'Orxan Quliyev', email: 'orxan@qala.az', phone: '994703334455', file: null, cityNames: 'Şəki', cities: [{ id: 5, cityName: 'Şəki' }], createdAt: '2026-11-21T10:00:00Z' },
];

function setup() {
  signedIn();
  const api = mockApi({
    'GET /api/apply': pageOf(rows),
    'GET /api/apply/1': () => json({ ...rows[0], cities: [{ id: 1, cityName: 'Bakı' }, { id: 2, cityName: 'Gəncə' }] }),
    'GET /api/apply/export': () => new Response(new Blob(['xlsx']), { headers: { 'Content-Length': '4' } }),
  });
  renderAt('/by-merchant', <MerchantRequestsPage />);
  return { api, user: userEvent.setup() };
}

describe('Requests by Merchant screen', () => {
  it('is a read-only table with the file as a download link and the city names', async () => {
    setup();
    await screen.findByText('Şirin Çay Evi');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Partner name', 'Full name', 'Email', 'Phone number', 'File', 'Cities', 'Actions']);
    const link = within(screen.getByRole('row', { name: /Şirin/ })).getByRole('link', { name: 'Download the file of Səbinə Hüseynova' });
    expect(link).toHaveAttribute('href', '/cdn/ab12cd.pdf');
    expect(link).toHaveAttribute('download', 'ab12cd.pdf');
    expect(within(screen.getByRole('row', { name: /Qala/ })).getByText('No file')).toBeInTheDocument();
    expect(screen.getByText('Bakı, Gəncə')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    expect(within(screen.getByRole('row', { name: /Şirin/ })).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['View']);
  });

  it('opens the details with the cities and exports MerchantRequests.xlsx from apply/export', async () => {
    const { api, user } = setup();
    const saved = captureDownloads();
    await screen.findByText('Şirin Çay Evi');
    await user.click(within(screen.getByRole('row', { name: /Şirin/ })).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Merchant request details' }));
    expect(await drawer.findByText('Bakı, Gəncə')).toBeInTheDocument();
    await user.click(drawer.getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saved).toEqual(['MerchantRequests.xlsx']));
    expect(api.callsTo('GET /api/apply/export')).toHaveLength(1);
  });
});
