import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { DetailList } from '../../components/Drawer';
import { FieldShell, Select } from '../../components/form/inputs';
import { Icon } from '../../components/icons';
import { Pagination } from '../../components/Pagination';
import { useListData, useRecord } from '../../components/resource/useRemoteData';
import { Spinner } from '../../components/Spinner';
import { useCall } from '../../components/useCall';
import { api } from '../../lib/api';
import { formatDateTimeSeconds } from '../../lib/dates';
import { formatNumber, t } from '../../lib/i18n';
import { needsPagination } from '../../lib/listQuery';
import { DELIVERY_STATES, WEBHOOK_EVENTS, type WebhookDelivery, type WebhookDeliveryRow, type WebhookRow } from './schemas';

/** While a shown delivery waits for its next attempt, the log is read again this often. */
export const PENDING_POLL_MS = 2000;

const deliveryTones: Record<WebhookDeliveryRow['state'], string> = {
  pending: 'bg-amber-50 text-amber-800',
  delivered: 'bg-emerald-50 text-emerald-800',
  failed: 'bg-red-50 text-red-800',
};

export const eventLabel = (event: string) => {
  const known = WEBHOOK_EVENTS.find((option) => option.value === event);
  return known ? t(known.label) : event;
};

const noValue = () => t('table.noValue');
const when = (at: string | null | undefined) => (at ? formatDateTimeSeconds(at) : noValue());
const duration = (ms: number | null | undefined) => (ms === null || ms === undefined ? noValue() : t('webhooks.ms', { ms: formatNumber(ms) }));

