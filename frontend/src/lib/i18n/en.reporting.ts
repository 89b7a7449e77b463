/**
 * The English strings of the reporting side (Dashboard, Reports) and of the
 * chart component they share. Part of `en`, so other languages fall back to them.
 */
export const reportingMessages = {
  'chart.showTable': 'Show the numbers as a table',
  'chart.hideTable': 'Hide the table',
  'chart.error': 'Error: {message}',

  'state.label': 'State',
  'state.active': 'Active',
  'state.deactive': 'Deactive',
  'state.deleted': 'Deleted',

  'dashboard.employees': 'Active and deactive employees',
  'dashboard.employeeCount': 'Employees',
  'dashboard.totalEmployees': 'Total employees',
  'dashboard.lastMonthUsage': 'Usage last month',
  'dashboard.totalUsage': 'Total usage',
  'dashboard.usageHistory': 'Usage history by month',
  'dashboard.usageHistoryIn': 'Usage history by month in {year}',
  'dashboard.year': 'Year',
  'dashboard.month': 'Month',
  'dashboard.topMerchants': 'Top 10 Merchant',
  'dashboard.topCategories': 'Top 10 Category',
  'dashboard.assetUsage': 'Employees included per asset',
  'dashboard.assetEmployees': 'Count of employees on assets',
  'dashboard.noRating': 'No ratings',
  'field.campaignsCount': 'Campaigns count',
  'field.rating': 'Rating',
  'field.usageCount': 'Usage count',
  'field.employeeCount': 'Employee count',
  'field.usageHistoryCount': 'Usage history count',

  'reports.tabs': 'Report kinds',
  'reports.asset': 'Asset',
  'reports.partner': 'Partner',
  'reports.campaign': 'Campaign',
  'reports.employee': 'Employee',
  'reports.names': '{kind} names',
  'reports.search': 'Search',
  'reports.searchPlaceholder': 'Search names',
  'reports.counts': '{kind} by state',
  'reports.total': 'Total: {count}',
  'reports.export': 'Export',
  'reports.exporting': 'Downloading {file}',
  'reports.exported': 'Reports-count.xlsx and Reports-name.xlsx downloaded',
} as const;
