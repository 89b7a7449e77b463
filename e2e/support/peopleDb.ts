import { runSql } from './sql';

/**
 * Rows that only come from outside the back office (employees sign up in the
 * mobile app; their usage, wishes, complaints and merchant applications come
 * through the inbound API of a later issue) are written into the test's
 * database with `perkdesk sql`, as `markAwaitingApproval` does for campaigns.
 */
const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

const run = runSql;

export interface SeedEmployee {
  assetId: number;
  firstName: string;
  lastName: string;
  email: string;
  /** 994 + code without its 0 + 7 digits. */
  phone: string;
  isActive?: boolean;
}

/** Inserts employees and returns their ids, in order. */
export function insertEmployees(dbPath: string, employees: SeedEmployee[]): number[] {
  const values = employees
    .map((e) => `(${Number(e.assetId)}, ${quote(e.firstName)}, ${quote(e.lastName)}, ${quote(e.email)}, ${quote(e.phone)}, ${e.isActive === false ? 0 : 1})`)
    .join(', ');
  const out = run(dbPath, `INSERT INTO employees (asset_id, first_name, last_name, email, phone, is_active) VALUES ${values} RETURNING id;`);
  return out.trim().split('\n').map(Number);
}

export interface SeedMerchantRequest {
  partnerName: string;
  fullName: string;
  email: string;
  phone: string;
  /** The applicant's file: the stored picture of this asset (any stored file downloads the same way). */
  fileOfAsset?: number;
  cityIds: number[];
}

/** Inserts merchant applications with their cities and returns their ids, in order. */
export function insertMerchantRequests(dbPath: string, requests: SeedMerchantRequest[]): number[] {
  return requests.map((r) => {
    const file = r.fileOfAsset === undefined ? 'NULL' : `(SELECT file_id FROM assets WHERE id = ${Number(r.fileOfAsset)})`;
    const id = Number(
      run(dbPath, `INSERT INTO merchant_applications (partner_name, full_name, email, phone, file_id) VALUES (${quote(r.partnerName)}, ${quote(r.fullName)}, ${quote(r.email)}, ${quote(r.phone)}, ${file}) RETURNING id;`).trim(),
    );
    if (r.cityIds.length > 0) run(dbPath, `INSERT INTO merchant_application_cities (application_id, city_id) VALUES ${r.cityIds.map((city) => `(${id}, ${Number(city)})`).join(', ')};`);
    return id;
  });
}

/** A city's Azerbaijani name, as lists read in the default content language show it. */
export function cityNameAz(dbPath: string, id: number): string {
  return run(dbPath, `SELECT name_az FROM cities WHERE id = ${Number(id)};`).trim();
}

export interface SeedComplaint {
  fullName: string;
  email: string;
  phone: string;
  /** 1 Discount not honoured, 2 Wrong discount amount, 3 Staff behaviour, 4 App problem, 5 Other. */
  reasonId: number;
  description: string;
  isRead?: boolean;
}

/** Inserts complaints (as employees send them from the app) and returns their ids, in order. */
export function insertComplaints(dbPath: string, complaints: SeedComplaint[]): number[] {
  const values = complaints
    .map((c) => `(${quote(c.fullName)}, ${quote(c.email)}, ${quote(c.phone)}, ${Number(c.reasonId)}, ${quote(c.description)}, ${c.isRead ? 1 : 0})`)
    .join(', ');
  const out = run(dbPath, `INSERT INTO complaints (full_name, email, phone, reason_id, description, is_read) VALUES ${values} RETURNING id;`);
  return out.trim().split('\n').map(Number);
}

/** Inserts employees' wishes (`wish_list_requests`) and returns their ids, in order. */
export function insertWishes(dbPath: string, wishes: { employeeId: number; text: string; requestDate?: string; status?: number }[]): number[] {
  return wishes.map((w) => {
    const date = w.requestDate ? quote(w.requestDate) : "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
    return Number(
      run(dbPath, `INSERT INTO wish_list_requests (employee_id, text, status, request_date) VALUES (${Number(w.employeeId)}, ${quote(w.text)}, ${Number(w.status ?? 0)}, ${date}) RETURNING id;`).trim(),
    );
  });
}

export interface SeedUsage {
  employeeId: number;
  campaignId: number;
  /** When the discount was used (stored as given: an ISO instant in UTC). */
  at: string;
  /** 0 confirmed (default), 1 cancelled. */
  status?: number;
  /** The employee's 1–5 rating of the use, if any. */
  rating?: number;
  /** Confirmed by the partner at the till with a redemption code, at the partner's first branch. */
  verified?: boolean;
}

/**
 * Inserts uses of campaigns by employees (`usage_history`) and returns their ids, in order. The names are copied
 * from the employee, asset, campaign, partner and category as they stand now, as the inbound API records a use.
 */
export function insertUsage(dbPath: string, uses: SeedUsage[]): number[] {
  return uses.map((u) =>
    Number(
      run(
        dbPath,
        `INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email, asset_name, partner_name, campaign_name, category_name, discount_percent, status, rating, created_at, verified, partner_city_id)
         SELECT e.id, e.asset_id, c.partner_id, c.id, c.campaign_category_id, e.email, a.name, p.name, c.name_az, cc.name_az, c.discount_percent, ${Number(u.status ?? 0)}, ${u.rating === undefined ? 'NULL' : Number(u.rating)}, ${quote(u.at)},
                ${u.verified ? 1 : 0}, ${u.verified ? '(SELECT MIN(pc.id) FROM partner_cities pc WHERE pc.partner_id = c.partner_id)' : 'NULL'}
         FROM employees e JOIN assets a ON a.id = e.asset_id, campaigns c JOIN partners p ON p.id = c.partner_id JOIN campaign_categories cc ON cc.id = c.campaign_category_id
         WHERE e.id = ${Number(u.employeeId)} AND c.id = ${Number(u.campaignId)} RETURNING id;`,
      ).trim(),
    ),
  );
}
