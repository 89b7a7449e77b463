import { RecoveryCodesDialog, recoveryCodesOf } from '../../components/recovery/RecoveryCodes';
import { formTool, qrCodeTool, resetAuthenticatorTool } from '../../components/resource/rowTools';
import type { ResourceDeclaration } from '../../components/resource/types';
import { StatusBadge } from '../../components/StatusToggle';
import { api } from '../../lib/api';
import { t } from '../../lib/i18n';
import { formatPhone } from '../../lib/phone';
import { roleOptions } from '../../lib/roles';
import {
  adminPasswordFields,
  adminPasswordSchema,
  createUserFields,
  createUserSchema,
  detailsPayload,
  editUserFields,
  editUserSchema,
  editValuesOf,
  emptyCreateUser,
  type AdminPasswordValues,
  type CreateUserValues,
  type EditUserValues,
  type UserRow,
} from './schemas';

const fullName = (user: UserRow) => `${user.firstName} ${user.lastName}`;
const roleName = (roleId: number) => {
  const role = roleOptions.find((option) => option.value === roleId);
  return role ? t(role.labelKey) : String(roleId);
};

/** The Users screen (the specification's platform part, Users screen), as a ResourcePage declaration. */
export const usersResource: ResourceDeclaration<UserRow> = {
  title: 'users.title',
  basePath: 'user',
  rowLabel: fullName,
  nouns: { one: 'noun.user', many: 'noun.users' },
  // Nobody deactivates or deletes themselves (the server refuses with 409), so the own row does not offer it.
  isOwnAccount: (row, user) => row.id === user.id,
  columns: [
    { field: 'firstName', label: 'field.firstName', width: 12 },
    { field: 'lastName', label: 'field.lastName', width: 14 },
    { field: 'email', kind: 'email', label: 'field.email', width: 28 },
    { field: 'phone', label: 'field.phone', kind: 'phone', priority: 2 },
    { field: 'isActive', label: 'field.status', kind: 'status' },
  ],
  filters: [
    { name: 'firstName', param: 'FirstName', label: 'field.firstName' },
    { name: 'lastName', param: 'LastName', label: 'field.lastName' },
    { name: 'email', param: 'Email', label: 'field.email' },
    {
      name: 'roleId',
      param: 'RoleId',
      label: 'field.role',
      kind: 'select',
      options: roleOptions.map((option) => ({ value: String(option.value), label: option.labelKey })),
    },
  ],
  create: {
    title: 'users.create',
    fields: createUserFields,
    schema: createUserSchema,
    initialValues: emptyCreateUser,
    nameOf: (values: CreateUserValues) => `${values.firstName} ${values.lastName}`,
    submit: (values: CreateUserValues) =>
      api.post('user/register', { ...detailsPayload(values), password: values.password, confirmPassword: values.confirmPassword }),
    // The new user's recovery codes, shown once for the Admin to hand over with the QR code.
    shownOnce: (answer, values: CreateUserValues, onClose) =>
      recoveryCodesOf(answer).length > 0 && (
        <RecoveryCodesDialog codes={recoveryCodesOf(answer)} owner={`${values.firstName} ${values.lastName}`} onClose={onClose} />
      ),
  },
  edit: {
    title: 'users.edit',
    fields: editUserFields,
    schema: editUserSchema,
    initialValues: editValuesOf,
    nameOf: (values: EditUserValues) => `${values.firstName} ${values.lastName}`,
    submit: (values: EditUserValues, user: UserRow) => api.put('user', { id: user.id, ...detailsPayload(values) }),
  },
  view: {
    title: 'users.details',
    items: [
      { label: 'field.firstName', value: (user) => user.firstName },
      { label: 'field.lastName', value: (user) => user.lastName },
      { label: 'field.email', value: (user) => user.email },
      { label: 'field.status', value: (user) => <StatusBadge active={user.isActive} /> },
      { label: 'field.phone', value: (user) => formatPhone(user.phone) || t('table.noValue') },
      { label: 'field.role', value: (user) => roleName(user.roleId) },
    ],
  },
  remove: true,
  toggle: true,
  tools: [
    formTool<UserRow, AdminPasswordValues>({
      id: 'change-password',
      label: 'tool.changePassword',
      icon: 'key',
      fields: adminPasswordFields,
      schema: adminPasswordSchema,
      initialValues: () => ({ oldPassword: '', newPassword: '', newPasswordConfirm: '' }),
      submit: (values, user) => api.put('user/changePassword', { id: user.id, ...values }),
      confirmation: (user) => t('toast.passwordChanged', { name: fullName(user) }),
    }),
    qrCodeTool<UserRow>({ userId: (user) => user.id, name: fullName }),
    resetAuthenticatorTool<UserRow>({ userId: (user) => user.id, name: fullName }),
  ],
  exportSpec: { fileName: 'Users.xlsx' },
};
