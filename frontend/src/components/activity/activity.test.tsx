import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, pageOf, queryOf, signedIn } from '../../testing/api';
import { ACTIONS, RESOURCES, actionLabel, actorText, changesSummary, fieldLabel, parseChanges, resourceLabel, valueText } from './activityText';
import { ChangeList } from './ChangeList';
import { HistoryPanel } from './HistoryPanel';

const entry = (id: number, action: string, changes: string | null = null) => ({
  id,
  at: '2026-11-20T10:00:00.000Z',
  actorKind: 'user',
  actorId: 1,
  actorName: 'Aysel Məmmədova',
  resource: 'asset',
  recordId: 7,
  action,
  changes,
});

describe('activity entries as text', () => {
  it('names every action and record type the server writes, in words', () => {
    for (const action of ACTIONS) expect(actionLabel(action)).not.toBe(action);
    for (const resource of RESOURCES) expect(resourceLabel(resource)).not.toBe(resource);
    expect(actionLabel('somethingNew')).toBe('somethingNew');
  });

  it('reads changed fields in order, a secret only as changed, and nothing from a broken text', () => {
    expect(parseChanges('{"name":["a","b"],"passwordHash":"changed"}')).toEqual([
      { field: 'name', secret: false, before: 'a', after: 'b' },
      { field: 'passwordHash', secret: true, before: null, after: null },
    ]);
    for (const broken of [null, '', 'not json', '[1,2]', 'null']) expect(parseChanges(broken)).toEqual([]);
    expect(changesSummary('{"firstName":["a","b"],"isActive":[1,0]}')).toBe('First name, isActive');
    expect(fieldLabel('passwordHash')).toBe('Password');
  });

  it('shows empty values and flags in words', () => {
    expect(valueText('name', null)).toBe('(empty)');
    expect(valueText('name', '')).toBe('(empty)');
    expect(valueText('isPremium', 1)).toBe('Yes');
    expect(valueText('isPremium', 0)).toBe('No');
    expect(valueText('discountPercent', 0)).toBe('0');
  });

  it('names the writer: a person or client by name, others by kind', () => {
    expect(actorText({ actorKind: 'user', actorName: 'Aysel' })).toBe('Aysel');
    expect(actorText({ actorKind: 'cli', actorName: 'cli' })).toBe('Command line');
    expect(actorText({ actorKind: 'public', actorName: 'x@y.az' })).toBe('Not signed in (x@y.az)');
    expect(actorText({ actorKind: 'public', actorName: '' })).toBe('Not signed in');
  });
});

describe('the changed fields side by side', () => {
  it('has a header row and one row per field, never a secret value', () => {
    render(<ChangeList changes='{"name":["Bravo","Bravo Market"],"passwordHash":"changed"}' />);
    const rows = screen.getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['FieldBeforeAfter', 'NameBravoBravo Market', 'Passwordchanged (never shown)']);
  });
});

describe('the History tab', () => {
  it('lists a record’s entries newest first and loads older ones on request', async () => {
    signedIn();
    const all = [...Array.from({ length: 20 }, (_, i) => entry(40 - i, 'update', `{"name":["n${i}","m${i}"]}`)), entry(1, 'create')];
    const api = mockApi({ 'GET /api/asset/7/history': pageOf(all) });
    render(<HistoryPanel itemPath="asset" id={7} />);
    const list = await screen.findByRole('list', { name: 'History' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(within(list).getAllByText('Edited by Aysel Məmmədova')).toHaveLength(20);
    await userEvent.click(screen.getByRole('button', { name: 'Show older entries' }));
    await screen.findByText('Created by Aysel Məmmədova');
    expect(screen.queryByRole('button', { name: 'Show older entries' })).toBeNull();
    expect(queryOf(api.callsTo('GET /api/asset/7/history')[0])).toMatchObject({ Skip: '0', Take: '20' });
  });

  it('says when nothing is on record yet', async () => {
    signedIn();
    mockApi({ 'GET /api/asset/7/history': pageOf([]) });
    render(<HistoryPanel itemPath="asset" id={7} />);
    await screen.findByText('No change of this record is on record yet.');
  });
});
