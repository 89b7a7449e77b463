import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUiLanguage } from '../../lib/i18n';
import { Role } from '../../lib/roles';
import { admin, json, mockApi, pageOf, queryOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import ComplaintsPage from './ComplaintsPage';
import { shortDescription, type ComplaintRow } from './complaintsResource';

const rows: ComplaintRow[] = [
  { id: 1, fullName: 'Səbinə Hüseynova', email: 'sabina@azersun.az', phone: '994552001122', reasonId: 2, reasonName: 'Wrong discount amount', description: 'Kassada endirim tətbiq olunmadı, çek əlimdədir', isRead: false, recordDate: '2026-11-20T10:00:00Z' },
  { id: 2, fullName: 'Orxan Quliyev', email: 'orxan@bakcell.az', phone: '994703334455', reasonId: 4, reasonName: 'App problem', description: 'Tətbiq açılmır', isRead: true, recordDate: '2026-11-21T10:00:00Z' },
];

function setup(roleId: number = Role.Admin) {
  signedIn({}, { ...admin, roleId });
  const api = mockApi({
    'GET /api/complaint': pageOf(rows),
    'GET /api/complaint/filter': pageOf([rows[0]]),
    'GET /api/complaint/1': () => json(rows[0]),
    'PUT /api/complaint': () => json({ ...rows[0], isRead: true }),
    'GET /api/complaint/unreadCount': () => json({ count: 1 }),
  });
  renderAt('/complaints', <ComplaintsPage />);
  return { api, user: userEvent.setup() };
}

describe('complaint description', () => {
  it('is cut to its first 4 words followed by " ..."', () => {
    expect(shortDescription('Kassada endirim tətbiq olunmadı, çek əlimdədir')).toBe('Kassada endirim tətbiq olunmadı, ...');
    expect(shortDescription('  Tətbiq   açılmır ')).toBe('Tətbiq açılmır');
    expect(shortDescription('bir iki üç dörd')).toBe('bir iki üç dörd');
  });
});

describe('Complaints screen', () => {
  it('names each reason by its id in the interface language, whatever language the server wrote: table, filter, drawer', async () => {
    await act(() => setUiLanguage('de'));
    try {
      // The server answers in the content language (Az by default); the German panel names reasons itself.
      const { api, user } = setup();
      const sabina = within(await screen.findByRole('row', { name: /Səbinə/ }));
      expect(sabina.getByText('Falscher Rabattbetrag')).toBeInTheDocument();
      expect(within(screen.getByRole('row', { name: /Orxan/ })).getByText('Problem mit der App')).toBeInTheDocument();
      expect(screen.queryByText('Wrong discount amount')).toBeNull();
      await user.click(screen.getByRole('button', { name: /Filter anzeigen/ }));
      const reason = screen.getByLabelText('Grund');
      expect(within(reason).getAllByRole('option').map((option) => option.textContent)).toEqual([
        'Alle',
        'Rabatt nicht gewährt',
        'Falscher Rabattbetrag',
        'Verhalten des Personals',
        'Problem mit der App',
        'Sonstiges',
      ]);
      await user.selectOptions(reason, 'Falscher Rabattbetrag');
      await waitFor(() => expect(api.callsTo('GET /api/complaint/filter')).toHaveLength(1));
      expect(queryOf(api.callsTo('GET /api/complaint/filter')[0])).toMatchObject({ ReasonId: '2' });
      await user.click(within(await screen.findByRole('row', { name: /Səbinə/ })).getByRole('button', { name: 'Ansehen' }));
      const drawer = within(await screen.findByRole('dialog', { name: 'Beschwerdedetails' }));
      expect(await drawer.findByText('Falscher Rabattbetrag')).toBeInTheDocument();
    } finally {
      await act(() => setUiLanguage('en'));
    }
  });

  it('lists the complaints read-only with the cut description and the read switch', async () => {
    setup();
    await screen.findByText('Səbinə Hüseynova');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Full name', 'Email', 'Phone number', 'Reason', 'Description', 'Status', 'Record date', 'Actions']);
    expect(screen.getByText('Kassada endirim tətbiq olunmadı, ...')).toBeInTheDocument();
    expect(screen.getByText('Wrong discount amount')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    expect(within(screen.getByRole('row', { name: /Səbinə/ })).getByText('Unread')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Səbinə/ })).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['View']);
  });

  it('lets Call Center mark a complaint read with PUT complaint {id, status}', async () => {
    const { api, user } = setup(Role.CallCenter);
    await screen.findByText('Səbinə Hüseynova');
    await user.click(screen.getByRole('switch', { name: 'Read: Səbinə Hüseynova' }));
    await waitFor(() => expect(api.callsTo('PUT /api/complaint')[0]?.body).toEqual({ id: 1, status: true }));
    await waitFor(() => expect(api.callsTo('GET /api/complaint/unreadCount').length).toBeGreaterThan(0));
  });

  it('filters Read / Unread through IsRead and opens Complaints details with the whole description', async () => {
    const { api, user } = setup();
    await screen.findByText('Səbinə Hüseynova');
    await user.click(screen.getByRole('button', { name: /Show filter/ }));
    await user.selectOptions(screen.getByLabelText('Status'), 'false');
    await waitFor(() => expect(api.callsTo('GET /api/complaint/filter')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/complaint/filter')[0])).toMatchObject({ IsRead: 'false' });
    await user.click(within(await screen.findByRole('row', { name: /Səbinə/ })).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Complaints details' }));
    expect(await drawer.findByText('Kassada endirim tətbiq olunmadı, çek əlimdədir')).toBeInTheDocument();
    expect(drawer.getByText('Unread')).toBeInTheDocument();
  });
});
