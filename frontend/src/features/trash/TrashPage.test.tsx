import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUiLanguage } from '../../lib/i18n';
import { toasts } from '../../components/Toast';
import { Role } from '../../lib/roles';
import { admin, json, mockApi, pageOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import TrashPage from './TrashPage';
import type { TrashRow } from './trashResource';

const rows: TrashRow[] = [
  { id: 7, kind: 'campaign', recordId: 12, label: 'Yay endirimi', deletedAt: '2026-11-20T10:00:00.000Z', deletedBy: 'Aysel Məmmədova' },
  { id: 6, kind: 'partner', recordId: 3, label: 'Araz Market', deletedAt: '2026-11-19T10:00:00.000Z', deletedBy: null },
];
const REFUSED = 'Campaign «Yay endirimi» cannot be restored while its partner is deleted: restore the partner first.';

function setup(restore = () => json({ restored: 1 })) {
  signedIn({}, { ...admin, roleId: Role.Admin });
  const api = mockApi({
    'GET /api/trash': pageOf(rows),
    'PUT /api/trash/restore': restore,
    'DELETE /api/trash': () => json({ deleted: 2 }),
  });
  renderAt('/trash', <TrashPage />);
  return { api, user: userEvent.setup() };
}

describe('Trash screen', () => {
  it('lists each deleted record with its kind, who deleted it, or that nobody is on record', async () => {
    setup();
    const campaign = within(await screen.findByRole('row', { name: /Yay endirimi/ }));
    expect(campaign.getByText('Campaign')).toBeInTheDocument();
    expect(campaign.getByText('Aysel Məmmədova')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Araz Market/ })).getByText('Not on record')).toBeInTheDocument();
  });

  it('restores one record from its tools after asking, naming it', async () => {
    const { api, user } = setup();
    const row = within(await screen.findByRole('row', { name: /Yay endirimi/ }));
    await user.click(row.getByRole('button', { name: 'Restore' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Restore' }));
    // The kind is a common noun inside the sentence; it opens the toast, capitalised.
    expect(confirm.getByText('Restore campaign Yay endirimi?')).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.callsTo('PUT /api/trash/restore')[0]?.body).toEqual({ id: [7] }));
    await waitFor(() => expect(toasts.value.map((toast) => toast.text)).toContain('Campaign Yay endirimi restored'));
  });

  it('writes the kind by each language’s rules: German keeps its nouns capitalised, Azerbaijani opens with it', async () => {
    for (const [language, question] of [
      ['de', 'Kampagne Yay endirimi wiederherstellen?'],
      ['az', 'Kampaniya Yay endirimi bərpa edilsin?'],
      ['fr', 'Restaurer campagne Yay endirimi ?'],
    ] as const) {
      await act(() => setUiLanguage(language));
      try {
        const { user } = setup();
        const row = within(await screen.findByRole('row', { name: /Yay endirimi/ }));
        // The row's tools: View, Restore, Delete for good.
        await user.click(row.getAllByRole('button').at(-2)!);
        expect(await screen.findByText(question)).toBeInTheDocument();
      } finally {
        cleanup();
        await act(() => setUiLanguage('en'));
      }
    }
  });

  it('keeps the confirmation open with the server’s reason when a restore is refused', async () => {
    const { user } = setup(() => json({ message: REFUSED, errors: { partnerId: REFUSED } }, 409));
    const row = within(await screen.findByRole('row', { name: /Yay endirimi/ }));
    await user.click(row.getByRole('button', { name: 'Restore' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Restore' }));
    await user.click(confirm.getByRole('button', { name: 'Yes' }));
    expect(await confirm.findByText(REFUSED)).toBeInTheDocument();
  });

  it('deletes the selected records for good after a warning', async () => {
    const { api, user } = setup();
    await screen.findByText('Yay endirimi');
    for (const checkbox of screen.getAllByRole('checkbox', { name: /Select/ }).slice(-2)) await user.click(checkbox);
    await user.click(within(screen.getByRole('group', { name: 'Table actions' })).getByRole('button', { name: 'Delete for good' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete for good' }));
    expect(confirm.getByText('Delete 2 records for good?')).toBeInTheDocument();
    expect(confirm.getByText(/cannot be undone/)).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.callsTo('DELETE /api/trash')[0]?.body).toEqual({ id: [7, 6] }));
  });
});
