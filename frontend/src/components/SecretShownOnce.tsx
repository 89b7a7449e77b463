import type { Signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useId, useState } from 'react';
import { t, type MessageKey } from '../lib/i18n';
import { Alert } from './Alert';
import { Button } from './Button';
import { CopyButton } from './CopyButton';
import { Dialog, DialogActions } from './Dialog';

/** A secret the server answered once (an API client's key, a webhook's signing secret), and whose it is. */
export interface ShownSecret {
  name: string;
  value: string;
}

/** What the dialog says: its title (with `{name}`), why now, the field's label, the copy button, its confirmation, and Done. */
export interface SecretWords {
  title: MessageKey;
  once: MessageKey;
  label: MessageKey;
  copy: MessageKey;
  copied: MessageKey;
  done: MessageKey;
}

/**
 * A secret shown this once, in a read-only field with a copy button: it is in one answer only
 * (a create, a rotation) and is forgotten when the dialog closes (the server keeps only a hash or
 * keeps it to itself). The screen sets `secret` from that answer; closing sets it back to null.
 */
export function SecretShownOnce({ secret, words }: { secret: Signal<ShownSecret | null>; words: SecretWords }) {
  useSignals();
  const fieldId = useId();
  const [copied, setCopied] = useState(false);
  const shown = secret.value;
  const close = () => {
    secret.value = null;
    setCopied(false);
  };
  return (
    <Dialog open={shown !== null} onClose={close} title={t(words.title, { name: shown?.name ?? '' })}>
      <Alert tone="info">{t(words.once)}</Alert>
      <label htmlFor={fieldId} className="mt-4 block text-sm font-medium text-slate-900">
        {t(words.label)}
      </label>
      <input
        id={fieldId}
        readOnly
        value={shown?.value ?? ''}
        onFocus={(event) => event.currentTarget.select()}
        className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-sm text-slate-900"
      />
      <p role="status" className="mt-2 min-h-5 text-sm text-emerald-800">
        {copied ? t(words.copied) : ''}
      </p>
      <DialogActions>
        {/* Without a clipboard the field takes the focus, its secret selected to copy by hand. */}
        <CopyButton
          text={shown?.value ?? ''}
          label={t(words.copy)}
          onCopied={() => setCopied(true)}
          onFailed={() => document.getElementById(fieldId)?.focus()}
        />
        <Button variant="primary" onClick={close}>
          {t(words.done)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
