import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/validation';
import { captureDownloads, json, mockApi, pageOf, queryOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import PromoCodesPage from './PromoCodesPage';
import { createdMessage, emptyPromoCodes, promoCodePayload, promoCodeSchema, promoExportForm, type PromoCodeRow, type PromoCodeValues } from './schemas';

const rows: PromoCodeRow[] = [
  { id: 1, partnerName: 'Bulvar Kafe', campaignName: 'Səhər qəhvəsi 20%', code: 'K7M3QX9A', isUsed: true, used: 'Bəli', usedDate: '2026-11-20T10:00:00Z' },
  { id: 2, partnerName: 'Bulvar Kafe', campaignName: 'Səhər qəhvəsi 20%', code: 'P4TZ8HWE', isUsed: false, used: 'Xeyr', usedDate: null },
];

function setup() {
  signedIn();
  const api = mockApi({
    'GET /api/promoCode': pageOf(rows),
    'POST /api/promoCode': () => json({ count: 3, codes: ['AAAAAAAA', 'BBBBBBBB', 'CCCCCCCC'] }, 201),
    'DELETE /api/promoCode': () => json(undefined, 200),
    'GET /api/partner': pageOf([{ id: 7, name: 'Bulvar Kafe' }]),
    'GET /api/campaign/forPromoCode': () =>
      json({
        data: [
          { id: 31, name: 'Morning coffee 20%', nameAz: 'Səhər qəhvəsi 20%' },
          { id: 32, name: 'Lunch 10%', nameAz: '' },
        ],
        totalCount: 2,
      }),
    'GET /api/promoCode/export/31': () => new Response(new Blob(['xlsx']), { headers: { 'Content-Length': '4' } }),
  });
  renderAt('/promocode', <PromoCodesPage />);
  return { api, user: userEvent.setup() };
}

describe('promo code form rules', () => {
  const valid: PromoCodeValues = { partnerId: { id: 7, label: 'Bulvar Kafe' }, campaignId: '31', count: '3' };
  const errorsOf = (change: Partial<PromoCodeValues>) => validate(promoCodeSchema, { ...valid, ...change });

  it('accepts a complete form and asks for each field of an empty one with the spec messages', () => {
    expect(errorsOf({})).toEqual({});
    expect(validate(promoCodeSchema, emptyPromoCodes())).toEqual({
      partnerId: 'Partner is required',
      campaignId: 'Campaign category is required',
      count: 'Count is required',
    });
  });

  it.each([
    [{ count: ' ' }, 'Count is required'],
    [{ count: 'abc' }, 'Count must be a number'],
    [{ count: '2.5' }, 'Count must be a number'],
    [{ count: '-4' }, 'Count must be a number'],
    [{ count: '501' }, 'Count must be less than or equal to 500'],
    [{ count: '0' }, 'Count must be at least 1'],
  ] as const)('%j → %s', (change, message) => {
    expect(errorsOf(change).count).toBe(message);
  });

  it('confirms how many codes were made', () => {
    expect(createdMessage(valid)).toBe('3 promo codes created');
    expect(createdMessage({ ...valid, count: '1' })).toBe('1 promo code created');
  });

  it('accepts 1 and 500 and sends {partnerId, campaignId, count} as numbers', () => {
    expect(errorsOf({ count: '500' })).toEqual({});
    expect(errorsOf({ count: '1' })).toEqual({});
    expect(promoCodePayload(valid)).toEqual({ partnerId: 7, campaignId: 31, count: 3 });
  });

  it('asks the export for a partner and a category, and downloads promoCode/export/{id}', () => {
    expect(validate(promoExportForm.schema, promoExportForm.initialValues())).toEqual({ partnerId: 'Partner is required', campaignId: 'Campaign category is required' });
    expect(promoExportForm.path?.({ partnerId: { id: 7, label: 'Bulvar Kafe' }, campaignId: '31' })).toBe('promoCode/export/31');
    expect(promoExportForm.query({ partnerId: { id: 7, label: 'Bulvar Kafe' }, campaignId: '31' })).toEqual({ partnerId: 7 });
  });
});

describe('Promocode screen', () => {
  it('lists partner, campaign, code, Used as Bəli / Xeyr and the used date; selection hides Create', async () => {
    const { api, user } = setup();
    await screen.findByText('K7M3QX9A');
    expect(screen.getByRole('heading', { name: 'Promocode', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['', 'Partner name', 'Campaign name', 'Code', 'Used', 'Used date', 'Actions']);
    expect(within(screen.getByRole('row', { name: /K7M3QX9A/ })).getByText('Bəli')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /P4TZ8HWE/ })).getByText('Xeyr')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create' })).toBeInTheDocument();
    await user.click(within(screen.getByRole('row', { name: /K7M3QX9A/ })).getByRole('checkbox'));
    await user.click(within(screen.getByRole('row', { name: /P4TZ8HWE/ })).getByRole('checkbox'));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    await user.click(within(screen.getByRole('group', { name: 'Table actions' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete' })).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.callsTo('DELETE /api/promoCode')[0]?.body).toEqual({ id: [1, 2] }));
  });

  it('creates codes for a partner with promo codes and one of its campaigns, labelled nameAz else name', async () => {
    const { api, user } = setup();
    await screen.findByText('K7M3QX9A');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = within(await screen.findByRole('dialog', { name: 'Create' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    for (const message of ['Partner is required', 'Campaign category is required', 'Count is required']) expect(form.getByText(message)).toBeInTheDocument();
    await user.click(await form.findByRole('combobox', { name: 'Partner' }));
    await user.click(await screen.findByRole('option', { name: 'Bulvar Kafe' }));
    expect(queryOf(api.callsTo('GET /api/partner')[0])).toMatchObject({ status: 'true', Take: '30' });
    const category = form.getByLabelText('Campaign');
    await waitFor(() => expect(within(category).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a campaign', 'Səhər qəhvəsi 20%', 'Lunch 10%']));
    expect(queryOf(api.callsTo('GET /api/campaign/forPromoCode')[0])).toMatchObject({ partnerId: '7' });
    await user.selectOptions(category, 'Səhər qəhvəsi 20%');
    await user.type(form.getByLabelText('Count'), '501');
    expect(form.getByText('Count must be less than or equal to 500')).toBeInTheDocument();
    await user.clear(form.getByLabelText('Count'));
    await user.type(form.getByLabelText('Count'), '3');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST /api/promoCode')[0]?.body).toEqual({ partnerId: 7, campaignId: 31, count: 3 }));
    // The dialog closes and the list is read again.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create' })).toBeNull());
    await waitFor(() => expect(api.callsTo('GET /api/promoCode')).toHaveLength(2));
  });

  it('shows a refused creation under the category field', async () => {
    const { api, user } = setup();
    await screen.findByText('K7M3QX9A');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = within(await screen.findByRole('dialog', { name: 'Create' }));
    await user.click(await form.findByRole('combobox', { name: 'Partner' }));
    await user.click(await screen.findByRole('option', { name: 'Bulvar Kafe' }));
    const category = form.getByLabelText('Campaign');
    await waitFor(() => expect(within(category).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(category, 'Lunch 10%');
    await user.type(form.getByLabelText('Count'), '5');
    const refusal = 'This partner does not hand out promo codes.';
    api.fetchMock.mockImplementationOnce(async () => json({ message: refusal, errors: { partnerId: refusal } }, 400));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(refusal)).toBeInTheDocument();
    expect(category).toHaveAccessibleDescription(refusal);
    expect(form.queryByRole('alert')).toBeNull();
  });

  it('exports one campaign’s codes from the Export Excel dialog as Promocode.xlsx', async () => {
    const { api, user } = setup();
    const saved = captureDownloads();
    await screen.findByText('K7M3QX9A');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Export Excel' }));
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    expect(dialog.getByText('Partner is required')).toBeInTheDocument();
    expect(dialog.getByText('Campaign category is required')).toBeInTheDocument();
    await user.click(await dialog.findByRole('combobox', { name: 'Partner' }));
    await user.click(await screen.findByRole('option', { name: 'Bulvar Kafe' }));
    const category = dialog.getByLabelText('Campaign');
    await waitFor(() => expect(within(category).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(category, 'Səhər qəhvəsi 20%');
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual(['Promocode.xlsx']));
    expect(queryOf(api.callsTo('GET /api/promoCode/export/31')[0])).toMatchObject({ partnerId: '7' });
  });
});
