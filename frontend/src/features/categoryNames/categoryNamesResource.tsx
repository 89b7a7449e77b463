import { DetailImage } from '../../components/Drawer';
import type { ResourceDeclaration } from '../../components/resource/types';
import { StatusBadge } from '../../components/StatusToggle';
import { api } from '../../lib/api';
import {
  categoryName,
  categorySchema,
  categoryValuesOf,
  createCategoryFields,
  createCategoryForm,
  editCategoryFields,
  editCategoryForm,
  emptyCategory,
  type CategoryRow,
  type CategoryValues,
} from './schemas';

/**
 * Category Names (the specification's campaigns part, Category Names): the campaign categories with
 * their photo, the name in the header's content language and their position;
 * the status switch is `PUT campaign/category/changeStatus`.
 */
export const categoryNamesResource: ResourceDeclaration<CategoryRow> = {
  title: 'categories.title',
  basePath: 'campaign/category',
  rowLabel: categoryName,
  nouns: { one: 'noun.category', many: 'noun.categories' },
  columns: [
    { field: 'filePath', label: 'field.photo', kind: 'image' },
    { field: 'name', label: 'field.categoryName', width: 24 },
    { field: 'order', label: 'field.order' },
    { field: 'isActive', label: 'field.status', kind: 'status' },
  ],
  toolsLabel: 'table.rowActions',
  filters: [{ name: 'name', param: 'Name', label: 'field.categoryName' }],
  create: {
    title: 'categories.create',
    fields: createCategoryFields,
    schema: categorySchema,
    nameOf: (values: CategoryValues) => values.nameAz,
    initialValues: emptyCategory,
    submit: (values: CategoryValues) => api.post('campaign/category', createCategoryForm(values)),
  },
  edit: {
    title: 'categories.edit',
    fields: editCategoryFields,
    schema: categorySchema,
    nameOf: (values: CategoryValues) => values.nameAz,
    initialValues: categoryValuesOf,
    submit: (values: CategoryValues, category: CategoryRow) => api.put('campaign/category', editCategoryForm(values, category)),
  },
  view: {
    title: 'categories.details',
    items: [
      { label: 'field.photo', value: (category) => <DetailImage path={category.filePath} alt={categoryName(category)} /> },
      { label: 'field.nameAz', value: (category) => category.nameAz },
      { label: 'field.nameEn', value: (category) => category.nameEn },
      { label: 'field.nameRu', value: (category) => category.nameRu },
      { label: 'field.order', value: (category) => category.order },
      { label: 'field.status', value: (category) => <StatusBadge active={category.isActive} /> },
    ],
  },
  remove: true,
  toggle: true,
  toggleCall: (category, isActive) => api.put('campaign/category/changeStatus', { id: category.id, isActive }),
};
