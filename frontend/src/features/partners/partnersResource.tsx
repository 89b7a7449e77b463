import { DetailImage } from '../../components/Drawer';
import type { ResourceDeclaration } from '../../components/resource/types';
import { StatusBadge } from '../../components/StatusToggle';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import { formatPhone } from '../../lib/phone';
import { PartnerBranches } from './PartnerBranches';
import {
  createPartnerForm,
  editPartnerForm,
  editValuesOf,
  emptyPartner,
  partnerErrorAliases,
  partnerFields,
  partnerSchema,
  PromoCodeVersion,
  type PartnerRow,
  type PartnerValues,
} from './schemas';

/** 'Bəli' alone, or with the version when promo codes are on: 'Bəli · Static'. */
function promoCodeText(partner: PartnerRow): string {
  if (!partner.isPromoCodeUsing || partner.promoCodeVersion === null) return partner.promoCode;
  const version = partner.promoCodeVersion === PromoCodeVersion.Integration ? 'promoVersion.integration' : 'promoVersion.static';
  return `${partner.promoCode} · ${t(version)}`;
}

const form = {
  fields: partnerFields,
  schema: partnerSchema,
  serverErrorAliases: partnerErrorAliases,
  size: 'lg',
  nameOf: (values: PartnerValues) => values.name,
} as const;

/**
 * The Partners screen (the specification's platform part, Partners screen), as a ResourcePage
 * declaration. The drawer shows the partner's own data and branches, not the
 * spec's 'Gold' / Score Limit 30 placeholders (docs/decisions.md).
 */
export const partnersResource: ResourceDeclaration<PartnerRow> = {
  title: 'partners.title',
  basePath: 'partner',
  rowLabel: (partner) => partner.name,
  nouns: { one: 'noun.partner', many: 'noun.partners' },
  columns: [
    { field: 'filePath', label: 'field.image', kind: 'image', priority: 3 },
    { field: 'name', label: 'field.partnerName', width: 16 },
    // 'Contact person', not the drawer's 'Contact person full name': a header never wraps, and the long
    // one left the e-mails a few characters at 1280 px.
    { field: 'contactPerson', label: 'field.contactPerson', width: 18, priority: 2 },
    { field: 'phoneNumber', label: 'field.phone', kind: 'phone', priority: 3 },
    { field: 'email', kind: 'email', label: 'field.email', width: 28, priority: 2 },
    // The server's Azerbaijani Bəli / Xeyr, sorted by the flag behind it.
    { field: 'promoCode', label: 'field.promokod', sortField: 'isPromoCodeUsing', width: 6, priority: 3 },
    { field: 'isActive', label: 'field.status', kind: 'status' },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'name', param: 'Name', label: 'field.name' },
    { name: 'contactPerson', param: 'ContactPersonName', label: 'field.contactPerson' },
  ],
  create: {
    ...form,
    title: 'partners.create',
    initialValues: emptyPartner,
    submit: (values: PartnerValues) => api.post('partner', createPartnerForm(values)),
  },
  edit: {
    ...form,
    title: 'partners.edit',
    initialValues: editValuesOf,
    submit: (values: PartnerValues, partner: PartnerRow) => api.put('partner', editPartnerForm(values, partner)),
  },
  view: {
    title: 'partners.details',
    items: [
      { label: 'field.image', value: (partner) => <DetailImage path={partner.filePath} alt={partner.name} /> },
      { label: 'field.partnerName', value: (partner) => partner.name },
      { label: 'field.contactPersonFullName', value: (partner) => partner.contactPerson },
      { label: 'field.phone', value: (partner) => formatPhone(partner.phoneNumber) },
      { label: 'field.email', value: (partner) => partner.email },
      { label: 'field.promokod', value: promoCodeText },
      { label: 'field.status', value: (partner) => <StatusBadge active={partner.isActive} /> },
      { label: 'field.createdAt', value: (partner) => formatDateTime(partner.createdAt) },
    ],
    after: (partner) => <PartnerBranches cities={partner.cities} />,
  },
  remove: true,
  toggle: true,
  exportSpec: { fileName: 'Partners.xlsx' },
};
