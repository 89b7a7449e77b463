import { DetailImage } from '../../components/Drawer';
import type { ResourceDeclaration } from '../../components/resource/types';
import { StatusBadge } from '../../components/StatusToggle';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { formatPhone } from '../../lib/phone';
import {
  createAssetFields,
  createAssetForm,
  createAssetSchema,
  editAssetFields,
  editAssetForm,
  editAssetSchema,
  editValuesOf,
  emptyCreateAsset,
  type AssetRow,
  type CreateAssetValues,
  type EditAssetValues,
} from './schemas';

/** The Assets screen (the specification's platform part, Assets screen), as a ResourcePage declaration. */
export const assetsResource: ResourceDeclaration<AssetRow> = {
  title: 'assets.title',
  basePath: 'asset',
  rowLabel: (asset) => asset.name,
  nouns: { one: 'noun.asset', many: 'noun.assets' },
  columns: [
    { field: 'filePath', label: 'field.image', kind: 'image', priority: 3 },
    { field: 'name', label: 'field.assetName', width: 16 },
    { field: 'contactPerson', label: 'field.primaryContactPerson', width: 18, priority: 2 },
    { field: 'contactPersonPhoneNumber', label: 'field.phone', kind: 'phone', priority: 3 },
    { field: 'contactPersonEmail', kind: 'email', label: 'field.email', width: 28, priority: 2 },
    { field: 'isActive', label: 'field.status', kind: 'status' },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'name', param: 'Name', label: 'field.name' },
    { name: 'contactPerson', param: 'ContactPerson', label: 'field.contactPerson' },
    { name: 'phone', param: 'ContactPersonPhoneNumber', label: 'field.phone' },
    { name: 'email', param: 'ContactPersonEmail', label: 'field.email' },
  ],
  create: {
    title: 'assets.create',
    fields: createAssetFields,
    schema: createAssetSchema,
    initialValues: emptyCreateAsset,
    nameOf: (values: CreateAssetValues) => values.name,
    submit: (values: CreateAssetValues) => api.post('asset', createAssetForm(values)),
  },
  edit: {
    title: 'assets.edit',
    fields: editAssetFields,
    schema: editAssetSchema,
    initialValues: editValuesOf,
    nameOf: (values: EditAssetValues) => values.name,
    submit: (values: EditAssetValues, asset: AssetRow) => api.put('asset', editAssetForm(values, asset)),
  },
  view: {
    title: 'assets.details',
    items: [
      { label: 'field.image', value: (asset) => <DetailImage path={asset.filePath} alt={asset.name} /> },
      { label: 'field.assetName', value: (asset) => asset.name },
      { label: 'field.primaryContactPerson', value: (asset) => asset.contactPerson },
      { label: 'field.phone', value: (asset) => formatPhone(asset.contactPersonPhoneNumber) },
      { label: 'field.email', value: (asset) => asset.contactPersonEmail },
      { label: 'field.barcodePrefix', value: (asset) => asset.barcodePrefix },
      { label: 'field.status', value: (asset) => <StatusBadge active={asset.isActive} /> },
      { label: 'field.createdAt', value: (asset) => formatDateTime(asset.createdAt) },
    ],
  },
  remove: true,
  toggle: true,
  exportSpec: { fileName: 'Assets.xlsx' },
};
