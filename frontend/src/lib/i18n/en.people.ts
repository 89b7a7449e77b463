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

  'noun.complaint': 'complaint',
  'noun.complaints': 'complaints',
  'complaints.details': 'Complaints details',
  'complaints.read': 'Read',
  'complaints.unread': 'Unread',
  'complaints.markRead': 'Read',
  'complaints.markedRead': 'Complaint of {name} marked read',
  'complaints.markedUnread': 'Complaint of {name} marked unread',
  'complaints.unreadBadge': 'unread',
  'field.reason': 'Reason',
  'complaints.reason.1': 'Discount not honoured',
  'complaints.reason.2': 'Wrong discount amount',
  'complaints.reason.3': 'Staff behaviour',
  'complaints.reason.4': 'App problem',
  'complaints.reason.5': 'Other',
  'field.description': 'Description',
  'field.recordDate': 'Record date',

  'noun.employeeRequest': 'request',
  'noun.employeeRequests': 'requests',
  'requests.details': 'Request details',
  'requests.status.new': 'New',
  'requests.status.inReview': 'In review',
  'requests.status.done': 'Done',
  'requests.statusOf': 'Request status',
  'requests.statusSet': 'Request of {name} set to {status}',
  'field.employeeFullName': 'Employee full name',
  'field.requestDate': 'Request date',
} as const;
