import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '../../lib/roles';
import { admin, json, mockApi, pageOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import { ToastRegion, toasts } from '../Toast';
import { ResourcePage } from './ResourcePage';
import type { ResourceDeclaration } from './types';

interface Thing {
  id: number;
  name: string;
  isActive: boolean;
}

const things: Thing[] = [
  { id: 1, name: 'Alpha', isActive: true },
  { id: 2, name: 'Bravo', isActive: false },
  { id: 3, name: 'Charlie', isActive: true },
];

/** A declaration with a part for each piece the page composes: filters, a switch, selection, a drawer. */
const thingResource: ResourceDeclaration<Thing> = {
  title: 'assets.title',
  basePath: 'thing',
  rowLabel: (thing) => thing.name,
  nouns: { one: 'noun.asset', many: 'noun.assets' },
  columns: [
    { field: 'name', label: 'field.name' },
    { field: 'isActive', label: 'field.status', kind: 'status' },
  ],
  filters: [{ name: 'name', param: 'Name', label: 'field.name' }],
  view: { title: 'assets.details', items: [{ label: 'field.name', value: (thing) => thing.name }] },
  history: false,
  remove: true,
  toggle: true,
};

function setup(path = '/things', routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({
    'GET /api/thing': pageOf(things),
    'GET /api/thing/filter': pageOf(things.slice(0, 1)),
    'GET /api/thing/2': () => json({ ...things[1], name: 'Bravo (read again)' }),
    'DELETE /api/thing': () => json({ deleted: 2 }),
    ...routes,
  });
  renderAt(
    path,
    <>
      <ResourcePage resource={thingResource} />
      <ToastRegion />
    </>,
  );
  return { api, user: userEvent.setup() };
}

const toastTexts = () => toasts.value.map((toast) => toast.text);

describe('ResourcePage composes the toolbar, the filters, the table and the dialogs', () => {
  it('lays them out in one card: the title and total, the toolbar, the filters, then the table', async () => {
    signedIn();
    setup('/things?name=Al');
    const card = screen.getByRole('region', { name: 'Asset list' });
    expect(await within(card).findByText('1 asset')).toBeInTheDocument();
    const toolbar = within(card).getByRole('group', { name: 'Table actions' });
    // A link with filters opens the panel, and a chip names each one.
    expect(within(toolbar).getByRole('button', { name: /Hide filter/ })).toHaveAttribute('aria-expanded', 'true');
    expect(within(card).getByRole('button', { name: /Name: Al/ })).toBeInTheDocument();
    const table = within(card).getByRole('table', { name: 'Asset list' });
    expect(within(table).getByRole('row', { name: /Alpha/ })).toBeInTheDocument();
    // The filters come before the table, the toolbar before both.
    const order = [toolbar, within(card).getByRole('button', { name: /Name: Al/ }), table];
    for (const [index, element] of order.slice(1).entries()) {
      expect(order[index].compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
  });

  it('shares the selection: the table selects, the toolbar offers Delete, the dialog asks and clears it', async () => {
    signedIn();
    const { api, user } = setup();
    await screen.findByRole('row', { name: /Alpha/ });
    const toolbar = within(screen.getByRole('group', { name: 'Table actions' }));
    expect(toolbar.getByRole('button', { name: /Show filter/ })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select row 3' }));
    expect(toolbar.getByText('2 selected')).toBeInTheDocument();
    await user.click(toolbar.getByRole('button', { name: 'Delete' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete' }));
    expect(confirm.getByText('Delete 2 assets?')).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.callsTo('DELETE /api/thing')[0]?.body).toEqual({ id: [1, 3] }));
    await waitFor(() => expect(toastTexts()).toContain('2 assets deleted'));
    expect(toolbar.queryByText('2 selected')).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET /api/thing')).toHaveLength(2));
  });

  it("opens a row tool's dialog from the table: the drawer reads the record again", async () => {
    signedIn();
    const { user } = setup();
    const row = within(await screen.findByRole('row', { name: /Bravo/ }));
    await user.click(row.getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Asset details' }));
    expect(await drawer.findByText('Bravo (read again)')).toBeInTheDocument();
  });

  it("shows a failed switch's message above the table until the next change succeeds", async () => {
    signedIn();
    let refuse = true;
    const { user } = setup('/things', {
      'PATCH /api/thing/active': () => (refuse ? json({ message: 'Not now.' }, 409) : json({})),
    });
    await screen.findByRole('row', { name: /Alpha/ });
    await user.click(screen.getByRole('switch', { name: 'Change status: Alpha' }));
    const notice = await screen.findByText('Not now.');
    expect(notice.compareDocumentPosition(screen.getByRole('table')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    refuse = false;
    await user.click(screen.getByRole('switch', { name: 'Change status: Charlie' }));
    await waitFor(() => expect(toastTexts()).toContain('Asset Charlie deactivated'));
    expect(screen.queryByText('Not now.')).not.toBeInTheDocument();
  });

  it('gives a read-only role no selection, switch or Delete, but the list, filters and drawer', async () => {
    signedIn({}, { ...admin, roleId: Role.CallCenter });
    setup();
    const row = within(await screen.findByRole('row', { name: /Alpha/ }));
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(row.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(row.getByRole('button', { name: 'View' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Show filter/ })).toBeInTheDocument();
  });
});
