import type { ResourceDeclaration } from '../../components/resource/types';
import { api } from '../../lib/api';
import {
  createdMessage,
  emptyPromoCodes,
  promoCodeFields,
  promoCodePayload,
  promoCodeSchema,
  promoExportForm,
  type PromoCodeRow,
  type PromoCodeValues,
} from './schemas';

/**
 * The Promocode screen (the specification's campaigns part, Promocode): the generated codes with
 * Used as the server's Bəli / Xeyr, Create (partner, campaign category,
 * count), selection with 'N selected' and Delete, and the 'Export Excel'
 * dialog that downloads one campaign's codes.
 */
export const promoCodesResource: ResourceDeclaration<PromoCodeRow> = {
  title: 'promoCodes.title',
  basePath: 'promoCode',
  rowLabel: (promo) => promo.code,
  nouns: { one: 'noun.promoCode', many: 'noun.promoCodes' },
  columns: [
    { field: 'partnerName', label: 'field.partnerName', width: 16 },
    { field: 'campaignName', label: 'field.campaignName', width: 22, priority: 2 },
    { field: 'code', label: 'field.code', width: 9 },
    { field: 'used', label: 'field.used', sortField: 'isUsed', width: 4 },
    { field: 'usedDate', label: 'field.usedDate', kind: 'dateTime', priority: 2 },
  ],
  toolsLabel: 'table.rowActions',
  create: {
    title: 'promoCodes.create',
    fields: promoCodeFields,
    schema: promoCodeSchema,
    initialValues: emptyPromoCodes,
    // The spec's error catalogue: a refused creation shows the server's message under the category.
    failureField: 'campaignId',
    confirmation: createdMessage,
    submit: (values: PromoCodeValues) => api.post('promoCode', promoCodePayload(values)),
  },
  remove: true,
  exportSpec: { fileName: 'Promocode.xlsx', form: promoExportForm },
};
