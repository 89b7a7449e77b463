import { t } from '../../lib/i18n';
import { Button } from '../Button';
import { CopyButton } from '../CopyButton';
import { Dialog, DialogActions } from '../Dialog';
import { Icon } from '../icons';

/**
 * A set of recovery codes, shown this once (issue 23): each signs in once in
 * place of the six-digit code. Copy puts them on the clipboard, Download saves
 * them as a text file; the server keeps only their hashes.
 */
export function RecoveryCodeList({ codes, owner }: { codes: readonly string[]; owner: string }) {
  const text = codes.join('\n');
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([`${t('recovery.fileHeader', { owner })}\n\n${text}\n`], { type: 'text/plain' }));
    link.download = 'perkdesk-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <section aria-label={t('recovery.title')} className="space-y-3">
      <p className="text-sm text-slate-700">{t('recovery.help')}</p>
      <ol aria-label={t('recovery.title')} className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-md bg-slate-50 px-4 py-3 font-mono text-sm text-slate-900">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={text} />
        <Button onClick={download}>
          <Icon name="download" className="size-4" />
          {t('recovery.download')}
        </Button>
      </div>
    </section>
  );
}

/** A dialog with nothing but a new set of codes and Close: a new user's (for the Admin to hand over) or one's own. */
export function RecoveryCodesDialog({
  codes,
  owner,
  own = false,
  onClose,
}: {
  codes: readonly string[];
  owner: string;
  own?: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog open onClose={onClose} title={t('recovery.title')} size="sm">
      <p className="mb-3 text-sm font-semibold text-slate-900">{own ? t('recovery.forYou') : t('recovery.forNewUser', { name: owner })}</p>
      <RecoveryCodeList codes={codes} owner={owner} />
      <DialogActions>
        <Button variant="primary" onClick={onClose}>
          {t('recovery.stored')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The codes of an answer that carries `recoveryCodes`, or none. */
export function recoveryCodesOf(answer: unknown): string[] {
  const codes = (answer as { recoveryCodes?: unknown } | null)?.recoveryCodes;
  return Array.isArray(codes) ? codes.filter((code): code is string => typeof code === 'string') : [];
}
