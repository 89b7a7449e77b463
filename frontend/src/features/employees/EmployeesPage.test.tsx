import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, validate } from '../../lib/validation';
import { captureDownloads, json, mockApi, pageOf, queryOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import EmployeesPage from './EmployeesPage';
import { editEmployeeSchema, editPayload, editValuesOf, employeeExportForm, type EmployeeRow } from './schemas';

const rows: EmployeeRow[] = [
  { id: 1, firstName: 'İlkin', lastName: 'Məmmədov', fullName: 'İlkin Məmmədov', email: 'ilkin@azersun.az', userName: 'ilkin@azersun.az', phone: '994501234567', assetId: 3, assetName: 'Azərsun', isActive: true },
  { id: 2, firstName: 'Gülnar', lastName: 'Şahinova', fullName: 'Gülnar Şahinova', email: 'gulnar@azersun.az', userName: 'gulnar@azersun.az', phone: '994702223344', assetId: 3, assetName: 'Azərsun', isActive: false },
];

function setup(path = '/employeelist') {
  signedIn();
  const api = mockApi({
    'GET /api/employee/forAdmin': pageOf(rows),
    'GET /api/employee/filter/admin': pageOf([rows[0]]),
    'GET /api/employee/1': () => json({ ...rows[0], createdAt: '2026-11-20T10:00:00Z' }),
    'PUT /api/employee': () => json(rows[0]),
    'GET /api/asset': pageOf([{ id: 3, name: 'Azərsun' }]),
    'GET /api/employee/export/admin': () => new Response(new Blob(['xlsx']), { headers: { 'Content-Length': '4' } }),
  });
  renderAt(path, <EmployeesPage />);
  return { api, user: userEvent.setup() };
}

describe('employee edit rules', () => {
  const valid = editValuesOf(rows[0]);
  const errorsOf = (change: object) => validate(editEmployeeSchema, { ...valid, ...change });

  it('accepts the stored employee and sends the phone as 994 + code without its 0 + 7 digits', () => {
    expect(valid.phone).toEqual({ code: '050', number: '123 45 67' });
    expect(errorsOf({})).toEqual({});
    expect(editPayload({ ...valid, firstName: ' İlkin ', phone: { code: '070', number: '555 44 33' } }, rows[0])).toEqual({
      id: 1,
      email: 'ilkin@azersun.az',
      firstName: 'İlkin',
      lastName: 'Məmmədov',
      phone: '994705554433',
    });
  });

  it.each([
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'il' }, 'email', 'Minimum 3 symbols'],
    [{ email: 'ilkin@azersun' }, 'email', 'Wrong email format. E.g. name@example.com'],
    [{ email: `${'i'.repeat(45)}@azersun.az` }, 'email', 'Maximum 50 symbols'],
    [{ firstName: ' ' }, 'firstName', 'First name is required'],
    [{ lastName: '' }, 'lastName', 'Last name is required'],
    [{ phone: { code: '050', number: '' } }, 'phone', 'Phone is required'],
    [{ phone: { code: '050', number: '123 4' } }, 'phone', 'Phone number must consist of 7 digits'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change)[field]).toBe(message);
  });

  it('asks for an asset before the export', () => {
    expect(validate(employeeExportForm.schema, employeeExportForm.initialValues())).toEqual({ assetId: MESSAGES.chooseAsset });
    expect(employeeExportForm.query({ assetId: { id: 3, label: 'Azərsun' } })).toEqual({ assetId: 3 });
  });
});

describe('Employee list screen', () => {
  it('lists through employee/forAdmin with the status badge and filters through employee/filter/admin', async () => {
    const { api, user } = setup();
    await screen.findByText('İlkin');
    expect(screen.getAllByText('Inactive').length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: /Show filter/ }));
    await user.selectOptions(screen.getByLabelText('Status'), 'true');
    await waitFor(() => expect(api.callsTo('GET /api/employee/filter/admin')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/employee/filter/admin')[0])).toMatchObject({ IsActive: 'true' });
  });

  it('edits an employee with PUT employee', async () => {
    const { api, user } = setup();
    await screen.findByText('İlkin');
    await user.click(within(screen.getByRole('row', { name: /İlkin/ })).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit Employee' }));
    const email = await form.findByLabelText('Email');
    await user.clear(email);
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(form.getByText('Email is required')).toBeInTheDocument();
    await user.type(email, 'ilkin.m@azersun.az');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/employee')[0]?.body).toEqual({ id: 1, email: 'ilkin.m@azersun.az', firstName: 'İlkin', lastName: 'Məmmədov', phone: '994501234567' }));
  });

  it('exports one asset’s employees as EmployeeList.xlsx', async () => {
    const { api, user } = setup();
    const saved = captureDownloads();
    await screen.findByText('İlkin');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Export Excel' }));
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    expect(dialog.getByText(MESSAGES.chooseAsset)).toBeInTheDocument();
    await user.click(dialog.getByRole('combobox', { name: 'Asset name' }));
    await user.click(await screen.findByRole('option', { name: 'Azərsun' }));
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual(['EmployeeList.xlsx']));
    expect(queryOf(api.callsTo('GET /api/employee/export/admin')[0])).toMatchObject({ assetId: '3' });
  });
});
