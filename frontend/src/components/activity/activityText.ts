import { en } from '../../lib/i18n/en';
import { t, type MessageKey } from '../../lib/i18n';
import type { Schema } from '../../lib/contract';

/** One entry of the activity log as the server's document declares it (`ActivityRow`). */
export type ActivityRow = Schema<'ActivityRow'>;

/** One changed field: its old and new value, or only that it changed (a secret). */
export interface FieldChange {
  field: string;
  secret: boolean;
  before: unknown;
  after: unknown;
}

const isKey = (key: string): key is MessageKey => key in en;

/** A key built from data (an action, a resource) when the dictionary has it; the raw text otherwise. */
function known(key: string, raw: string): string {
  return isKey(key) ? t(key) : raw;
}

export const ACTIONS = [
  'create',
  'update',
  'delete',
  'restore',
  'statusChange',
  'approve',
  'passwordChange',
  'authenticatorReset',
  'signIn',
  'signInFailed',
  'keyCreated',
  'keyRevoked',
  'purge',
  'backupMade',
  'backupFailed',
] as const;

export const ACTOR_KINDS = ['user', 'client', 'cli', 'system', 'public'] as const;

export const RESOURCES = [
  'user',
  'humanResource',
  'asset',
  'partner',
  'partner/merchant',
  'campaign/category',
  'campaign',
  'notification',
  'employee',
  'wishList',
  'apply',
  'usageHistory',
  'complaint',
  'promoCode',
  'apiClient',
  'city',
  'backup',
] as const;

export const actionLabel = (action: string) => known(`activity.action.${action}`, action);
export const actorKindLabel = (kind: string) => known(`activity.kind.${kind}`, kind);
export const resourceLabel = (resource: string) => known(`activity.resource.${resource}`, resource);

/** Who wrote the entry: a person or client by name, else the kind of writer. */
export function actorText(entry: Pick<ActivityRow, 'actorKind' | 'actorName'>): string {
  if (entry.actorKind === 'user' || entry.actorKind === 'client') return entry.actorName;
  if (entry.actorKind === 'public') return entry.actorName ? `${actorKindLabel('public')} (${entry.actorName})` : actorKindLabel('public');
  return actorKindLabel(entry.actorKind);
}

/** A field as the screens name it ("firstName" → "First name"); an unknown one as the server spells it. */
export function fieldLabel(field: string): string {
  if (field === 'passwordHash') return t('field.password');
  if (field === 'totpSecret') return t('field.otpLogin');
  return known(`field.${field}`, field);
}

/** The changed fields of an entry, in the order the server wrote them; none for a malformed text. */
export function parseChanges(changes: string | null | undefined): FieldChange[] {
  if (!changes) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(changes);
  } catch {
    return [];
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  return Object.entries(parsed as Record<string, unknown>).map(([field, value]) =>
    Array.isArray(value) && value.length === 2
      ? { field, secret: false, before: value[0], after: value[1] }
      : { field, secret: true, before: null, after: null },
  );
}

/** A recorded value as text: empty shown as such, a flag (is…) as Yes/No. */
export function valueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return t('activity.empty');
  if (/^is[A-Z]/.test(field) && (value === 0 || value === 1)) return t(value === 1 ? 'button.yes' : 'button.no');
  return String(value);
}

/** The changed fields named in one line ("Name, Status"), for the list's Changes column. */
export function changesSummary(changes: string | null | undefined): string {
  const fields = parseChanges(changes);
  return fields.length ? fields.map((change) => fieldLabel(change.field)).join(', ') : '';
}
