import { signal } from '@preact/signals-react';
import { lookups } from '../../components/form/lookups';
import type { FieldDef, PickerOption } from '../../components/form/types';
import type { ShownSecret } from '../../components/SecretShownOnce';
import { FORM_MESSAGES, REFUSALS } from '../../generated/messages';
import type { Answer, Schema as ContractSchema } from '../../lib/contract';
import type { MessageKey } from '../../lib/i18n';
import { MESSAGES, required, type Rule, type Schema } from '../../lib/validation';

/** An endpoint as the server's document declares it (`WebhookRow`). */
export type WebhookRow = ContractSchema<'WebhookRow'>;
/** One message to an endpoint, its last attempt's outcome and what comes next (`WebhookDeliveryRow`). */
export type WebhookDeliveryRow = ContractSchema<'WebhookDeliveryRow'>;
/** A delivery with the body sent and each attempt (`GET webhook/delivery/{id}`). */
export type WebhookDelivery = Answer<'/api/webhook/delivery/{id}'>;
/** An event's name, as the create and edit bodies take it (the document's enum). */
export type WebhookEvent = ContractSchema<'WebhookIn'>['events'][number];

/** The events an endpoint may hear, in the order of the server's document (`WebhookIn.events`), each named in words. */
export const WEBHOOK_EVENTS: readonly { value: WebhookEvent; label: MessageKey }[] = [
  { value: 'campaign.created', label: 'webhooks.event.campaignCreated' },
  { value: 'campaign.updated', label: 'webhooks.event.campaignUpdated' },
  { value: 'campaign.approved', label: 'webhooks.event.campaignApproved' },
  { value: 'employee.created', label: 'webhooks.event.employeeCreated' },
  { value: 'employee.updated', label: 'webhooks.event.employeeUpdated' },
  { value: 'employee.deleted', label: 'webhooks.event.employeeDeleted' },
  { value: 'application.created', label: 'webhooks.event.applicationCreated' },
  { value: 'usage.created', label: 'webhooks.event.usageCreated' },
  { value: 'usage.voided', label: 'webhooks.event.usageVoided' },
  { value: 'redemption.confirmed', label: 'webhooks.event.redemptionConfirmed' },
  { value: 'complaint.created', label: 'webhooks.event.complaintCreated' },
];

/** An endpoint's state as the server words it (the `State` filter): `disabled` is switched off by the server. */
export const WEBHOOK_STATES: readonly { value: WebhookRow['state']; label: MessageKey }[] = [
  { value: 'active', label: 'webhooks.state.active' },
  { value: 'paused', label: 'webhooks.state.paused' },
  { value: 'disabled', label: 'webhooks.state.disabled' },
];

export const DELIVERY_STATES: readonly { value: WebhookDeliveryRow['state']; label: MessageKey }[] = [
  { value: 'pending', label: 'webhooks.delivery.pending' },
  { value: 'delivered', label: 'webhooks.delivery.delivered' },
  { value: 'failed', label: 'webhooks.delivery.failed' },
];

export interface WebhookValues {
  url: string;
  description: string;
  events: string[];
  /** Whose events: everyone's, one partner's or one asset's (never both, as the server holds it). */
  limitTo: 'all' | 'partner' | 'asset';
  partnerId: PickerOption | null;
  assetId: PickerOption | null;
  isActive: boolean;
}

/**
 * The server's messages (its document's x-messages and refusals), so both sides say the same; a
 * scope's pick is the panel's own. The events' refusal is typed against the document's list, so a
 * changed text fails the type check instead of drifting.
 */
const SERVER = FORM_MESSAGES['POST /api/webhook'];
const EVENTS_REQUIRED: (typeof REFUSALS)[number] = 'Choose at least one event';
export const WEBHOOK_MESSAGES = {
  urlRequired: SERVER.url.required,
  urlScheme: SERVER.url.format,
  events: EVENTS_REQUIRED,
  partner: MESSAGES.choosePartner,
  asset: MESSAGES.chooseAsset,
} as const;

