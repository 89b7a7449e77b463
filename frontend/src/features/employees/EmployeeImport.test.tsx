import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '../../lib/roles';
import { admin, json, mockApi, pageOf, queryOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import EmployeesPage from './EmployeesPage';
import type { ImportReport } from './EmployeeImport';

const dryRun: ImportReport = {
  applied: false,
  rows: 4,
  added: 1,
  updated: 1,
  refused: [
    { row: 4, field: 'Email', message: 'Wrong email format. E.g. name@example.com' },
    { row: 5, field: 'Asset', message: 'There is no asset with id 999.' },
  ],
};

function setup(roleId: number = Role.Admin) {
  signedIn({}, { ...admin, roleId });
  const api = mockApi({
    'GET /api/employee/forAdmin': pageOf([]),
    'POST /api/employee/import': (call) =>
      json(queryOf(call).dryRun === 'true' ? dryRun : { ...dryRun, applied: true }),
  });
  renderAt('/employeelist', <EmployeesPage />);
  return { api, user: userEvent.setup() };
}

describe('Employee import', () => {
  it('checks the workbook first, shows each refused row with its number and reason, then imports', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Import employees' }));
    await user.click(dialog.getByRole('button', { name: 'Check the file' }));
    expect(await dialog.findByText('Choose the .xlsx file to import')).toBeInTheDocument();
    const file = new File(['xlsx'], 'employees.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    await user.upload(dialog.getByLabelText('Workbook (.xlsx)'), file);
    await user.click(dialog.getByRole('button', { name: 'Check the file' }));
    expect(await dialog.findByText('4 rows read: 1 to add, 1 to update, 2 refused (left out).')).toBeInTheDocument();
    const refused = within(dialog.getByRole('table', { name: 'Refused rows' }));
    expect(refused.getAllByRole('row').map((row) => row.textContent)).toEqual([
      'RowColumnReason',
      '4EmailWrong email format. E.g. name@example.com',
      '5AssetThere is no asset with id 999.',
    ]);
    expect(api.callsTo('POST /api/employee/import')).toHaveLength(1);
    await user.click(dialog.getByRole('button', { name: 'Import 2 rows' }));
    await waitFor(() => expect(api.callsTo('POST /api/employee/import')).toHaveLength(2));
    expect(queryOf(api.callsTo('POST /api/employee/import')[1]).dryRun).toBe('false');
    // The dialog closes and the list reads the employees again.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import employees' })).toBeNull());
    await waitFor(() => expect(api.callsTo('GET /api/employee/forAdmin').length).toBeGreaterThan(1));
  });

  it('is not offered to Call Center', async () => {
    setup(Role.CallCenter);
    await screen.findByRole('heading', { name: 'Employee list' });
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });
});
