import { api } from '../../lib/api';
import type { PickerLoader } from './types';

interface ListPickerOptions {
  /** The row field shown as the option's label (`userName` for employees); `name` by default. */
  label?: string;
  /** The filter the typed text is sent as (`Email` for employees); `Name` by default. */
  search?: string;
}

/**
 * A picker loader over a list endpoint: 30 rows a page sorted by the label, the
 * typed text sent as the `Name` filter (or the declared one). List reads carry
 * the content language, so localised names (cities) come back in it.
 */
export function listPicker(path: string, { label = 'name', search = 'Name' }: ListPickerOptions = {}): PickerLoader {
  return async (term, skip, take, signal) => {
    const page = await api.list<Record<string, unknown> & { id: number }>(
      path,
      { Skip: skip, Take: take, SortField: label, OrderBy: true, [search]: term.trim() },
      signal,
    );
    return { items: page.data.map((row) => ({ id: row.id, label: String(row[label] ?? '') })), total: page.totalCount };
  };
}

/**
 * A server picker as a list filter needs it: the pages to choose from, and how
 * to name a chosen id that arrives without its label (a shared link, the back
 * button): the record's label from `GET {itemPath}/{id}`.
 */
export interface ServerPicker {
  load: PickerLoader;
  describe: (id: string, signal: AbortSignal) => Promise<string>;
}

export function serverPicker(listPath: string, itemPath: string, options: ListPickerOptions = {}): ServerPicker {
  const label = options.label ?? 'name';
  return {
    load: listPicker(listPath, options),
    describe: async (id, signal) => String((await api.record<Record<string, unknown>>(`${itemPath}/${encodeURIComponent(id)}`, signal))[label] ?? id),
  };
}
