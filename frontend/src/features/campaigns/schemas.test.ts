import { describe, expect, it } from 'vitest';
import { dateTimeInputValue } from '../../lib/dates';
import { validate } from '../../lib/validation';
import { multipartEntries } from '../../testing/api';
import {
  campaignValuesOf,
  createCampaignForm,
  createCampaignSchema,
  editCampaignForm,
  editCampaignSchema,
  emptyCampaign,
  notificationTextSchema,
  type CampaignDetail,
  type CampaignValues,
} from './schemas';
import { UNLIMITED } from './limits';

const NOW = new Date('2026-11-22T10:00:00Z').getTime();
const local = (iso: string) => dateTimeInputValue(iso);
const card = new File(['png'], 'card.png', { type: 'image/png' });
const background = new File(['png'], 'background.png', { type: 'image/png' });

const valid: CampaignValues = {
  ...emptyCampaign(),
  partnerId: { id: 4, label: 'Araz Market' },
  discountPercent: '15',
  startDate: local('2026-11-23T09:00:00Z'),
  expireDate: local('2026-12-31T20:00:00Z'),
  campaignCategoryId: { id: 2, label: 'Yemək' },
  nameAz: 'Yay endirimi',
  nameEn: 'Summer sale',
  nameRu: 'Летняя распродажа',
  descriptionAz: 'Bütün məhsullara',
  descriptionEn: 'On every product',
  descriptionRu: 'На все товары',
  file: card,
  backgroundFile: background,
};

const createErrors = (change: Partial<CampaignValues>) => validate(createCampaignSchema(() => NOW), { ...valid, ...change });

describe('campaign form rules', () => {
  it('accepts a complete form', () => {
    expect(createErrors({})).toEqual({});
    expect(validate(editCampaignSchema, { ...valid, file: 'cdn/a.png', backgroundFile: 'cdn/b.png' })).toEqual({});
  });

  it('says every spec message on an empty create form', () => {
    expect(validate(createCampaignSchema(() => NOW), emptyCampaign())).toEqual({
      partnerId: 'Partner is required',
      discountPercent: 'Discount percent is required',
      startDate: 'Start date is required',
      expireDate: 'Expire date is required',
      campaignCategoryId: 'Campaign category is required',
      nameAz: 'Name is required',
      nameEn: 'Name is required',
      nameRu: 'Name is required',
      descriptionAz: 'Description is required',
      descriptionEn: 'Description is required',
      descriptionRu: 'Description is required',
      file: 'File is required',
      backgroundFile: 'Background file is required',
    });
  });

  it.each([
    ['abc', 'Discount percent must be a number'],
    ['-1', 'Discount percent must be at least 0'],
    ['101', 'Discount percent cannot be greater than 100'],
    ['12.5', 'Discount percent must be a whole number'],
  ])('discount %s: %s', (discountPercent, message) => {
    expect(createErrors({ discountPercent })).toEqual({ discountPercent: message });
  });

  it('accepts 0 and 100 and a decimal comma of a whole number', () => {
    for (const discountPercent of ['0', '100', '20,0']) expect(createErrors({ discountPercent })).toEqual({});
  });

  it('refuses a start earlier than now on create only, and an expiry not after the start', () => {
    expect(createErrors({ startDate: local('2026-11-22T09:00:00Z') })).toEqual({ startDate: 'Start date cannot be earlier than now' });
    expect(createErrors({ startDate: local('2026-11-22T09:58:00Z') }), 'a few minutes ago is now').toEqual({});
    expect(validate(editCampaignSchema, { ...valid, startDate: local('2026-01-01T09:00:00Z') })).toEqual({});
    expect(createErrors({ expireDate: valid.startDate })).toEqual({ expireDate: 'Expire date must be after the start date' });
    expect(createErrors({ expireDate: local('2026-11-23T08:00:00Z') })).toEqual({ expireDate: 'Expire date must be after the start date' });
  });

  it('asks for the notification text', () => {
    expect(validate(notificationTextSchema, { text: '  ' })).toEqual({ text: 'Notification text is required' });
    expect(validate(notificationTextSchema, { text: 'Endirim başladı' })).toEqual({});
  });
});

describe('campaign multipart', () => {
  it('sends the names, descriptions, UTC instants, flags, repeated assets and both images on create', () => {
    const values = { ...valid, specialOffer: true, assets: [{ id: 3, label: 'A' }, { id: 7, label: 'B' }], order: '2' };
    expect(multipartEntries(createCampaignForm(values))).toEqual([
      ['partnerId', '4'],
      ['campaignCategoryId', '2'],
      ['discountPercent', '15'],
      ['startDate', '2026-11-23T09:00:00.000Z'],
      ['expireDate', '2026-12-31T20:00:00.000Z'],
      ['nameAz', 'Yay endirimi'],
      ['nameEn', 'Summer sale'],
      ['nameRu', 'Летняя распродажа'],
      ['descriptionAz', 'Bütün məhsullara'],
      ['descriptionEn', 'On every product'],
      ['descriptionRu', 'На все товары'],
      ['specialOffer', 'true'],
      ['isPremium', 'false'],
      ['isTrend', 'false'],
      ['verifiedOnly', 'false'],
      ['assets', '3'],
      ['assets', '7'],
      ['order', '2'],
      ['file', 'File:card.png'],
      ['backgroundFile', 'File:background.png'],
    ]);
  });

  const detail: CampaignDetail = {
    id: 12,
    filePath: 'cdn/card.png',
    backgroundFilePath: 'cdn/bg.png',
    partnerId: 4,
    partnerName: 'Araz Market',
    name: 'Yay endirimi',
    nameAz: 'Yay endirimi',
    nameEn: 'Summer sale',
    nameRu: 'Летняя распродажа',
    description: 'Bütün məhsullara',
    descriptionAz: 'Bütün məhsullara',
    descriptionEn: 'On every product',
    descriptionRu: 'На все товары',
    discountPercent: 15,
    specialOffer: false,
    isPremium: true,
    isTrend: false,
    startDate: '2026-11-23T09:00:00Z',
    expireDate: '2026-12-31T20:00:00Z',
    campaignCategoryId: 2,
    categoryName: 'Yemək',
    order: 3,
    isActive: false,
    isConfirmed: true,
    notificationStatus: 0,
    ...UNLIMITED,
    assets: [3],
    assetList: [{ id: 3, name: 'Kapital Bank' }],
    createdAt: '2026-11-20T10:00:00Z',
  };

  it('loads a campaign into the edit form and sends id, keeping the images and (inactive) the order', () => {
    const values = campaignValuesOf(detail);
    expect(values).toMatchObject({ partnerId: { id: 4, label: 'Araz Market' }, campaignCategoryId: { id: 2, label: 'Yemək' }, discountPercent: '15', file: 'cdn/card.png', assets: [{ id: 3, label: 'Kapital Bank' }], isActive: false });
    const entries = multipartEntries(editCampaignForm({ ...values, order: '1' }, detail));
    expect(entries[0]).toEqual(['id', '12']);
    expect(entries.map(([key]) => key)).not.toContain('order');
    expect(entries.map(([key]) => key)).not.toContain('file');
    expect(multipartEntries(editCampaignForm({ ...values, isActive: true, order: '1' }, detail))).toContainEqual(['order', '1']);
  });
});
