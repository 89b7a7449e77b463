import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { toasts } from '../../components/Toast';
import { Role } from '../../lib/roles';
import { admin, json, mockApi, pageOf, queryOf, signedIn, type Handler } from '../../testing/api';
import { renderAt } from '../../testing/render';
import UsageReviewPage from './UsageReviewPage';
import type { UsageReviewRow } from './schemas';

const open: UsageReviewRow = {
  id: 3,
  usageId: 41,
  employeeEmail: 'ilkin@azersun.test',
  partnerId: 4,
  partnerName: 'Bravo',
  campaignName: 'Həftəsonu endirimi',
  usedDate: '2026-11-20T09:30:00.000Z',
  reason: 'manyUses',
  reasonName: 'Many uses',
  counted: 4,
  windowMinutes: 10,
  state: 0,
  stateName: 'Open',
  decidedBy: null,
  decidedAt: null,
  voidReason: null,
};

const voided: UsageReviewRow = {
  ...open,
  id: 2,
  usageId: 40,
  employeeEmail: 'gulnar@bakcell.test',
  partnerName: 'Araz',
  reason: 'twoPartners',
  reasonName: 'Two partners',
  counted: 1,
  windowMinutes: 5,
  state: 2,
  stateName: 'Voided',
  decidedBy: 'Ada Admin <ada@perk.az>',
  decidedAt: '2026-11-20T10:00:00.000Z',
  voidReason: 'A colleague used the card',
};

const settings = { manyUses: 3, manyUsesMinutes: 10, twoPartnersMinutes: 5 };

function setup(roleId: number = Role.Admin, routes: Record<string, Handler> = {}) {
  signedIn({}, { ...admin, roleId });
  const api = mockApi({
    'GET /api/usageReview': pageOf([open, voided]),
    'GET /api/usageReview/filter': pageOf([open]),
    'GET /api/usageReview/settings': () => json(settings),
    'PUT /api/usageReview/settings': ({ body }) => json(body),
    'POST /api/usageReview/3/clear': () => json({ ...open, state: 1, stateName: 'Cleared' }),
    'POST /api/usageReview/3/void': ({ body }) => json({ ...open, state: 2, voidReason: (body as { reason: string }).reason }),
    ...routes,
  });
  renderAt('/usagereview', <UsageReviewPage />);
  return { api, user: userEvent.setup() };
}

const rowOf = (email: string) => screen.getByRole('row', { name: new RegExp(email) });

