import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Dialog, DialogActions } from '../../components/Dialog';
import { FormDialog } from '../../components/FormDialog';
import { dialogAction } from '../../components/resource/dialogAction';
import type { ToolbarAction } from '../../components/resource/types';
import { Spinner } from '../../components/Spinner';
import { api, errorMessage } from '../../lib/api';
import { t } from '../../lib/i18n';
import { Role } from '../../lib/roles';
import { currentUser } from '../../lib/session';
import { settingsFields, settingsPayload, settingsSchema, settingsValuesOf, type ReviewSettings } from './schemas';

/** The rules in words, with the thresholds as they are. */
export function ruleSentences(settings: ReviewSettings): string[] {
  return [
    t('review.rule.manyUses', { uses: settings.manyUses, minutes: settings.manyUsesMinutes }),
    t('review.rule.twoPartners', { minutes: settings.twoPartnersMinutes }),
  ];
}

/**
 * The review rules (`GET usageReview/settings`): an Admin changes the thresholds in a form with the
 * server's rules and messages (`PUT usageReview/settings`); Users and Call Center read them.
 */
function RulesDialog({ onClose, onDone }: { onClose: () => void; onDone: (confirmation?: string) => void }) {
  useSignals();
  const [settings, setSettings] = useState<ReviewSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.get<ReviewSettings>('usageReview/settings', {}, controller.signal).then(setSettings, (failure: unknown) => {
      if (!controller.signal.aborted) setLoadError(errorMessage(failure));
    });
    return () => controller.abort();
  }, []);
  if (currentUser.value?.roleId === Role.Admin) {
    return (
      <FormDialog
        open
        onClose={onClose}
        title={t('review.rules')}
        fields={settingsFields}
        schema={settingsSchema}
        initialValues={settings && settingsValuesOf(settings)}
        loadError={loadError}
        submit={(values) => api.put('usageReview/settings', settingsPayload(values))}
        onSuccess={() => {
          onClose();
          onDone(t('review.rulesSaved'));
        }}
      >
        <p className="mt-3 text-sm text-slate-700">{t('review.rulesNote')}</p>
      </FormDialog>
    );
  }
  return (
    <Dialog open onClose={onClose} title={t('review.rules')} size="sm">
      {loadError ? (
        <Alert tone="danger">{loadError}</Alert>
      ) : settings ? (
        <ul className="list-disc space-y-1 ps-5 text-sm text-slate-900">
          {ruleSentences(settings).map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
      ) : (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label={t('app.loading')} className="size-6" />
        </div>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t('button.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The toolbar's Review rules: everyone reads them, an Admin changes them. */
export const rulesAction: ToolbarAction = dialogAction({
  id: 'review-rules',
  label: 'review.rules',
  icon: 'info',
  editorsOnly: false,
  dialog: ({ onClose, onDone }) => <RulesDialog onClose={onClose} onDone={onDone} />,
});
