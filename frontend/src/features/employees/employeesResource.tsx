import { flagFilter } from '../../components/resource/flagFilter';
import type { ResourceDeclaration } from '../../components/resource/types';
import { StatusBadge } from '../../components/StatusToggle';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { formatPhone } from '../../lib/phone';
import { importAction } from './EmployeeImport';
import { editEmployeeFields, editEmployeeSchema, editPayload, editValuesOf, employeeExportForm, type EditEmployeeValues, type EmployeeRow } from './schemas';

/**
 * The Employee list (the specification's campaigns part, Employee): the app's users of the client
 * organisations. Listed through the spec's admin paths, edited in a modal,
 * switched active, deleted; the export asks for one asset.
 */
export const employeesResource: ResourceDeclaration<EmployeeRow> = {
  title: 'menu.employeeList',
  basePath: 'employee',
  listPath: 'employee/forAdmin',
  filterPath: 'employee/filter/admin',
  rowLabel: (employee) => employee.fullName,
  nouns: { one: 'noun.employee', many: 'noun.employees' },
  columns: [
    { field: 'firstName', label: 'field.firstName', width: 14 },
    { field: 'lastName', label: 'field.lastName', width: 14 },
    { field: 'email', kind: 'email', label: 'field.email', width: 26, priority: 2 },
    { field: 'phone', label: 'field.phone', kind: 'phone', priority: 3 },
    { field: 'assetName', label: 'field.assetName', width: 16, priority: 2 },
    { field: 'isActive', label: 'field.status', kind: 'status' },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'fullName', param: 'FullName', label: 'field.fullName' },
    { name: 'email', param: 'Email', label: 'field.email' },
    { name: 'phone', param: 'PhoneNumber', label: 'field.phone' },
    { name: 'assetName', param: 'AssetName', label: 'field.assetName' },
    flagFilter('isActive', 'IsActive', 'field.status', 'table.active', 'table.inactive'),
  ],
  edit: {
    title: 'employees.edit',
    fields: editEmployeeFields,
    schema: editEmployeeSchema,
    initialValues: editValuesOf,
    nameOf: (values: EditEmployeeValues) => `${values.firstName} ${values.lastName}`,
    submit: (values: EditEmployeeValues, employee: EmployeeRow) => api.put('employee', editPayload(values, employee)),
  },
  view: {
    title: 'employees.details',
    items: [
      { label: 'field.firstName', value: (employee) => employee.firstName },
      { label: 'field.lastName', value: (employee) => employee.lastName },
      { label: 'field.email', value: (employee) => employee.email },
      { label: 'field.phone', value: (employee) => formatPhone(employee.phone) },
      { label: 'field.assetName', value: (employee) => employee.assetName },
      { label: 'field.status', value: (employee) => <StatusBadge active={employee.isActive} /> },
      { label: 'field.createdAt', value: (employee) => (employee.createdAt ? formatDateTime(employee.createdAt) : '') },
    ],
  },
  remove: true,
  toggle: true,
  actions: [importAction],
  exportSpec: { fileName: 'EmployeeList.xlsx', path: 'employee/export/admin', form: employeeExportForm },
};
