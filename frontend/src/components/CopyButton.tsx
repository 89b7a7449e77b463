import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { t } from '../lib/i18n';
import { Button } from './Button';
import { Icon } from './icons';

/**
 * Puts `text` on the clipboard and says so on the button (Copy → Copied). Without a clipboard (a
 * page the browser does not trust with it) the button stays as it was: the text is on screen to
 * write down, and `onFailed` may point at it.
 */
export function CopyButton({ text, label, onCopied, onFailed }: { text: string; label?: string; onCopied?: () => void; onFailed?: () => void }) {
  useSignals();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      onCopied?.();
    } catch {
      onFailed?.();
    }
  };
  return (
    <Button onClick={copy}>
      <Icon name={copied ? 'check' : 'copy'} className="size-4" />
      {copied ? t('button.copied') : (label ?? t('button.copy'))}
    </Button>
  );
}
