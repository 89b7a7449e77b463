import type { Api } from './api';
import { createCampaign, createCategory } from './campaignsApi';
import { pngBytes } from './images';
import { insertEmployees } from './peopleDb';
import { runSql } from './sql';

/**
 * A small install as the demo fills one (issue 14's dashboard and reports):
 * assets, partners, categories and confirmed campaigns made through the API,
 * some switched off or deleted there; employees and their uses written with
 * `perkdesk sql`, as they arrive from the mobile app (`peopleDb.ts`). The
 * numbers every chart and table must show are worked out here from the seed,
 * not asked of the server.
 */

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;
const sqlite = runSql;

export interface SeedUse {
  employee: number;
  asset: string;
  partner: string;
  campaign: string;
  category: string;
  /** UTC instant, ISO 8601 with milliseconds, as the server stores it. */
  at: string;
  rating: number | null;
  deleted?: boolean;
}

export interface ReportCounts {
  active: number;
  deactive: number;
  deleted: number;
  all: number;
}

export interface ReportingSeed {
  /** "2026-10": the calendar month before this one (UTC). */
  lastMonth: string;
  thisYear: number;
  uses: SeedUse[];
  /** Every name of each kind with its state, newest first. */
  names: Record<'asset' | 'partner' | 'campaign' | 'employee', { name: string; state: 'Active' | 'Deactive' | 'Deleted' }[]>;
  counts: Record<'asset' | 'partner' | 'campaign' | 'employee', ReportCounts>;
  employees: { active: number; deactive: number; total: number };
  /** Top 10 Merchant rows as the screen shows them: name, campaigns count, rating. */
  merchants: string[][];
  /** Top 10 Category rows: category name (Az), usage count. */
  categories: string[][];
  /** Employees included per asset: asset name, employee count, usage history count. */
  assetUsage: string[][];
  /** Count of employees on assets: asset name, employee count. */
  assetEmployees: string[][];
  /** Live uses per month (1–12) of a year. */
  usageIn(year: number): number[];
  lastMonthUsage: number;
  totalUsage: number;
}

function utcMonth(offset: number): { year: number; month: number } {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
}

const at = (year: number, month: number, dayOfMonth: number, hour = 10) => new Date(Date.UTC(year, month - 1, dayOfMonth, hour)).toISOString();

