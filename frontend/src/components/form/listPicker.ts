import { api } from '../../lib/api';
import type { PickerLoader } from './types';

/**
 * A picker loader over a list endpoint: 30 rows a page sorted by name, the
 * typed text sent as the `Name` filter. List reads carry the content language,
 * so localised names (cities) come back in it.
 */
export function listPicker<Row extends { id: number; name: string }>(path: string): PickerLoader {
  return async (search, skip, take, signal) => {
    const page = await api.list<Row>(path, { Skip: skip, Take: take, SortField: 'name', OrderBy: true, Name: search.trim() }, signal);
    return { items: page.data.map((row) => ({ id: row.id, label: row.name })), total: page.totalCount };
  };
}