/** The signing secret of an endpoint just made or rotated, shown once (`secretShownOnce`) and then forgotten. */
export const revealedSecret = signal<ShownSecret | null>(null);

/** An absolute http or https address with a host, as the server checks it before it resolves the host. */
export function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const webAddress: Rule<WebhookValues> = (value) =>
  typeof value === 'string' && value.trim() !== '' && !isWebAddress(value) ? WEBHOOK_MESSAGES.urlScheme : undefined;

/** Whether an address is private or loopback is the server's to say: it resolves the host (and a test server may allow it). */
export const webhookSchema: Schema<WebhookValues> = {
  url: [required(WEBHOOK_MESSAGES.urlRequired), webAddress],
  events: [required(WEBHOOK_MESSAGES.events)],
  partnerId: [(value, values) => (values.limitTo === 'partner' && !value ? WEBHOOK_MESSAGES.partner : undefined)],
  assetId: [(value, values) => (values.limitTo === 'asset' && !value ? WEBHOOK_MESSAGES.asset : undefined)],
};

export const webhookFields: readonly FieldDef<WebhookValues>[] = [
  { name: 'url', label: 'field.url', kind: 'text', placeholder: 'https://', autoComplete: 'off', inputMode: 'text' },
  { name: 'description', label: 'field.description', kind: 'textarea', rows: 2 },
  { name: 'events', label: 'field.events', kind: 'checkboxes', options: [...WEBHOOK_EVENTS], showValue: true },
  {
    name: 'limitTo',
    label: 'field.limitTo',
    kind: 'radio',
    options: [
      { value: 'all', label: 'webhooks.limit.all' },
      { value: 'partner', label: 'webhooks.limit.partner' },
      { value: 'asset', label: 'webhooks.limit.asset' },
    ],
    updates: () => ({ partnerId: null, assetId: null }),
  },
  { name: 'partnerId', label: 'field.partner', kind: 'picker', load: lookups.partner.load, visibleWhen: (values) => values.limitTo === 'partner' },
  { name: 'assetId', label: 'field.asset', kind: 'picker', load: lookups.asset.load, visibleWhen: (values) => values.limitTo === 'asset' },
  { name: 'isActive', label: 'field.active', kind: 'switch' },
];

export const newWebhookValues = (): WebhookValues => ({
  url: '',
  description: '',
  events: [],
  limitTo: 'all',
  partnerId: null,
  assetId: null,
  isActive: true,
});

/** The form as an endpoint stands (its edit). */
export function webhookValuesOf(webhook: WebhookRow): WebhookValues {
  return {
    url: webhook.url,
    description: webhook.description ?? '',
    events: [...webhook.events],
    limitTo: webhook.partnerId !== null ? 'partner' : webhook.assetId !== null ? 'asset' : 'all',
    partnerId: webhook.partnerId !== null ? { id: webhook.partnerId, label: webhook.partnerName ?? String(webhook.partnerId) } : null,
    assetId: webhook.assetId !== null ? { id: webhook.assetId, label: webhook.assetName ?? String(webhook.assetId) } : null,
    // Saving a switched-off endpoint as Active switches it on again.
    isActive: webhook.state === 'active',
  };
}

/**
 * The create and edit calls' body. An endpoint is active unless the body says otherwise (the
 * document: `isActive` absent or null is true), so only a paused one names it.
 */
export function webhookPayload(values: WebhookValues) {
  return {
    url: values.url.trim(),
    description: values.description.trim() || null,
    events: values.events,
    ...(values.isActive ? {} : { isActive: false }),
    partnerId: values.limitTo === 'partner' ? (values.partnerId?.id ?? null) : null,
    assetId: values.limitTo === 'asset' ? (values.assetId?.id ?? null) : null,
  };
}
