import { lookups } from '../../components/form/lookups';
import type { ChoiceOption, FieldDef, PickerOption } from '../../components/form/types';
import { api } from '../../lib/api';
import { emptyPhone, fromApiPhone, toApiPhone, type PhoneValue } from '../../lib/phone';
import { FORM_MESSAGES } from '../../generated/messages';
import { completePhone, emailRules, MESSAGES, required, type Schema } from '../../lib/validation';

/** The server's messages (its declared merchant form; the edit spells the phone `phone`). */
const SERVER = FORM_MESSAGES['PUT /api/partner/merchant'];
import { PartnerFixed } from './PartnerFixed';
import type { Schema as ContractSchema } from '../../lib/contract';

/** A row as the server's document declares it (`MerchantRow`). */
export type MerchantRow = ContractSchema<'MerchantRow'>;

/** Named like the API's fields, so the server's `errors` keys land on them. */
export interface MerchantValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: PhoneValue;
  partnerId: PickerOption | null;
  /** A branch id of the chosen partner, as the select holds it. */
  partnerCityId: string;
}

/** The spec's messages (the specification's campaigns part, Merchant create and edit), verbatim. */
export const MERCHANT_MESSAGES = {
  firstName: SERVER.firstName.required,
  lastName: SERVER.lastName.required,
  phone: SERVER.phone.required,
  partner: SERVER.partnerId.required,
  city: SERVER.partnerCityId.required,
} as const;

export const merchantSchema: Schema<MerchantValues> = {
  firstName: [required(MERCHANT_MESSAGES.firstName)],
  lastName: [required(MERCHANT_MESSAGES.lastName)],
  email: emailRules(SERVER.email),
  phone: [required(MERCHANT_MESSAGES.phone), completePhone(MESSAGES.phoneIncomplete)],
  partnerId: [required(MERCHANT_MESSAGES.partner)],
  partnerCityId: [required(MERCHANT_MESSAGES.city)],
};

interface Branch {
  id: number;
  cityName: string;
  address: string;
}

/** The partner's branches (`GET partner/cities/{partnerId}`), shown as the list shows them: "Bakı, Nizami küç. 5". */
export async function partnerBranches(partner: unknown, signal: AbortSignal): Promise<ChoiceOption[]> {
  const id = (partner as PickerOption | null)?.id;
  if (!id) return [];
  const page = await api.list<Branch>(`partner/cities/${id}`, {}, signal);
  return page.data.map((branch) => ({ value: String(branch.id), label: { raw: `${branch.cityName}, ${branch.address}` } }));
}


const personFields: FieldDef<MerchantValues>[] = [
  { name: 'firstName', label: 'field.firstName', kind: 'text', autoComplete: 'off' },
  { name: 'lastName', label: 'field.lastName', kind: 'text', autoComplete: 'off' },
  { name: 'email', label: 'field.email', kind: 'email', autoComplete: 'off' },
  { name: 'phone', label: 'field.phone', kind: 'phone' },
];

const citySelect: FieldDef<MerchantValues> = {
  name: 'partnerCityId',
  label: 'field.partnerCity',
  kind: 'dependentSelect',
  dependsOn: 'partnerId',
  loadOptions: partnerBranches,
  emptyOption: 'merchants.chooseCity',
};

/** Create: a partner, then one of its branches; another partner empties the branch. */
export const createMerchantFields: FieldDef<MerchantValues>[] = [
  ...personFields,
  { name: 'partnerId', label: 'field.partner', kind: 'picker', load: lookups.partner.load, updates: () => ({ partnerCityId: '' }) },
  citySelect,
];

/** Edit: the partner shows but cannot change (the server refuses it too); its branches are offered. */
export const editMerchantFields: FieldDef<MerchantValues>[] = [
  ...personFields,
  { name: 'partnerId', label: 'field.partner', kind: 'custom', render: PartnerFixed },
  citySelect,
];

export const emptyMerchant = (): MerchantValues => ({
  firstName: '',
  lastName: '',
  email: '',
  phone: emptyPhone(),
  partnerId: null,
  partnerCityId: '',
});

export const merchantValuesOf = (merchant: MerchantRow): MerchantValues => ({
  firstName: merchant.firstName,
  lastName: merchant.lastName,
  email: merchant.email,
  phone: fromApiPhone(merchant.phone),
  partnerId: merchant.partnerId ? { id: merchant.partnerId, label: merchant.partnerName } : null,
  partnerCityId: merchant.partnerCityId ? String(merchant.partnerCityId) : '',
});

const common = (values: MerchantValues) => ({
  firstName: values.firstName.trim(),
  lastName: values.lastName.trim(),
  email: values.email.trim(),
  partnerId: values.partnerId?.id,
  partnerCityId: Number(values.partnerCityId),
});

/** `POST partner/merchant`: the phone is `phoneNumber` here, 994 + code without its 0 + 7 digits. */
export const createPayload = (values: MerchantValues) => ({ ...common(values), phoneNumber: toApiPhone(values.phone) });

/** `PUT partner/merchant`: the phone is `phone` here, as the spec spells it. */
export const editPayload = (values: MerchantValues, merchant: Pick<MerchantRow, 'id'>) => ({
  id: merchant.id,
  ...common(values),
  phone: toApiPhone(values.phone),
});
