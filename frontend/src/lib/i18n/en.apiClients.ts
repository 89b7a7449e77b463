/**
 * The English strings of the API clients screen (the inbound API's keys). Part
 * of `en`, so other languages fall back to them too.
 */
export const apiClientMessages = {
  'menu.settings': 'Settings',
  'menu.apiClients': 'API clients',
  'noun.apiClient': 'API client',
  'noun.apiClients': 'API clients',
  'apiClients.create': 'Create API client',
  'apiClients.details': 'API client details',
  'apiClients.kind.employeeApp': 'Employee app',
  'apiClients.kind.partner': 'Partner',
  'apiClients.active': 'Active',
  'apiClients.revoked': 'Revoked',
  'apiClients.revoke': 'Revoke',
  'apiClients.revokeQuestion': 'Revoke the API client {name}? Its key stops working at once.',
  'apiClients.revokedToast': 'API client {name} revoked',
  'apiClients.keyTitle': 'The key of {name}',
  'apiClients.keyOnce': 'Copy this key now: it is shown only this once and cannot be shown again. Send it as Authorization: Bearer <key>.',
  'apiClients.keyLabel': 'Secret key',
  'apiClients.copy': 'Copy the key',
  'apiClients.copied': 'The key is copied.',
  'apiClients.keyDone': 'I have stored the key',
  'apiClients.never': 'Never',
  'field.kind': 'Kind',
  'field.keyPrefix': 'Key starts with',
  'field.rateLimit': 'Requests per minute',
  'field.lastUsedAt': 'Last used',
  'field.revokedAt': 'Revoked',
} as const;

/** The employee import's strings (Employee list, issue 15). */
export const importMessages = {
  'import.button': 'Import',
  'import.title': 'Import employees',
  'import.columns': 'An .xlsx whose first row names the columns Email, First name, Last name, Phone number (994…), Asset (its id or barcode prefix) and optionally Active (yes/no). An e-mail already listed updates that employee.',
  'import.template': 'Download the template',
  'import.file': 'Workbook (.xlsx)',
  'import.fileRequired': 'Choose the .xlsx file to import',
  'import.check': 'Check the file',
  'import.apply': 'Import {count} rows',
  'import.importing': 'Importing…',
  'import.dryRun': 'What the import will do',
  'import.summary': '{rows} rows read: {added} to add, {updated} to update, {refused} refused (left out).',
  'import.refusedRows': 'Refused rows',
  'import.row': 'Row',
  'import.column': 'Column',
  'import.reason': 'Reason',
  'import.done': 'Employees imported: {added} added, {updated} updated, {refused} refused',
} as const;
