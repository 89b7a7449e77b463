import { FORM_MESSAGES } from '../../generated/messages';
import { signal } from '@preact/signals-react';
import { lookups } from '../../components/form/lookups';
import type { FieldDef, PickerOption } from '../../components/form/types';
import { confirmTool } from '../../components/resource/confirmTool';
import type { ResourceDeclaration } from '../../components/resource/types';
import type { ShownSecret } from '../../components/SecretShownOnce';
import { StatusBadge } from '../../components/StatusToggle';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { t, type MessageKey } from '../../lib/i18n';
import { required, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema } from '../../lib/contract';

/** A row as the server's document declares it (`ApiClientRow`). */
export type ApiClientRow = ContractSchema<'ApiClientRow'>;

export interface ApiClientValues {
  name: string;
  kind: string;
  partnerId: PickerOption | null;
  rateLimitPerMinute: string;
}

/** The server's messages (its document's x-messages), so both sides say the same. */
const SERVER = FORM_MESSAGES['POST /api/apiClient'];
export const API_CLIENT_MESSAGES = {
  name: SERVER.name.required,
  partner: SERVER.partnerId.required,
  rate: SERVER.rateLimitPerMinute.format,
} as const;

/** The key of the client just made, shown once (`secretShownOnce`) and then forgotten: the server keeps only its hash. */
export const revealedKey = signal<ShownSecret | null>(null);

const kindLabels: Record<ApiClientRow['kind'], MessageKey> = {
  'employee-app': 'apiClients.kind.employeeApp',
  partner: 'apiClients.kind.partner',
};

export function kindLabel(client: Pick<ApiClientRow, 'kind' | 'partnerName'>): string {
  const kind = t(kindLabels[client.kind] ?? 'apiClients.kind.partner');
  return client.kind === 'partner' && client.partnerName ? `${kind}: ${client.partnerName}` : kind;
}

const stateWords = () => ({ on: t('apiClients.active'), off: t('apiClients.revoked') });
const when = (at: string | null) => (at ? formatDateTime(at) : t('apiClients.never'));

export const apiClientFields: readonly FieldDef<ApiClientValues>[] = [
  { name: 'name', label: 'field.name', kind: 'text' },
  {
    name: 'kind',
    label: 'field.kind',
    kind: 'radio',
    options: [
      { value: 'employee-app', label: 'apiClients.kind.employeeApp' },
      { value: 'partner', label: 'apiClients.kind.partner' },
    ],
    updates: () => ({ partnerId: null }),
  },
  {
    name: 'partnerId',
    label: 'field.partner',
    kind: 'picker',
    load: lookups.partner.load,
    visibleWhen: (values) => values.kind === 'partner',
  },
  { name: 'rateLimitPerMinute', label: 'field.rateLimit', kind: 'number', inputMode: 'numeric' },
];

export const apiClientSchema: Schema<ApiClientValues> = {
  name: [required(API_CLIENT_MESSAGES.name)],
  partnerId: [(value, values) => (values.kind === 'partner' && !value ? API_CLIENT_MESSAGES.partner : undefined)],
  rateLimitPerMinute: [
    (value) => {
      const rate = Number(String(value ?? '').trim());
      return Number.isInteger(rate) && rate >= 1 && rate <= 1_000_000 ? undefined : API_CLIENT_MESSAGES.rate;
    },
  ],
};

/** The create call's body. */
export function apiClientPayload(values: ApiClientValues) {
  return {
    name: values.name.trim(),
    kind: values.kind,
    partnerId: values.kind === 'partner' ? (values.partnerId?.id ?? null) : null,
    rateLimitPerMinute: Number(values.rateLimitPerMinute.trim()),
  };
}

/**
 * API clients (issue 15, Admin only): the keys the employee app and partners
 * call the inbound API with. A key is shown once, right after it is made
 * (`secretShownOnce`); the list shows only its first characters. Revoke stops a
 * key at once; revoked clients stay listed.
 */
export const apiClientsResource: ResourceDeclaration<ApiClientRow> = {
  title: 'menu.apiClients',
  basePath: 'apiClient',
  rowLabel: (client) => client.name,
  nouns: { one: 'noun.apiClient', many: 'noun.apiClients' },
  columns: [
    { field: 'name', label: 'field.name', width: 20 },
    { field: 'kind', label: 'field.kind', sortable: false, width: 18, render: kindLabel },
    { field: 'keyPrefix', label: 'field.keyPrefix', sortable: false, priority: 2, render: (client) => <code>{client.keyPrefix}…</code> },
    { field: 'rateLimitPerMinute', label: 'field.rateLimit', sortable: false, priority: 3 },
    { field: 'lastUsedAt', label: 'field.lastUsedAt', sortable: false, priority: 2, render: (client) => when(client.lastUsedAt) },
    {
      field: 'isRevoked',
      label: 'field.status',
      sortable: false,
      render: (client) => <StatusBadge active={!client.isRevoked} words={stateWords()} />,
    },
  ],
  toolsLabel: 'table.rowActions',
  filters: [{ name: 'name', param: 'Name', label: 'field.name' }],
  create: {
    title: 'apiClients.create',
    fields: apiClientFields,
    schema: apiClientSchema,
    nameOf: (values: ApiClientValues) => values.name.trim(),
    initialValues: (): ApiClientValues => ({ name: '', kind: 'employee-app', partnerId: null, rateLimitPerMinute: '600' }),
    submit: async (values: ApiClientValues) => {
      const created = await api.post<{ key: string; client: ApiClientRow }>('apiClient', apiClientPayload(values));
      revealedKey.value = { name: created.client.name, value: created.key };
      return created;
    },
  },
  view: {
    title: 'apiClients.details',
    items: [
      { label: 'field.name', value: (client) => client.name },
      { label: 'field.kind', value: kindLabel },
      { label: 'field.keyPrefix', value: (client) => <code>{client.keyPrefix}…</code> },
      { label: 'field.rateLimit', value: (client) => client.rateLimitPerMinute },
      { label: 'field.lastUsedAt', value: (client) => when(client.lastUsedAt) },
      { label: 'field.createdAt', value: (client) => formatDateTime(client.createdAt) },
      { label: 'field.status', value: (client) => <StatusBadge active={!client.isRevoked} words={stateWords()} /> },
      { label: 'field.revokedAt', value: (client) => when(client.revokedAt) },
    ],
  },
  secretShownOnce: {
    secret: revealedKey,
    words: { title: 'apiClients.keyTitle', once: 'apiClients.keyOnce', label: 'apiClients.keyLabel', copy: 'apiClients.copy', copied: 'apiClients.copied', done: 'apiClients.keyDone' },
  },
  tools: [
    {
      ...confirmTool<ApiClientRow>({
        id: 'revoke',
        label: 'apiClients.revoke',
        icon: 'close',
        question: (client) => t('apiClients.revokeQuestion', { name: client.name }),
        run: (client) => api.put('apiClient/revoke', { id: client.id }),
        confirmation: (client) => t('apiClients.revokedToast', { name: client.name }),
      }),
      isAvailable: (client) => !client.isRevoked,
    },
  ],
};
