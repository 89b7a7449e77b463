/**
 * The English strings of the people-and-activity side (Employee list, and the
 * request, usage, complaint, merchant and promo-code screens as they come).
 * Part of `en`, so other languages fall back to them too.
 */
export const peopleMessages = {
  'noun.employee': 'employee',
  'noun.employees': 'employees',

  'employees.edit': 'Edit Employee',
  'employees.details': 'Employee details',

  'noun.merchantRequest': 'merchant request',
  'noun.merchantRequests': 'merchant requests',
  'merchantRequests.details': 'Merchant request details',
  'merchantRequests.download': 'Download',
  'merchantRequests.downloadFile': 'Download the file of {name}',
  'merchantRequests.noFile': 'No file',
  'field.file': 'File',
} as const;