export async function seedReporting(api: Api, dbPath: string): Promise<ReportingSeed> {
  const png = (r: number) => pngBytes(40, [r, 80, 190], [255, 255, 255]);
  const thisYear = new Date().getUTCFullYear();
  const last = utcMonth(-1);
  const lastMonth = `${last.year}-${String(last.month).padStart(2, '0')}`;

  // Assets: two active, one switched off, one deleted.
  const asset = (name: string, prefix: string) =>
    api.createAsset({ name, contactPerson: 'Nigar Həsənova', phoneNumber: '994501234567', email: `${prefix.toLowerCase()}@asset.test`, barcodePrefix: prefix }, png(prefix.charCodeAt(0)));
  const azersun = await asset('Azərsun Holding', 'AZS');
  const bakcell = await asset('Bakcell', 'BKC');
  const kapital = await asset('Kapital Bank', 'KAP');
  const pasha = await asset('Paşa Sığorta', 'PSH');
  await api.call('PATCH', 'asset/active', { id: kapital.id, isActive: false });
  await api.call('DELETE', 'asset', { id: [pasha.id] });

  // Partners: three active with campaigns, one switched off without, one deleted.
  const partner = (name: string, email: string) =>
    api.createPartner(
      { name, contactPersonFirstName: 'Tofiq', contactPersonLastName: 'Əliyev', phoneNumber: '994502001122', email, cities: [{ cityId: 1, address: 'Nizami 10', latitude: 40.3777, longitude: 49.892 }] },
      png(email.length * 7),
    );
  const araz = await partner('Araz Market', 'info@araz.test');
  const bravo = await partner('Bravo', 'info@bravo.test');
  const sirin = await partner('Şirin Çay Evi', 'info@sirin.test');
  const xalq = await partner('Xalq Kitab', 'info@xalq.test');
  const kohne = await partner('Köhnə Partner', 'info@kohne.test');
  await api.call('PATCH', 'partner/active', { id: xalq.id, isActive: false });
  await api.call('DELETE', 'partner', { id: [kohne.id] });

  const food = await createCategory(api, { nameAz: 'Yemək', nameEn: 'Food', nameRu: 'Еда' }, png(30));
  const clothes = await createCategory(api, { nameAz: 'Geyim', nameEn: 'Clothes', nameRu: 'Одежда' }, png(90));
  const fun = await createCategory(api, { nameAz: 'Əyləncə', nameEn: 'Fun', nameRu: 'Развлечения' }, png(150));

  const campaign = (partnerId: number, categoryId: number, nameAz: string, discountPercent: number) =>
    createCampaign(api, { partnerId, campaignCategoryId: categoryId, discountPercent, nameAz, nameEn: `${nameAz} (en)`, nameRu: `${nameAz} (ru)` }, png(discountPercent * 4), png(250));
  const arazLunch = await campaign(araz.id, food.id, 'Nahar 20%', 20);
  const arazBreakfast = await campaign(araz.id, food.id, 'Səhər yeməyi', 15);
  const arazAutumn = await campaign(araz.id, clothes.id, 'Payız kolleksiyası', 10);
  const bravoClothes = await campaign(bravo.id, clothes.id, 'Bravo geyim', 12);
  const bravoCinema = await campaign(bravo.id, fun.id, 'Kino gecəsi', 25);
  const sirinTea = await campaign(sirin.id, food.id, 'Çay dəsti', 30);
  const sirinOld = await campaign(sirin.id, food.id, 'Köhnə təklif', 5);
  await api.call('PATCH', 'campaign/active', { id: bravoCinema.id, isActive: false });
  await api.call('DELETE', 'campaign', { id: [sirinOld.id] });

  // Employees: Azərsun 4 active + 1 off, Bakcell 2 active + 1 deleted, Kapital Bank 1 off.
  const people = [
    { assetId: azersun.id, firstName: 'Səbinə', lastName: 'Hüseynova', isActive: true },
    { assetId: azersun.id, firstName: 'Orxan', lastName: 'Quliyev', isActive: true },
    { assetId: azersun.id, firstName: 'Gülnar', lastName: 'Şahinova', isActive: true },
    { assetId: azersun.id, firstName: 'Çingiz', lastName: 'Məmmədli', isActive: true },
    { assetId: azersun.id, firstName: 'Rəna', lastName: 'İsmayılova', isActive: false },
    { assetId: bakcell.id, firstName: 'Elvin', lastName: 'Babayev', isActive: true },
    { assetId: bakcell.id, firstName: 'Aytən', lastName: 'Nəsirova', isActive: true },
    { assetId: bakcell.id, firstName: 'Murad', lastName: 'Kərimov', isActive: true },
    { assetId: kapital.id, firstName: 'Leyla', lastName: 'Əsgərova', isActive: false },
  ];
  const employeeIds = insertEmployees(
    dbPath,
    people.map((p, index) => ({ ...p, email: `employee${index + 1}@staff.test`, phone: `99450${String(1000000 + index)}` })),
  );
  await api.call('DELETE', 'employee', { id: [employeeIds[7]] });

  const uses: SeedUse[] = [
    { employee: employeeIds[0], asset: 'Azərsun Holding', partner: 'Araz Market', campaign: 'Nahar 20%', category: 'Yemək', at: at(thisYear, 1, 15), rating: 5 },
    { employee: employeeIds[1], asset: 'Azərsun Holding', partner: 'Araz Market', campaign: 'Səhər yeməyi', category: 'Yemək', at: at(thisYear, 3, 10), rating: 4 },
    { employee: employeeIds[2], asset: 'Azərsun Holding', partner: 'Araz Market', campaign: 'Payız kolleksiyası', category: 'Geyim', at: at(last.year, last.month, 5), rating: 4 },
    { employee: employeeIds[5], asset: 'Bakcell', partner: 'Bravo', campaign: 'Bravo geyim', category: 'Geyim', at: at(last.year, last.month, 12), rating: 3 },
    { employee: employeeIds[6], asset: 'Bakcell', partner: 'Araz Market', campaign: 'Nahar 20%', category: 'Yemək', at: at(last.year, last.month, 20), rating: null },
    { employee: employeeIds[0], asset: 'Azərsun Holding', partner: 'Şirin Çay Evi', campaign: 'Çay dəsti', category: 'Yemək', at: at(thisYear - 1, 11, 2), rating: null },
    { employee: employeeIds[3], asset: 'Azərsun Holding', partner: 'Bravo', campaign: 'Kino gecəsi', category: 'Əyləncə', at: at(thisYear - 1, 12, 30), rating: null },
    { employee: employeeIds[6], asset: 'Bakcell', partner: 'Araz Market', campaign: 'Nahar 20%', category: 'Yemək', at: at(thisYear, 2, 1), rating: 1, deleted: true },
  ];
  const ids = {
    asset: { 'Azərsun Holding': azersun.id, Bakcell: bakcell.id } as Record<string, number>,
    partner: { 'Araz Market': araz.id, Bravo: bravo.id, 'Şirin Çay Evi': sirin.id } as Record<string, number>,
    campaign: { 'Nahar 20%': arazLunch.id, 'Səhər yeməyi': arazBreakfast.id, 'Payız kolleksiyası': arazAutumn.id, 'Bravo geyim': bravoClothes.id, 'Kino gecəsi': bravoCinema.id, 'Çay dəsti': sirinTea.id } as Record<string, number>,
    category: { Yemək: food.id, Geyim: clothes.id, Əyləncə: fun.id } as Record<string, number>,
  };
  const values = uses
    .map(
      (u) =>
        `(${u.employee}, ${ids.asset[u.asset]}, ${ids.partner[u.partner]}, ${ids.campaign[u.campaign]}, ${ids.category[u.category]}, ${quote(`employee${employeeIds.indexOf(u.employee) + 1}@staff.test`)}, ${quote(u.asset)}, ${quote(u.partner)}, ${quote(u.campaign)}, ${quote(u.category)}, 10, 0, ${u.rating ?? 'NULL'}, ${quote(u.at)}, ${u.deleted ? quote(u.at) : 'NULL'})`,
    )
    .join(', ');
  sqlite(
    dbPath,
    `INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email, asset_name, partner_name, campaign_name, category_name, discount_percent, status, rating, created_at, deleted_at) VALUES ${values};`,
  );

  const live = uses.filter((u) => !u.deleted);
  const usageIn = (year: number) => Array.from({ length: 12 }, (_, index) => live.filter((u) => u.at.startsWith(`${year}-${String(index + 1).padStart(2, '0')}`)).length);
  return {
    lastMonth,
    thisYear,
    uses,
    names: {
      asset: [
        { name: 'Paşa Sığorta', state: 'Deleted' },
        { name: 'Kapital Bank', state: 'Deactive' },
        { name: 'Bakcell', state: 'Active' },
        { name: 'Azərsun Holding', state: 'Active' },
      ],
      partner: [
        { name: 'Köhnə Partner', state: 'Deleted' },
        { name: 'Xalq Kitab', state: 'Deactive' },
        { name: 'Şirin Çay Evi', state: 'Active' },
        { name: 'Bravo', state: 'Active' },
        { name: 'Araz Market', state: 'Active' },
      ],
      campaign: [
        { name: 'Köhnə təklif', state: 'Deleted' },
        { name: 'Çay dəsti', state: 'Active' },
        { name: 'Kino gecəsi', state: 'Deactive' },
        { name: 'Bravo geyim', state: 'Active' },
        { name: 'Payız kolleksiyası', state: 'Active' },
        { name: 'Səhər yeməyi', state: 'Active' },
        { name: 'Nahar 20%', state: 'Active' },
      ],
      employee: people
        .map((p, index) => ({ name: `${p.firstName} ${p.lastName}`, state: (index === 7 ? 'Deleted' : p.isActive ? 'Active' : 'Deactive') as 'Active' | 'Deactive' | 'Deleted' }))
        .reverse(),
    },
    counts: {
      asset: { active: 2, deactive: 1, deleted: 1, all: 4 },
      partner: { active: 3, deactive: 1, deleted: 1, all: 5 },
      campaign: { active: 5, deactive: 1, deleted: 1, all: 7 },
      employee: { active: 6, deactive: 2, deleted: 1, all: 9 },
    },
    employees: { active: 6, deactive: 2, total: 8 },
    merchants: [
      ['Araz Market', '3', '4.33'],
      ['Bravo', '2', '3.00'],
      ['Şirin Çay Evi', '1', 'No ratings'],
      ['Xalq Kitab', '0', 'No ratings'],
    ],
    categories: [
      ['Yemək', '4'],
      ['Geyim', '2'],
      ['Əyləncə', '1'],
    ],
    assetUsage: [
      ['Azərsun Holding', '5', '5'],
      ['Bakcell', '2', '2'],
      ['Kapital Bank', '1', '0'],
    ],
    assetEmployees: [
      ['Azərsun Holding', '5'],
      ['Bakcell', '2'],
      ['Kapital Bank', '1'],
    ],
    usageIn,
    lastMonthUsage: live.filter((u) => u.at.startsWith(lastMonth)).length,
    totalUsage: live.length,
  };
}
