import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FormDialog } from './FormDialog';
import type { FieldDef, PickerLoader } from './form/types';

// A file of its own: the picker's code must not have loaded yet when the dialog opens, and
// React keeps a lazy component loaded for the rest of a test file.
describe('FormDialog first-field focus', () => {
  interface Values {
    partner: null;
    count: string;
  }
  const load: PickerLoader = async () => ({ items: [], total: 0 });
  const fields: FieldDef<Values>[] = [
    { name: 'partner', label: { raw: 'Partner' }, kind: 'picker', load },
    { name: 'count', label: { raw: 'Count' }, kind: 'text' },
  ];

  it('waits for a first-field picker whose code is still loading, instead of focusing the field after it', async () => {
    render(
      <FormDialog open onClose={() => undefined} title="Create" fields={fields} schema={{}} initialValues={{ partner: null, count: '' }} submit={async () => undefined} />,
    );
    const dialog = within(screen.getByRole('dialog', { name: 'Create' }));
    expect(dialog.getByRole('textbox', { name: 'Loading…' })).toBeDisabled();
    expect(dialog.getByLabelText('Count')).not.toHaveFocus();

    await waitFor(() => expect(dialog.getByRole('combobox', { name: 'Partner' })).toHaveFocus());
    expect(dialog.getByLabelText('Count')).not.toHaveFocus();
  });
});
