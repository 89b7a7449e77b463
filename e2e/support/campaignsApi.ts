import type { Api } from './api';
import type { Detail, Schema } from './contract';
import { runSql } from './sql';

export type CategoryRow = Schema<'CategoryRow'>;

export type CampaignRow = Detail<'CampaignRow'>;

export type NotificationRow = Schema<'NotificationRow'>;

const png = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'image/png' });

/** `POST campaign/category` (multipart) with three names and a photo. */
export function createCategory(api: Api, names: { nameAz: string; nameEn: string; nameRu: string }, photo?: Buffer): Promise<CategoryRow> {
  const form = new FormData();
  for (const [key, value] of Object.entries(names)) form.append(key, value);
  if (photo) form.append('file', png(photo), 'photo.png');
  return api.call<CategoryRow>('POST', 'campaign/category', form);
}

export interface NewCampaign {
  partnerId: number;
  campaignCategoryId: number;
  discountPercent: number;
  nameAz: string;
  nameEn: string;
  nameRu: string;
  descriptionAz?: string;
  descriptionEn?: string;
  descriptionRu?: string;
  /** Days from now; default 1 and 30. */
  startInDays?: number;
  expireInDays?: number;
  specialOffer?: boolean;
  isPremium?: boolean;
  assets?: number[];
}

/** `POST campaign` (multipart) with both images; campaigns made here are confirmed. */
export function createCampaign(api: Api, campaign: NewCampaign, image: Buffer, background: Buffer): Promise<CampaignRow> {
  const form = new FormData();
  const day = 24 * 3600 * 1000;
  const { startInDays = 1, expireInDays = 30, assets = [], ...fields } = campaign;
  const values: Record<string, string | number | boolean> = {
    descriptionAz: `${campaign.nameAz} təsviri`,
    descriptionEn: `${campaign.nameEn} description`,
    descriptionRu: `${campaign.nameRu} описание`,
    specialOffer: false,
    isPremium: false,
    ...fields,
    startDate: new Date(Date.now() + startInDays * day).toISOString(),
    expireDate: new Date(Date.now() + expireInDays * day).toISOString(),
  };
  for (const [key, value] of Object.entries(values)) form.append(key, String(value));
  for (const asset of assets) form.append('assets', String(asset));
  form.append('file', png(image), 'card.png');
  form.append('backgroundFile', png(background), 'background.png');
  return api.call<CampaignRow>('POST', 'campaign', form);
}

/**
 * Turns campaigns into ones waiting on Expected Campaigns. Partners submit
 * those through an inbound API a later issue adds; until then the test writes
 * the flag into the server's SQLite database (WAL, so beside the running
 * server) with `perkdesk sql`, as the router tests do.
 */
export function markAwaitingApproval(dbPath: string, ids: number[]): void {
  runSql(dbPath, `UPDATE campaigns SET is_confirmed = 0 WHERE id IN (${ids.map(Number).join(', ')});`);
}
