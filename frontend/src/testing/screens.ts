import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';

type Scope = ReturnType<typeof within>;

/** Types each value into the input its key labels, in order. */
export async function typeInto(user: UserEvent, scope: Scope, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await user.type(scope.getByLabelText(label), value);
}

/** A list screen as Call Center sees it: rows to view, nothing to create, select, toggle, change or reveal. */
export function expectReadOnlyList(rowCount: number) {
  expect(screen.queryByRole('button', { name: 'Create' })).not.toBeInTheDocument();
  expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  expect(screen.queryAllByRole('button', { name: /^(Edit|Delete|Change Password|QR code)$/ })).toHaveLength(0);
  expect(screen.getAllByRole('button', { name: 'View' })).toHaveLength(rowCount);
}
