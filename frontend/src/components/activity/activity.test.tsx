import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, pageOf, queryOf, signedIn } from '../../testing/api';
import { formatDateTime } from '../../lib/dates';
import { HISTORY_KINDS } from '../../generated/recordKinds';
import { ACTIONS, actionLabel, actorText, changesSummary, fieldLabel, parseChanges, recordText, resourceLabel, valueText } from './activityText';
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
  recordName: 'Xəzər Telekom' as string | null,
  action,
  changes,
});

describe('activity entries as text', () => {
  it('names every action and record type the server writes, in words', () => {
    for (const action of ACTIONS) expect(actionLabel(action)).not.toBe(action);
    for (const resource of HISTORY_KINDS) expect(resourceLabel(resource)).not.toBe(resource);
    expect(actionLabel('somethingNew')).toBe('somethingNew');
  });

  it('reads changed fields in order, a secret only as changed, and nothing from a broken text', () => {
    expect(parseChanges('{"name":["a","b"],"passwordHash":"changed"}')).toEqual([
      { field: 'name', secret: false, before: 'a', after: 'b' },
      { field: 'passwordHash', secret: true, before: null, after: null },
    ]);
    for (const broken of [null, '', 'not json', '[1,2]', 'null']) expect(parseChanges(broken)).toEqual([]);
    expect(changesSummary('{"firstName":["a","b"],"isActive":[1,0]}')).toBe('First name, Status');
    expect(fieldLabel('passwordHash')).toBe('Password');
  });

  it('names every field the log records by the label the screens give it, never as the server spells it', () => {
    // The audited tables' columns as the log writes them (db/activity.rs: AUDITED, less the quiet ones).
    const recorded = {
      user: 'firstName lastName email phone roleId isActive deletedAt mustSetUpAuthenticator',
      humanResource: 'userId assetId isMfaActive isEmployeeSeen isActive deletedAt firstName lastName email phone',
      city: 'nameAz nameEn nameRu',
      asset: 'name contactPerson contactPersonPhoneNumber contactPersonEmail barcodePrefix fileId isActive deletedAt',
      partner: 'name contactPersonFirstName contactPersonLastName phoneNumber email fileId isPromoCodeUsing promoCodeVersion isActive deletedAt',
      merchant: 'partnerId partnerCityId firstName lastName email phone isActive deletedAt',
      category: 'nameAz nameEn nameRu photoFileId orderNo isActive deletedAt',
      campaign:
        'partnerId campaignCategoryId discountPercent startDate expireDate fileId backgroundFileId nameAz nameEn nameRu descriptionAz descriptionEn descriptionRu specialOffer isPremium isTrend isActive isConfirmed orderNo notificationStatus deletedAt',
      notification: 'header text fileId type categoryId campaignId deletedAt',
      employee: 'assetId firstName lastName email phone isActive deletedAt',
      wish: 'employeeId text status requestDate deletedAt',
      apply: 'partnerName fullName email phone fileId deletedAt',
      usage: 'employeeId assetId partnerId campaignId categoryId employeeEmail assetName partnerName campaignName categoryName discountPercent status rating deletedAt partnerCityId',
      complaint: 'employeeId fullName email phone reasonId description isRead recordDate deletedAt',
      promoCode: 'partnerId campaignId code isUsed usedDate deletedAt',
      apiClient: 'name kind partnerId keyPrefix rateLimitPerMinute revokedAt',
    };
    const raw = Object.values(recorded)
      .flatMap((fields) => fields.split(' '))
      .filter((field) => fieldLabel(field) === field);
    expect(raw).toEqual([]);
    expect(fieldLabel('isRead')).toBe('Read');
    expect(fieldLabel('deletedAt')).toBe('Deleted on');
    expect(fieldLabel('reasonId')).toBe('Reason');
  });

  it('shows times in the panel’s date format and known values by their names', () => {
    expect(valueText('deletedAt', '2026-11-20T10:00:00.123Z')).toBe(formatDateTime('2026-11-20T10:00:00.123Z'));
    expect(valueText('deletedAt', '2026-11-20T10:00:00.123Z')).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
    expect(valueText('startDate', '2026-11-20 10:00:00')).toMatch(/^20-11-2026 \d{2}:\d{2}$/);
    expect(valueText('reasonId', 3)).toBe('Staff behaviour');
    expect(valueText('roleId', 2)).toBe('Call Center');
    expect(valueText('mustSetUpAuthenticator', 1)).toBe('Yes');
    expect(valueText('name', '2026 campaign')).toBe('2026 campaign');
  });

  it('names the record by its name as it is now, by kind and id only once it is gone', () => {
    const row = { ...entry(1, 'delete'), resource: 'partner/merchant', recordName: 'Elvin Quliyev' };
    expect(recordText(row)).toBe('Merchant Elvin Quliyev');
    expect(recordText({ ...row, recordName: null })).toBe('Merchant #7');
    expect(recordText({ ...row, recordId: null, recordName: null, resource: 'backup' })).toBe('Backup');
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
