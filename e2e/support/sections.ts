/**
 * The signed-in sections in the side menu's order (the spec's fifteen items,
 * then the Requests group of frontend/README.md, then the Settings group), with their titles.
 */
export const SECTIONS: readonly { path: string; title: string }[] = [
  { path: '/users', title: 'Users' },
  { path: '/dashboard', title: 'Dashboard' },
  { path: '/employeelist', title: 'Employee list' },
  { path: '/campaigns', title: 'Campaigns' },
  { path: '/categorynames', title: 'Category names' },
  { path: '/assets', title: 'Assets' },
  { path: '/humanresource', title: 'Human resource' },
  { path: '/partners', title: 'Partners' },
  { path: '/merchants', title: 'Merchants' },
  { path: '/expectedcampaigns', title: 'Expected campaigns' },
  { path: '/promocode', title: 'Promocode' },
  { path: '/complaints', title: 'Complaints' },
  { path: '/usagehistory', title: 'Usage history' },
  // The review queue of uses (issue 41), beside the history it reviews.
  { path: '/usagereview', title: 'Usage review' },
  { path: '/notifications', title: 'Notifications' },
  { path: '/reports', title: 'Reports' },
  { path: '/requests', title: 'Requests by Employee' },
  { path: '/by-merchant', title: 'Requests by Merchant' },
  // The Settings group (issue 15), for Admins only.
  { path: '/api-clients', title: 'API clients' },
  // Outbound webhooks (issue 42), Admins only.
  { path: '/webhooks', title: 'Webhooks' },
  // The activity log (issue 23), Admins only.
  { path: '/activity', title: 'Activity' },
  { path: '/trash', title: 'Trash' },
];

/** Sections only an Admin sees in the menu and may open. */
export const ADMIN_ONLY = ['/users', '/api-clients', '/webhooks', '/activity', '/trash'];

/** The side menu's labels, in order. */
export const MENU = SECTIONS.map((section) => section.title);
