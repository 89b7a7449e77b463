import { lookups } from '../../components/form/lookups';
import type { ResourceDeclaration } from '../../components/resource/types';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { formatPhone } from '../../lib/phone';
import {
  createMerchantFields,
  createPayload,
  editMerchantFields,
  editPayload,
  emptyMerchant,
  merchantSchema,
  merchantValuesOf,
  type MerchantRow,
  type MerchantValues,
} from './schemas';

const form = {
  schema: merchantSchema,
  // Create sends the phone as `phoneNumber`; the branch and partner keep their API names.
  serverErrorAliases: { phoneNumber: 'phone' },
  nameOf: (values: MerchantValues) => `${values.firstName} ${values.lastName}`,
} as const;

/**
 * The Merchants screen (the specification's campaigns part, Merchants): people at one branch of a
 * partner. Filters in the 'Merchant filter' modal, a partner then one of its
 * branches in the forms (the partner fixed on edit), Merchant.xlsx.
 */
export const merchantsResource: ResourceDeclaration<MerchantRow> = {
  title: 'merchants.title',
  basePath: 'partner/merchant',
  rowLabel: (merchant) => `${merchant.firstName} ${merchant.lastName}`,
  nouns: { one: 'noun.merchant', many: 'noun.merchants' },
  columns: [
    { field: 'firstName', label: 'field.firstName', width: 12 },
    { field: 'lastName', label: 'field.lastName', width: 12 },
    { field: 'email', kind: 'email', label: 'field.email', width: 24, priority: 2 },
    { field: 'phone', label: 'field.phone', kind: 'phone', priority: 3 },
    { field: 'partnerName', label: 'field.partnerName', width: 14 },
    // The e-mail again, as the merchant's userName (docs/decisions.md): from 1280 px like every spec
    // column, always in the drawer and the export.
    { field: 'userName', kind: 'email', label: 'field.userName', width: 24, priority: 3 },
    { field: 'partnerCityName', label: 'field.partnerCity', width: 20, priority: 2 },
  ],
  toolsLabel: 'table.rowActions',
  filterDialog: 'merchants.filter',
  filters: [
    { name: 'name', param: 'name', label: 'field.name' },
    { name: 'email', param: 'email', label: 'field.email' },
    // Digits only, as typed: '55 333' looks for 55333 in the stored 994… number.
    { name: 'phone', param: 'phone', label: 'field.phone', kind: 'number' },
    { name: 'partnerId', param: 'partnerId', label: 'field.partner', kind: 'picker', picker: lookups.partner },
  ],
  create: {
    ...form,
    title: 'merchants.create',
    fields: createMerchantFields,
    initialValues: emptyMerchant,
    submit: (values: MerchantValues) => api.post('partner/merchant', createPayload(values)),
  },
  edit: {
    ...form,
    title: 'merchants.edit',
    fields: editMerchantFields,
    initialValues: merchantValuesOf,
    submit: (values: MerchantValues, merchant: MerchantRow) => api.put('partner/merchant', editPayload(values, merchant)),
  },
  view: {
    title: 'merchants.details',
    items: [
      { label: 'field.firstName', value: (merchant) => merchant.firstName },
      { label: 'field.lastName', value: (merchant) => merchant.lastName },
      { label: 'field.email', value: (merchant) => merchant.email },
      { label: 'field.phone', value: (merchant) => formatPhone(merchant.phone) },
      { label: 'field.partnerName', value: (merchant) => merchant.partnerName },
      { label: 'field.userName', value: (merchant) => merchant.userName },
      { label: 'field.partnerCity', value: (merchant) => merchant.partnerCityName },
      { label: 'field.createdAt', value: (merchant) => (merchant.createdAt ? formatDateTime(merchant.createdAt) : '') },
    ],
  },
  remove: true,
  exportSpec: { fileName: 'Merchant.xlsx' },
};
