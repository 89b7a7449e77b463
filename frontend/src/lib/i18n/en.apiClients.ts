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
