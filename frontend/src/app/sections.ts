import type { ReadonlySignal } from '@preact/signals-react';
import type { IconName } from '../components/icons';
import { refreshUnreadComplaints, unreadComplaints } from '../features/complaints/unreadComplaints';
import type { MessageKey } from '../lib/i18n';
import { Role } from '../lib/roles';
import { lazyScreen, type LazyScreen } from './lazyScreen';

export interface Section {
  path: string;
  title: MessageKey;
  icon: IconName;
  /** Where the aside lists it: the main list (spec order), the Requests group, the Settings group, or nowhere. */
  menu: 'main' | 'requests' | 'settings' | null;
  adminOnly?: boolean;
  screen: LazyScreen;
  /** A count beside the menu item (unread complaints), read again on every navigation. */
  badge?: MenuBadge;
}

export interface MenuBadge {
  count: ReadonlySignal<number | null>;
  refresh: () => Promise<void>;
  /** Read after the number by screen readers ("3 unread"). */
  label: MessageKey;
}

const UsersPage = lazyScreen(() => import('../features/users/UsersPage'));
const AssetsPage = lazyScreen(() => import('../features/assets/AssetsPage'));
const HumanResourcesPage = lazyScreen(() => import('../features/humanResources/HumanResourcesPage'));
const PartnersPage = lazyScreen(() => import('../features/partners/PartnersPage'));
const ProfilePage = lazyScreen(() => import('../features/account/ProfilePage'));
const CampaignsPage = lazyScreen(() => import('../features/campaigns/CampaignsPage'));
const ExpectedCampaignsPage = lazyScreen(() => import('../features/campaigns/ExpectedCampaignsPage'));
const NotificationsPage = lazyScreen(() => import('../features/notifications/NotificationsPage'));
const CategoryNamesPage = lazyScreen(() => import('../features/categoryNames/CategoryNamesPage'));
const EmployeesPage = lazyScreen(() => import('../features/employees/EmployeesPage'));
const MerchantRequestsPage = lazyScreen(() => import('../features/merchantRequests/MerchantRequestsPage'));
const ComplaintsPage = lazyScreen(() => import('../features/complaints/ComplaintsPage'));
const EmployeeRequestsPage = lazyScreen(() => import('../features/employeeRequests/EmployeeRequestsPage'));
const MerchantsPage = lazyScreen(() => import('../features/merchants/MerchantsPage'));
const PromoCodesPage = lazyScreen(() => import('../features/promoCodes/PromoCodesPage'));
const UsageHistoryPage = lazyScreen(() => import('../features/usageHistory/UsageHistoryPage'));
const UsageReviewPage = lazyScreen(() => import('../features/usageReview/UsageReviewPage'));
const DashboardPage = lazyScreen(() => import('../features/dashboard/DashboardPage'));
const ReportsPage = lazyScreen(() => import('../features/reports/ReportsPage'));
const ApiClientsPage = lazyScreen(() => import('../features/apiClients/ApiClientsPage'));
const WebhooksPage = lazyScreen(() => import('../features/webhooks/WebhooksPage'));
const ActivityPage = lazyScreen(() => import('../features/activity/ActivityPage'));
const TrashPage = lazyScreen(() => import('../features/trash/TrashPage'));
const LayoutBuilderPage = lazyScreen(() => import('../features/builder/LayoutBuilderPage'));

/** Every authenticated route of the spec's route table, in the aside's order. */
export const sections: readonly Section[] = [
  { path: '/users', title: 'menu.users', icon: 'users', menu: 'main', adminOnly: true, screen: UsersPage },
  { path: '/dashboard', title: 'menu.dashboard', icon: 'dashboard', menu: 'main', screen: DashboardPage },
  { path: '/employeelist', title: 'menu.employeeList', icon: 'employees', menu: 'main', screen: EmployeesPage },
  { path: '/campaigns', title: 'menu.campaigns', icon: 'campaigns', menu: 'main', screen: CampaignsPage },
  { path: '/categorynames', title: 'menu.categoryNames', icon: 'categories', menu: 'main', screen: CategoryNamesPage },
  { path: '/assets', title: 'menu.assets', icon: 'assets', menu: 'main', screen: AssetsPage },
  { path: '/humanresource', title: 'menu.humanResource', icon: 'humanResource', menu: 'main', screen: HumanResourcesPage },
  { path: '/partners', title: 'menu.partners', icon: 'partners', menu: 'main', screen: PartnersPage },
  { path: '/merchants', title: 'menu.merchants', icon: 'merchants', menu: 'main', screen: MerchantsPage },
  { path: '/expectedcampaigns', title: 'menu.expectedCampaigns', icon: 'expected', menu: 'main', screen: ExpectedCampaignsPage },
  { path: '/promocode', title: 'menu.promocode', icon: 'promocode', menu: 'main', screen: PromoCodesPage },
  {
    path: '/complaints',
    title: 'menu.complaints',
    icon: 'complaints',
    menu: 'main',
    screen: ComplaintsPage,
    badge: { count: unreadComplaints, refresh: refreshUnreadComplaints, label: 'complaints.unreadBadge' },
  },
  { path: '/usagehistory', title: 'menu.usageHistory', icon: 'usage', menu: 'main', screen: UsageHistoryPage },
  { path: '/usagereview', title: 'menu.usageReview', icon: 'alert', menu: 'main', screen: UsageReviewPage },
  { path: '/notifications', title: 'menu.notifications', icon: 'notifications', menu: 'main', screen: NotificationsPage },
  { path: '/reports', title: 'menu.reports', icon: 'reports', menu: 'main', screen: ReportsPage },
  { path: '/requests', title: 'menu.requestsByEmployee', icon: 'requests', menu: 'requests', screen: EmployeeRequestsPage },
  { path: '/by-merchant', title: 'menu.requestsByMerchant', icon: 'merchantRequests', menu: 'requests', screen: MerchantRequestsPage },
  { path: '/api-clients', title: 'menu.apiClients', icon: 'key', menu: 'settings', adminOnly: true, screen: ApiClientsPage },
  { path: '/webhooks', title: 'menu.webhooks', icon: 'webhook', menu: 'settings', adminOnly: true, screen: WebhooksPage },
  { path: '/activity', title: 'menu.activity', icon: 'history', menu: 'settings', adminOnly: true, screen: ActivityPage },
  { path: '/trash', title: 'menu.trash', icon: 'trash', menu: 'settings', adminOnly: true, screen: TrashPage },
  { path: '/builder', title: 'title.builder', icon: 'layout', menu: null, screen: LayoutBuilderPage },
  { path: '/my-page', title: 'title.profile', icon: 'user', menu: null, screen: ProfilePage },
  { path: '/user-profile', title: 'title.profile', icon: 'user', menu: null, screen: ProfilePage },
];

export function canOpen(section: Section, roleId: number | undefined): boolean {
  return !section.adminOnly || roleId === Role.Admin;
}

export function homePath(roleId: number | undefined): string {
  return roleId === Role.Admin ? '/users' : '/dashboard';
}

/** Matches exactly the authenticated paths (and `/`), so anything else can go to the error page. */
export const adminPathPattern = new RegExp(
  `^/(?:${sections.map((section) => section.path.slice(1).replace(/[-/]/g, '\\$&')).join('|')})?/?$`,
  'i',
);

export function sectionAt(path: string): Section | undefined {
  const normalized = path.replace(/\/+$/, '').toLowerCase();
  return sections.find((section) => section.path === normalized);
}