describe('Usage review screen', () => {
  it('lists each flagged use with its rule and state in words, and offers Clear and Void on open ones only', async () => {
    setup();
    await screen.findByText('ilkin@azersun.test');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Employee email',
      'Partner name',
      'Campaign name',
      'Date',
      'Reason',
      'State',
      'Actions',
    ]);
    expect(within(rowOf('ilkin')).getByText('Many uses: 4 within 10 min')).toBeInTheDocument();
    expect(within(rowOf('gulnar')).getByText('Another partner within 5 min')).toBeInTheDocument();
    expect(within(rowOf('gulnar')).getByText('Voided')).toBeInTheDocument();
    expect(within(rowOf('ilkin')).getByRole('button', { name: 'Clear' })).toBeInTheDocument();
    expect(within(rowOf('ilkin')).getByRole('button', { name: 'Void the use' })).toBeInTheDocument();
    expect(within(rowOf('gulnar')).queryByRole('button', { name: 'Clear' })).toBeNull();
    expect(within(rowOf('gulnar')).queryByRole('button', { name: 'Void the use' })).toBeNull();
  });

  it('voids a use with the reason it asks for, refusing an empty one', async () => {
    const { api, user } = setup();
    await screen.findByText('ilkin@azersun.test');
    await user.click(within(rowOf('ilkin')).getByRole('button', { name: 'Void the use' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Void the use' }));
    await user.click(dialog.getByRole('button', { name: 'Void the use' }));
    expect(await dialog.findByText('Reason is required')).toBeInTheDocument();
    expect(api.callsTo('POST /api/usageReview/3/void')).toHaveLength(0);
    await user.type(dialog.getByLabelText('Why is the use void?'), '  A colleague used the card ');
    await user.click(dialog.getByRole('button', { name: 'Void the use' }));
    await waitFor(() => expect(api.callsTo('POST /api/usageReview/3/void')[0]?.body).toEqual({ reason: 'A colleague used the card' }));
    await waitFor(() => expect(toasts.value.map((toast) => toast.text)).toContainEqual(expect.stringMatching(/^Use ilkin@azersun.test, Bravo, .* voided$/)));
    await waitFor(() => expect(api.callsTo('GET /api/usageReview')).toHaveLength(2));
  });

  it('shows the server refusal inside the void dialog', async () => {
    const { user } = setup(Role.User, {
      'POST /api/usageReview/3/void': () => json({ message: 'This use was already voided.' }, 409),
    });
    await screen.findByText('ilkin@azersun.test');
    await user.click(within(rowOf('ilkin')).getByRole('button', { name: 'Void the use' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Void the use' }));
    await user.type(dialog.getByLabelText('Why is the use void?'), 'Fraud');
    await user.click(dialog.getByRole('button', { name: 'Void the use' }));
    expect(await dialog.findByText('This use was already voided.')).toBeInTheDocument();
  });

  it('clears a flag after the question naming the use', async () => {
    const { api, user } = setup(Role.User);
    await screen.findByText('ilkin@azersun.test');
    await user.click(within(rowOf('ilkin')).getByRole('button', { name: 'Clear' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Clear' }));
    expect(dialog.getByText(/Mark the use ilkin@azersun.test, Bravo, .* as fine\?/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(api.callsTo('POST /api/usageReview/3/clear')).toHaveLength(1));
  });

  it('filters by state and reason', async () => {
    const { api, user } = setup();
    await screen.findByText('ilkin@azersun.test');
    await user.click(screen.getByRole('button', { name: /Show filter/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Open');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Reason' }), 'Many uses');
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/usageReview/filter').at(-1)!)).toMatchObject({ State: '0', Reason: 'manyUses' }));
  });

  it('lets Call Center read the list and the rules, and change nothing', async () => {
    const { api, user } = setup(Role.CallCenter);
    await screen.findByText('ilkin@azersun.test');
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Void the use' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Review rules' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Review rules' }));
    expect(await dialog.findByText('More than 3 uses by one employee within 10 minutes')).toBeInTheDocument();
    expect(dialog.getByText('One employee at two different partners within 5 minutes')).toBeInTheDocument();
    expect(dialog.queryByRole('textbox')).toBeNull();
    expect(api.callsTo('PUT /api/usageReview/settings')).toHaveLength(0);
  });

  it('lets an Admin change the thresholds within their ranges', async () => {
    const { api, user } = setup();
    await screen.findByText('ilkin@azersun.test');
    await user.click(screen.getByRole('button', { name: 'Review rules' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Review rules' }));
    const uses = await dialog.findByLabelText('Flag more than this many uses by one employee');
    expect(uses).toHaveValue(3);
    await user.clear(uses);
    await user.type(uses, '0');
    const minutes = dialog.getByLabelText('Flag a use at another partner within this many minutes');
    await user.clear(minutes);
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('Uses must be a whole number from 1 to 1000')).toBeInTheDocument();
    expect(dialog.getByText('Minutes between partners is required')).toBeInTheDocument();
    expect(api.callsTo('PUT /api/usageReview/settings')).toHaveLength(0);
    await user.clear(uses);
    await user.type(uses, '5');
    await user.type(minutes, '15');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.callsTo('PUT /api/usageReview/settings')[0]?.body).toEqual({ manyUses: 5, manyUsesMinutes: 10, twoPartnersMinutes: 15 }),
    );
    await waitFor(() => expect(toasts.value.map((toast) => toast.text)).toContain('Review rules saved'));
  });
});
