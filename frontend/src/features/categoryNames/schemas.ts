import type { ImageValue } from '../../components/form/ImagePicker';
import type { ChoiceOption, FieldDef } from '../../components/form/types';
import { api } from '../../lib/api';
import { toFormData } from '../../lib/formData';
import { FORM_MESSAGES } from '../../generated/messages';
import { required, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema } from '../../lib/contract';

/** A row as the server's document declares it (`CategoryRow`). */
export type CategoryRow = ContractSchema<'CategoryRow'>;

export interface CategoryValues {
  /** The category being edited (0 on create): the order select loads the positions beside it. */
  id: number;
  nameAz: string;
  nameEn: string;
  nameRu: string;
  file: ImageValue;
  /** '' keeps the position (on create: last). */
  order: string;
}

/** The server's messages (its declared Category form, create and edit alike); the photo is not validated. */
const SERVER = FORM_MESSAGES['POST /api/campaign/category'];
export const CATEGORY_MESSAGES = {
  nameAz: SERVER.nameAz.required,
  nameEn: SERVER.nameEn.required,
  nameRu: SERVER.nameRu.required,
} as const;

export const categorySchema: Schema<CategoryValues> = {
  nameAz: [required(CATEGORY_MESSAGES.nameAz)],
  nameEn: [required(CATEGORY_MESSAGES.nameEn)],
  nameRu: [required(CATEGORY_MESSAGES.nameRu)],
};

/** The positions of every category, '1 · Food', in order: where the edited one can move. */
export async function categoryPositions(_: unknown, signal: AbortSignal): Promise<ChoiceOption[]> {
  const page = await api.list<CategoryRow>('campaign/category', { SortField: 'order', OrderBy: true }, signal);
  return page.data.map((category) => ({ value: String(category.order), label: { raw: `${category.order} · ${category.name}` } }));
}

const nameFields: FieldDef<CategoryValues>[] = [
  { name: 'nameAz', label: 'field.nameAz', kind: 'text', autoComplete: 'off' },
  { name: 'nameEn', label: 'field.nameEn', kind: 'text', autoComplete: 'off' },
  { name: 'nameRu', label: 'field.nameRu', kind: 'text', autoComplete: 'off' },
  { name: 'file', label: 'field.photo', kind: 'image' },
];

export const createCategoryFields = nameFields;

/** Edit adds the order: another category's position, which moves that one and those after it down. */
export const editCategoryFields: FieldDef<CategoryValues>[] = [
  ...nameFields,
  { name: 'order', label: 'field.order', kind: 'dependentSelect', dependsOn: 'id', loadOptions: categoryPositions, emptyOption: 'order.current' },
];

export const emptyCategory = (): CategoryValues => ({ id: 0, nameAz: '', nameEn: '', nameRu: '', file: null, order: '' });

export const categoryValuesOf = (category: CategoryRow): CategoryValues => ({
  id: category.id,
  nameAz: category.nameAz,
  nameEn: category.nameEn,
  nameRu: category.nameRu,
  file: category.filePath ?? category.photo ?? null,
  order: '',
});

const parts = (values: CategoryValues) => ({
  nameAz: values.nameAz.trim(),
  nameEn: values.nameEn.trim(),
  nameRu: values.nameRu.trim(),
  // Without a new file the server keeps the stored photo.
  file: values.file instanceof File ? values.file : undefined,
});

/** `POST campaign/category` multipart: the three names and the photo; the new category goes last. */
export const createCategoryForm = (values: CategoryValues): FormData => toFormData(parts(values));

/** `PUT campaign/category` multipart: as create plus `id` and, when chosen, the new `order`. */
export const editCategoryForm = (values: CategoryValues, category: CategoryRow): FormData =>
  toFormData({ id: category.id, ...parts(values), order: values.order || undefined });

/** The name to confirm a change with: the one the list shows, else the Az one. */
export const categoryName = (category: Pick<CategoryRow, 'name' | 'nameAz'>) => category.name || category.nameAz;

