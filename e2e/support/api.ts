import { randomUUID } from 'node:crypto';
import type { Account } from './accounts';
import type { Detail, JsonBody, Schema } from './contract';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type UserRow = Schema<'UserRow'>;

/** `POST user/register`'s body; the password defaults to the seed's. */
export type NewUser = Omit<JsonBody<'/api/user/register', 'post'>, 'password'> & { password?: string };

export type AssetRow = Schema<'AssetRow'>;

export interface NewAsset {
  name: string;
  contactPerson: string;
  phoneNumber: string;
  email: string;
  barcodePrefix: string;
}

export type HrAccountRow = Schema<'HumanResourceRow'>;

export type NewHrAccount = JsonBody<'/api/humanResource', 'post'>;

export type PartnerCityRow = PartnerRow['cities'][number];

export type PartnerRow = Detail<'PartnerRow'>;

export interface NewPartner {
  name: string;
  contactPersonFirstName: string;
  contactPersonLastName: string;
  phoneNumber: string;
  email: string;
  isPromoCodeUsing?: boolean;
  promoCodeVersion?: 1 | 2;
  cities: { cityId: number; address: string; latitude: number; longitude: number }[];
}

export const Role = { Admin: 0, User: 1, CallCenter: 2 } as const;

/** The password every seeded user gets (the create-user rule: upper, lower, digit, one of !@#$%^&*_-). */
export const SEED_PASSWORD = 'Seed-pass-2026';

/** Signs in as a real client would (`POST /api/auth/admin/token` with a TOTP code), for seeding and checks. */
export async function requestTokens(baseUrl: string, account: Account, password = account.password) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${baseUrl}/api/auth/admin/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userName: account.email, password, otp: await account.nextCode() }),
    });
    // Sign-in attempts are rate limited per address; wait as the server asks, a few times at most.
    if (response.status === 429 && attempt < 4) {
      await sleep((Number(response.headers.get('Retry-After')) || 6) * 1000);
      continue;
    }
    const body = (await response.json().catch(() => ({}))) as { token?: string; refreshToken?: string; expiresAt?: string; message?: string };
    if (!response.ok || !body.token) throw new ApiError(response.status, body.message ?? `sign-in failed with ${response.status}`);
    return body as { token: string; refreshToken: string; expiresAt: string };
  }
}

/** The API with a bearer token: what the tests use to seed data and to check what the UI did. */
export class Api {
  private constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  static async signIn(baseUrl: string, account: Account): Promise<Api> {
    const tokens = await requestTokens(baseUrl, account);
    return new Api(baseUrl, tokens.token);
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    if (method !== 'GET') headers['x-requestid'] = randomUUID();
    // A FormData body goes as multipart (fetch sets the boundary); anything else as JSON.
    const multipart = body instanceof FormData;
    if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}/api/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const message = (parsed as { message?: string } | undefined)?.message ?? text;
      throw new ApiError(response.status, `${method} ${path}: ${response.status} ${message}`);
    }
    return parsed as T;
  }

  createUser(user: NewUser): Promise<UserRow> {
    const password = user.password ?? SEED_PASSWORD;
    return this.call<UserRow>('POST', 'user/register', {
      roleId: Role.User,
      ...user,
      password,
      confirmPassword: password,
    });
  }

  /** A list or filtered list (`GET {path}` with Skip/Take and the filter's query names). */
  list<T>(path: string, filter: Record<string, string | number | boolean> = {}): Promise<{ data: T[]; totalCount: number }> {
    const query = new URLSearchParams({ Skip: '0', Take: '100', ...Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, String(v)])) });
    return this.call('GET', `${path}?${query}`);
  }

  /** `POST asset` (multipart, as the Create Asset form sends it) with a PNG. */
  createAsset(asset: NewAsset, png: Buffer): Promise<AssetRow> {
    const form = new FormData();
    for (const [key, value] of Object.entries(asset)) form.append(key, value);
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
    return this.call<AssetRow>('POST', 'asset', form);
  }

  createHrAccount(account: NewHrAccount): Promise<HrAccountRow> {
    return this.call<HrAccountRow>('POST', 'humanResource', { isMfaActive: false, isEmployeeSeen: false, ...account, confirmPassword: account.password });
  }

  /** `POST partner` (multipart with `Cities[i].CityId`, ...), optionally with a PNG. */
  createPartner(partner: NewPartner, png?: Buffer): Promise<PartnerRow> {
    const form = new FormData();
    const { cities, ...fields } = partner;
    for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
    cities.forEach((city, index) => {
      form.append(`Cities[${index}].CityId`, String(city.cityId));
      form.append(`Cities[${index}].Address`, city.address);
      form.append(`Cities[${index}].Latitude`, String(city.latitude));
      form.append(`Cities[${index}].Longitude`, String(city.longitude));
    });
    if (png) form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
    return this.call<PartnerRow>('POST', 'partner', form);
  }

  usersWhere(filter: Record<string, string | number> = {}): Promise<{ data: UserRow[]; totalCount: number }> {
    return this.list<UserRow>('user/filter', filter);
  }

  async userByEmail(email: string): Promise<UserRow | undefined> {
    const { data } = await this.usersWhere({ Email: email });
    return data.find((user) => user.email.toLowerCase() === email.toLowerCase());
  }

  /** Gives an account another role (the edit form's call; an edit needs a phone). */
  async setRole(email: string, roleId: number): Promise<UserRow> {
    const user = await this.userByEmail(email);
    if (!user) throw new Error(`no user ${email}`);
    return this.call<UserRow>('PUT', 'user', {
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phone: user.phone || '994501112233',
      roleId,
    });
  }
}
