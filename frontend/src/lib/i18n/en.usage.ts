/**
 * The English strings of the Usage History screen. Part of `en`, so other
 * languages fall back to them too.
 */
export const usageMessages = {
  'noun.usageRecord': 'usage record',
  'noun.usageRecords': 'usage records',
  'usage.details': 'Usage details',
  'usage.status.confirmed': 'Confirmed',
  'usage.status.cancelled': 'Cancelled',
  'usage.statusOf': 'Usage status',
  'usage.statusSet': 'Usage record of {name} set to {status}',
  'usage.noRating': 'Not rated',
  'usage.rating': '{rating} of 5',
  'usage.noBranch': 'Not named',
  'field.verified': 'Verified',
  'field.branch': 'Branch',
  'field.employee': 'Employee',
  'field.employeeEmail': 'Employee email',
  'field.merchantCategory': 'Merchant category',
  'field.usedAt': 'Date',
  'field.endDate': 'End date',
} as const;
