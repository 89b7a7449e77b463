import { useSignals } from '@preact/signals-react/runtime';
import { useId, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ResourcePage } from '../../components/resource/ResourcePage';
import { t } from '../../lib/i18n';
import { apiClientsResource, revealedKey } from './apiClientsResource';

/**
 * The key of a client just made, this once: it is in the create answer only
 * and is forgotten when the dialog closes (the server keeps only its hash).
 */
function KeyShownOnce() {
  useSignals();
  const fieldId = useId();
  const [copied, setCopied] = useState(false);
  const shown = revealedKey.value;
  const close = () => {
    revealedKey.value = null;
    setCopied(false);
  };
  return (
    <Dialog open={shown !== null} onClose={close} title={t('apiClients.keyTitle', { name: shown?.name ?? '' })}>
      <Alert tone="info">{t('apiClients.keyOnce')}</Alert>
      <label htmlFor={fieldId} className="mt-4 block text-sm font-medium text-slate-900">
        {t('apiClients.keyLabel')}
      </label>
      <input
        id={fieldId}
        readOnly
        value={shown?.key ?? ''}
        onFocus={(event) => event.currentTarget.select()}
        data-testid="api-key"
        className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-sm text-slate-900"
      />
      <p role="status" className="mt-2 min-h-5 text-sm text-emerald-800">
        {copied ? t('apiClients.copied') : ''}
      </p>
      <DialogActions>
        {/* Without a clipboard the field takes the focus, its key selected to copy by hand. */}
        <CopyButton
          text={shown?.key ?? ''}
          label={t('apiClients.copy')}
          onCopied={() => setCopied(true)}
          onFailed={() => document.getElementById(fieldId)?.focus()}
        />
        <Button variant="primary" onClick={close}>
          {t('apiClients.keyDone')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default function ApiClientsPage() {
  return (
    <>
      <ResourcePage resource={apiClientsResource} />
      <KeyShownOnce />
    </>
  );
}
