import { useSignals } from '@preact/signals-react/runtime';
import { useState, type ReactNode } from 'react';
import { t, type MessageKey } from '../../lib/i18n';
import { Button } from '../Button';
import { Icon, type IconName } from '../icons';
import type { ToolbarAction } from './types';

interface DialogActionSpec {
  id: string;
  label: MessageKey;
  icon: IconName;
  /** Hidden from the read-only Call Center role. */
  editorsOnly: boolean;
  /** The dialog the button opens; `onClose` closes it, `onDone` reloads the list and announces its confirmation. */
  dialog: (context: { onClose: () => void; onDone: (confirmation?: string) => void }) => ReactNode;
}

function DialogButton({ spec, onDone }: { spec: DialogActionSpec; onDone: (confirmation?: string) => void }) {
  useSignals();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <Icon name={spec.icon} className="size-4" />
        {t(spec.label)}
      </Button>
      {open && spec.dialog({ onClose: () => setOpen(false), onDone })}
    </>
  );
}

/** A toolbar button of a screen's own that opens its dialog (Employee list's Import, Usage review's rules). */
export function dialogAction(spec: DialogActionSpec): ToolbarAction {
  return { id: spec.id, editorsOnly: spec.editorsOnly, render: ({ onDone }) => <DialogButton spec={spec} onDone={onDone} /> };
}
