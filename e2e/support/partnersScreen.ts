import type { Locator } from 'playwright-core';
import type { FormDialog } from './listScreen';
import { until } from './ui';

export interface CityRowValues {
  /** The city's name as the picker shows it (the content language, Az by default). */
  city: string;
  address: string;
  latitude: string;
  longitude: string;
}

/** One city row of the partner form ('City 1', 'City 2', ...): its inputs and its Remove button. */
export function cityRow(form: FormDialog, index: number) {
  const group: Locator = form.root.getByRole('group', { name: `City ${index}`, exact: true });
  return {
    group,
    city: group.getByLabel('City', { exact: true }),
    address: group.getByLabel('Address', { exact: true }),
    latitude: group.getByLabel('Latitude', { exact: true }),
    longitude: group.getByLabel('Longitude', { exact: true }),
    remove: form.root.getByRole('button', { name: `Remove City ${index}`, exact: true }),
  };
}

/** The city rows' values, top to bottom, as the form shows them. */
export async function cityRows(form: FormDialog): Promise<CityRowValues[]> {
  const count = await form.root.getByRole('group', { name: /^City \d+$/ }).count();
  const rows: CityRowValues[] = [];
  for (let index = 1; index <= count; index += 1) {
    const row = cityRow(form, index);
    rows.push({
      city: await row.city.inputValue(),
      address: await row.address.inputValue(),
      latitude: await row.latitude.inputValue(),
      longitude: await row.longitude.inputValue(),
    });
  }
  return rows;
}

/** Fills city row `index` as a person would: search the city, pick it, type the address and coordinates. */
export async function fillCityRow(form: FormDialog, index: number, values: Partial<CityRowValues>): Promise<void> {
  const row = cityRow(form, index);
  if (values.city !== undefined) await form.pick(row.city, values.city.slice(0, 3), values.city);
  if (values.address !== undefined) await row.address.fill(values.address);
  if (values.latitude !== undefined) await row.latitude.fill(values.latitude);
  if (values.longitude !== undefined) await row.longitude.fill(values.longitude);
}

/** Adds a city row with 'Add city' and fills it. */
export async function addCityRow(form: FormDialog, values: CityRowValues): Promise<void> {
  const before = await form.root.getByRole('group', { name: /^City \d+$/ }).count();
  await form.root.getByRole('button', { name: 'Add city' }).click();
  await until(() => form.root.getByRole('group', { name: /^City \d+$/ }).count()).toBe(before + 1);
  await fillCityRow(form, before + 1, values);
}
