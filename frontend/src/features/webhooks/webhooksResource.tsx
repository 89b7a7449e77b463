import { confirmTool } from '../../components/resource/confirmTool';
import type { ResourceDeclaration } from '../../components/resource/types';
import { StatusBadge } from '../../components/StatusToggle';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import { DeliveryLog, eventLabel } from './DeliveryLog';
import {
  newWebhookValues,
  revealedSecret,
  WEBHOOK_EVENTS,
  WEBHOOK_STATES,
  webhookFields,
  webhookPayload,
  webhookSchema,
  webhookValuesOf,
  type WebhookRow,
  type WebhookValues,
} from './schemas';
import { refreshSwitchedOff } from './SwitchedOffBanner';

/** Its events in a line: 'All events', or their codes (the cell shows the whole line on hover). */
export const eventsText = (webhook: Pick<WebhookRow, 'events'>) =>
  webhook.events.length === WEBHOOK_EVENTS.length ? t('webhooks.allEvents') : webhook.events.join(', ');

/** Whose events it hears: one partner's, one asset's, or everyone's. */
export function scopeText(webhook: Pick<WebhookRow, 'partnerId' | 'partnerName' | 'assetId' | 'assetName'>): string {
  if (webhook.partnerId !== null) return t('webhooks.scope.partner', { name: webhook.partnerName ?? String(webhook.partnerId) });
  if (webhook.assetId !== null) return t('webhooks.scope.asset', { name: webhook.assetName ?? String(webhook.assetId) });
  return t('webhooks.scope.all');
}

/** Active, Paused (an Admin's choice), or Switched off (the server's, after failing too long: red). */
export function StateBadge({ webhook }: { webhook: Pick<WebhookRow, 'state'> }) {
  const label = WEBHOOK_STATES.find((state) => state.value === webhook.state)?.label ?? 'webhooks.state.paused';
  return <StatusBadge active={webhook.state === 'active'} alarm={webhook.state === 'disabled'} words={{ on: t(label), off: t(label) }} />;
}

/** When it was last sent to, over the answer's status ('no answer' for a timeout or a refused connection): the column stays narrow. */
function LastDelivery({ webhook }: { webhook: Pick<WebhookRow, 'lastDeliveryAt' | 'lastStatusCode'> }) {
  if (!webhook.lastDeliveryAt) return t('webhooks.never');
  return (
    <>
      <span className="block whitespace-nowrap">{formatDateTime(webhook.lastDeliveryAt)}</span>
      <span className="block text-xs text-slate-600">
        {webhook.lastStatusCode === null ? t('webhooks.noAnswer') : t('webhooks.httpStatus', { code: webhook.lastStatusCode })}
      </span>
    </>
  );
}

const dateOrNone = (at: string | null) => (at ? formatDateTime(at) : t('table.noValue'));

/** Shows a new signing secret once (WebhooksPage) from a create's or a rotation's answer. */
function reveal(answer: { secret: string; webhook: WebhookRow }) {
  revealedSecret.value = { name: answer.webhook.url, value: answer.secret };
  return answer;
}

/** Rotate: a new secret, shown once; the old one keeps signing beside it for 24 hours. */
const rotateTool = confirmTool<WebhookRow>({
  id: 'rotate-secret',
  label: 'webhooks.rotate',
  icon: 'key',
  question: (webhook) => t('webhooks.rotateQuestion', { name: webhook.url }),
  run: async (webhook) => reveal(await api.post<{ secret: string; webhook: WebhookRow }>(`webhook/${webhook.id}/rotate-secret`)),
  confirmation: (webhook) => t('webhooks.rotated', { name: webhook.url }),
});

/**
 * Webhooks (issue 42, Admin only): the endpoints that hear about changes (uses, campaigns,
 * complaints, employees...), each signed with a secret shown once at its creation and at each
 * rotation (`secretShownOnce`). The state switch pauses an endpoint or switches on again one the server
 * switched off; the drawer holds its delivery log with each attempt and Replay.
 */
