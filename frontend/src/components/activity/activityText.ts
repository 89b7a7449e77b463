import { complaintReasonName } from '../../lib/complaintReasons';
import type { Schema } from '../../lib/contract';
import { formatDateTime } from '../../lib/dates';
import { en } from '../../lib/i18n/en';
import { formatNumber, t, type MessageKey } from '../../lib/i18n';
import { roleOptions } from '../../lib/roles';

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
  'redemptionCodeIssued',
  'redemptionRefused',
] as const;

export const ACTOR_KINDS = ['user', 'client', 'cli', 'system', 'public'] as const;

export const actionLabel = (action: string) => known(`activity.action.${action}`, action);
export const actorKindLabel = (kind: string) => known(`activity.kind.${kind}`, kind);
export const resourceLabel = (resource: string) => known(`activity.resource.${resource}`, resource);

/** Who wrote the entry: a person or client by name, else the kind of writer. */
export function actorText(entry: Pick<ActivityRow, 'actorKind' | 'actorName'>): string {
  if (entry.actorKind === 'user' || entry.actorKind === 'client') return entry.actorName;
  if (entry.actorKind === 'public') return entry.actorName ? `${actorKindLabel('public')} (${entry.actorName})` : actorKindLabel('public');
  return actorKindLabel(entry.actorKind);
}

/**
 * The fields the log records under another name than the label the screens give them (the stored
 * column's: an id behind a picked name, a flag behind a switch); the others are `field.{name}`.
 */
const FIELD_LABELS: Readonly<Record<string, MessageKey>> = {
  passwordHash: 'field.password',
  totpSecret: 'field.otpLogin',
  keyHash: 'apiClients.keyLabel',
  roleId: 'field.role',
  isActive: 'field.status',
  mustSetUpAuthenticator: 'field.mustSetUpAuthenticator',
  userId: 'field.user',
  assetId: 'field.asset',
  isMfaActive: 'field.otpLogin',
  isEmployeeSeen: 'field.seeEmployeeId',
  contactPersonPhoneNumber: 'field.phone',
  contactPersonEmail: 'field.email',
  phoneNumber: 'field.phone',
  fileId: 'field.image',
  photoFileId: 'field.photo',
  backgroundFileId: 'field.backgroundImage',
  isPromoCodeUsing: 'field.promoCodeUsing',
  partnerId: 'field.partner',
  partnerCityId: 'field.partnerCity',
  campaignCategoryId: 'field.campaignCategory',
  categoryId: 'field.category',
  campaignId: 'field.campaign',
  employeeId: 'field.employee',
  orderNo: 'field.order',
  isPremium: 'field.premium',
  isTrend: 'field.trend',
  isConfirmed: 'activity.action.approve',
  reasonId: 'field.reason',
  isRead: 'complaints.read',
  isUsed: 'field.used',
  rateLimitPerMinute: 'field.rateLimit',
  // A webhook's record (its secrets are recorded as changed, never by value).
  previousSecretExpiresAt: 'field.previousSecret',
  lastDeliveryAt: 'field.lastDelivery',
  lastStatusCode: 'field.statusCode',
  disabledReason: 'field.reason',
};

/** A field as the screens name it ("firstName" → "First name", "isRead" → "Read"); an unknown one as the server spells it. */
export function fieldLabel(field: string): string {
  const label = FIELD_LABELS[field];
  return label ? t(label) : known(`field.${field}`, field);
}

/** The record an entry is about: its kind and its name as it is now, or its id once it is deleted for good. */
export function recordText(entry: Pick<ActivityRow, 'resource' | 'recordId' | 'recordName'>): string {
  const kind = resourceLabel(entry.resource);
  if (entry.recordName) return `${kind} ${entry.recordName}`;
  return entry.recordId === null ? kind : `${kind} #${entry.recordId}`;
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

/** A stored instant (`2026-11-20T10:00:00.123Z`, or with a space): shown as the panel shows times. */
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * A recorded value as the screens show it: empty as such, a flag (is…, must…) as Yes/No, an
 * instant in the panel's date format, a role or a complaint's reason by its name, other numbers
 * in the interface language; ids stay as they are.
 */
export function valueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return t('activity.empty');
  if (/^(is|must)[A-Z]/.test(field) && (value === 0 || value === 1)) return t(value === 1 ? 'button.yes' : 'button.no');
  if (typeof value === 'string' && INSTANT.test(value)) return formatDateTime(value.replace(' ', 'T')) || value;
  const role = field === 'roleId' ? roleOptions.find((option) => option.value === value) : undefined;
  if (role) return t(role.labelKey);
  if (field === 'reasonId' && typeof value === 'number') return complaintReasonName(value);
  if (typeof value === 'number' && !/(^id|Id|No)$/.test(field)) return formatNumber(value);
  return String(value);
}

/** The changed fields named in one line ("Name, Status"), for the list's Changes column. */
export function changesSummary(changes: string | null | undefined): string {
  const fields = parseChanges(changes);
  return fields.length ? fields.map((change) => fieldLabel(change.field)).join(', ') : '';
}