function DeliveryBadge({ state }: { state: WebhookDeliveryRow['state'] }) {
  useSignals();
  const label = DELIVERY_STATES.find((option) => option.value === state)?.label ?? 'webhooks.delivery.pending';
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${deliveryTones[state]}`}>{t(label)}</span>;
}

/** The body as sent, indented; a body that is not JSON shows as it is. */
export function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** One delivery's attempts, oldest first, and the body each carried (`GET webhook/delivery/{id}`). */
function DeliveryAttempts({ id, reloadToken }: { id: number; reloadToken: number }) {
  useSignals();
  const detail = useRecord<WebhookDelivery>(`webhook/delivery/${id}`, reloadToken);
  if (detail.error) return <Alert tone="danger">{detail.error}</Alert>;
  if (!detail.data) return <Spinner label={t('app.loading')} className="size-4" />;
  const { attempts, payload } = detail.data;
  return (
    <div className="space-y-3">
      <h3 className="text-xs font-semibold text-slate-700">{t('webhooks.attempts')}</h3>
      {attempts.length === 0 ? (
        <p className="text-xs text-slate-600">{t('webhooks.noAttempts')}</p>
      ) : (
        <ol className="space-y-2" aria-label={t('webhooks.attempts')}>
          {attempts.map((attempt) => (
            <li key={attempt.attempt} className="rounded-md bg-slate-50 px-2 py-1.5">
              <DetailList
                compact
                items={[
                  { label: t('field.attempt'), value: attempt.attempt },
                  { label: t('field.startedAt'), value: when(attempt.startedAt) },
                  { label: t('field.statusCode'), value: attempt.statusCode ?? t('webhooks.noAnswer') },
                  { label: t('field.duration'), value: duration(attempt.durationMs) },
                  ...(attempt.error ? [{ label: t('field.error'), value: attempt.error }] : []),
                ]}
              />
            </li>
          ))}
        </ol>
      )}
      <h3 className="text-xs font-semibold text-slate-700">{t('webhooks.payload')}</h3>
      {/* Focusable: a long body scrolls inside its box, from the keyboard too. */}
      <pre
        tabIndex={0}
        aria-label={t('webhooks.payload')}
        className="max-h-72 overflow-auto rounded-md bg-slate-50 p-2 font-mono text-xs whitespace-pre text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {prettyPayload(payload)}
      </pre>
    </div>
  );
}

/** A delivery in the log: what was sent and how it went; it opens its attempts and can be sent again. */
function DeliveryItem({
  delivery,
  reloadToken,
  onReplayed,
}: {
  delivery: WebhookDeliveryRow;
  reloadToken: number;
  onReplayed: (confirmation: string) => void;
}) {
  useSignals();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const { busy, error, run } = useCall();
  const replay = async () => {
    if (await run(() => api.post<WebhookDeliveryRow>(`webhook/delivery/${delivery.id}/replay`))) {
      onReplayed(t('webhooks.replayed', { id: delivery.messageId }));
    }
  };
  return (
    <li className="space-y-2 rounded-lg border border-slate-200 px-3 py-2" data-delivery={delivery.messageId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium text-slate-900">
          {eventLabel(delivery.event)} <code className="text-xs font-normal text-slate-600">{delivery.event}</code>
        </p>
        <DeliveryBadge state={delivery.state} />
      </div>
      <DetailList
        compact
        items={[
          { label: t('field.messageId'), value: <code className="break-all">{delivery.messageId}</code> },
          { label: t('field.attempt'), value: delivery.attempt },
          { label: t('field.statusCode'), value: delivery.statusCode ?? noValue() },
          { label: t('field.duration'), value: duration(delivery.durationMs) },
          { label: t('field.nextAttempt'), value: when(delivery.nextAttemptAt) },
          { label: t('field.createdAt'), value: when(delivery.createdAt) },
        ]}
      />
      {delivery.error && <p className="text-xs break-words text-red-700">{delivery.error}</p>}
      <div className="flex flex-wrap gap-2">
        <Button className="px-2.5 py-1.5" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((shown) => !shown)}>
          <Icon name="chevronDown" className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
          {t('webhooks.showAttempts')}
        </Button>
        <Button className="px-2.5 py-1.5" busy={busy} onClick={replay}>
          <Icon name="refresh" className="size-4" />
          {t('webhooks.replay')}
        </Button>
      </div>
      {error && <Alert tone="danger">{error}</Alert>}
      <div id={panelId} hidden={!open}>
        {open && <DeliveryAttempts id={delivery.id} reloadToken={reloadToken} />}
      </div>
    </li>
  );
}

/**
 * An endpoint's delivery log, newest first, a page at a time (`GET webhook/{id}/deliveries`),
 * narrowed by state. While a shown delivery is pending the log is read again every two seconds, so
 * a retry's outcome appears by itself. A replay reloads the log (and the endpoint) with a toast.
 */
export function DeliveryLog({
  webhook,
  reloadToken,
  onChanged,
}: {
  webhook: WebhookRow;
  reloadToken: number;
  onChanged: (confirmation: string) => void;
}) {
  useSignals();
  const stateId = useId();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [state, setState] = useState('');
  const [polls, setPolls] = useState(0);
  const log = useListData<WebhookDeliveryRow>(
    `webhook/${webhook.id}/deliveries`,
    { Skip: (page - 1) * size, Take: size, State: state || undefined },
    reloadToken + polls,
  );
  const waiting = log.status === 'ready' && log.rows.some((delivery) => delivery.state === 'pending');
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setPolls((count) => count + 1), PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, log.rows]);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <FieldShell id={stateId} label={t('field.state')}>
          <Select
            id={stateId}
            className="w-auto"
            value={state}
            onChange={(event) => {
              setState(event.target.value);
              setPage(1);
            }}
          >
            <option value="">{t('filter.all')}</option>
            {DELIVERY_STATES.map((option) => (
              <option key={option.value} value={option.value}>
                {t(option.label)}
              </option>
            ))}
          </Select>
        </FieldShell>
        <Button onClick={() => setPolls((count) => count + 1)}>
          <Icon name="refresh" className="size-4" />
          {t('webhooks.refresh')}
        </Button>
      </div>
      {log.status === 'error' ? (
        <Alert tone="danger">{`${t('webhooks.deliveriesFailed')} ${log.error ?? ''}`}</Alert>
      ) : !log.counted ? (
        <Spinner label={t('app.loading')} className="size-4" />
      ) : log.totalCount === 0 ? (
        <p className="text-sm text-slate-600">{t('webhooks.deliveriesEmpty')}</p>
      ) : (
        <ol className="space-y-3" aria-label={t('webhooks.deliveries')}>
          {log.rows.map((delivery) => (
            <DeliveryItem key={delivery.id} delivery={delivery} reloadToken={reloadToken + polls} onReplayed={onChanged} />
          ))}
        </ol>
      )}
      {needsPagination(log.totalCount, size) && (
        <Pagination
          page={page}
          size={size}
          total={log.totalCount}
          onPage={setPage}
          onSize={(next) => {
            setSize(next);
            setPage(1);
          }}
        />
      )}
    </div>
  );
}