export const webhooksResource: ResourceDeclaration<WebhookRow> = {
  title: 'menu.webhooks',
  basePath: 'webhook',
  rowLabel: (webhook) => webhook.url,
  nouns: { one: 'noun.webhook', many: 'noun.webhooks' },
  columns: [
    // The address is what an Admin reads an endpoint by: it takes most of the free width.
    { field: 'url', label: 'field.url', width: 48 },
    { field: 'description', label: 'field.description', sortable: false, width: 10, priority: 3 },
    { field: 'events', label: 'field.events', sortable: false, width: 12, priority: 2, value: eventsText },
    { field: 'scope', label: 'field.scope', sortable: false, width: 8, priority: 2, value: scopeText },
    { field: 'state', label: 'field.state', kind: 'status', sortable: false, render: (webhook) => <StateBadge webhook={webhook} /> },
    { field: 'lastDeliveryAt', label: 'field.lastDelivery', render: (webhook) => <LastDelivery webhook={webhook} /> },
    { field: 'createdAt', label: 'field.createdAt', kind: 'dateTime', priority: 3 },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'url', param: 'Url', label: 'field.url' },
    { name: 'state', param: 'State', label: 'field.state', kind: 'select', options: [...WEBHOOK_STATES] },
  ],
  create: {
    title: 'webhooks.create',
    fields: webhookFields,
    schema: webhookSchema,
    size: 'lg',
    nameOf: (values: WebhookValues) => values.url.trim(),
    initialValues: newWebhookValues,
    submit: async (values: WebhookValues) => reveal(await api.post<{ secret: string; webhook: WebhookRow }>('webhook', webhookPayload(values))),
  },
  edit: {
    title: 'webhooks.edit',
    fields: webhookFields,
    schema: webhookSchema,
    size: 'lg',
    nameOf: (values: WebhookValues) => values.url.trim(),
    initialValues: webhookValuesOf,
    submit: (values: WebhookValues, webhook: WebhookRow) => api.put(`webhook/${webhook.id}`, webhookPayload(values)),
  },
  view: {
    title: 'webhooks.details',
    size: 'wide',
    items: [
      { label: 'field.url', value: (webhook) => <span className="break-all">{webhook.url}</span> },
      { label: 'field.description', value: (webhook) => webhook.description ?? t('table.noValue') },
      {
        label: 'field.events',
        value: (webhook) => (
          <ul className="space-y-0.5">
            {webhook.events.map((event) => (
              <li key={event}>
                {eventLabel(event)} <code className="text-xs font-normal text-slate-600">{event}</code>
              </li>
            ))}
          </ul>
        ),
      },
      { label: 'field.scope', value: scopeText },
      {
        label: 'field.state',
        value: (webhook) => (
          <>
            <StateBadge webhook={webhook} />
            {webhook.state === 'disabled' && (
              <p className="mt-1 font-normal text-red-800">
                {t('webhooks.switchedOff', { date: dateOrNone(webhook.disabledAt), reason: webhook.disabledReason ?? '' })}
              </p>
            )}
          </>
        ),
      },
      { label: 'field.failingSince', value: (webhook) => dateOrNone(webhook.failingSince) },
      { label: 'field.lastDelivery', value: (webhook) => <LastDelivery webhook={webhook} /> },
      { label: 'field.previousSecret', value: (webhook) => dateOrNone(webhook.previousSecretExpiresAt) },
      { label: 'field.createdAt', value: (webhook) => formatDateTime(webhook.createdAt) },
    ],
    tabs: [
      {
        label: 'webhooks.deliveries',
        render: (webhook, { onChanged, reloadToken }) => <DeliveryLog webhook={webhook} reloadToken={reloadToken} onChanged={onChanged} />,
      },
    ],
  },
  remove: true,
  toggle: true,
  activeOf: (webhook) => webhook.state === 'active',
  afterChange: () => void refreshSwitchedOff(),
  tools: [rotateTool],
  secretShownOnce: {
    secret: revealedSecret,
    words: { title: 'webhooks.secretTitle', once: 'webhooks.secretOnce', label: 'webhooks.secretLabel', copy: 'webhooks.copy', copied: 'webhooks.copied', done: 'webhooks.secretDone' },
  },
};
