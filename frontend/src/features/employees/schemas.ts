import { listPicker } from '../../components/form/listPicker';
import type { FieldDef, PickerOption } from '../../components/form/types';
import { fromApiPhone, toApiPhone, type PhoneValue } from '../../lib/phone';
import { FORM_MESSAGES } from '../../generated/messages';
import { completePhone, emailRules, MESSAGES, required, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema } from '../../lib/contract';

/** The server's messages (its declared employee edit). */
const SERVER = FORM_MESSAGES['PUT /api/employee'];

/** A row as the server's document declares it (`EmployeeRow`). */
export type EmployeeRow = ContractSchema<'EmployeeRow'>;

/** Named like `PUT employee`'s fields, so the server's `errors` keys land on them. */
export interface EditEmployeeValues {
  email: string;
  firstName: string;
  lastName: string;
  phone: PhoneValue;
}

export const editEmployeeFields: FieldDef<EditEmployeeValues>[] = [
  { name: 'email', label: 'field.email', kind: 'email', autoComplete: 'off' },
  { name: 'firstName', label: 'field.firstName', kind: 'text', autoComplete: 'off' },
  { name: 'lastName', label: 'field.lastName', kind: 'text', autoComplete: 'off' },
  { name: 'phone', label: 'field.phone', kind: 'phone' },
];

// The spec asks a valid e-mail; the other messages are the merchant form's, which has the same inputs.
export const editEmployeeSchema: Schema<EditEmployeeValues> = {
  email: emailRules(SERVER.email),
  firstName: [required(SERVER.firstName.required)],
  lastName: [required(SERVER.lastName.required)],
  phone: [required(SERVER.phone.required), completePhone(MESSAGES.phoneIncomplete)],
};

export const editValuesOf = (employee: EmployeeRow): EditEmployeeValues => ({
  email: employee.email,
  firstName: employee.firstName,
  lastName: employee.lastName,
  phone: fromApiPhone(employee.phone),
});

/** `PUT employee`: the spec's payload, the phone as 994 + code without its 0 + 7 digits. */
export const editPayload = (values: EditEmployeeValues, employee: Pick<EmployeeRow, 'id'>) => ({
  id: employee.id,
  email: values.email.trim(),
  firstName: values.firstName.trim(),
  lastName: values.lastName.trim(),
  phone: toApiPhone(values.phone),
});

/** The export dialog: one asset's employees (`employee/export/admin?assetId=`). */
export interface EmployeeExportValues {
  assetId: PickerOption | null;
}

export const employeeExportForm = {
  fields: [{ name: 'assetId', label: 'field.assetName', kind: 'picker', load: listPicker('asset') }] as FieldDef<EmployeeExportValues>[],
  schema: { assetId: [required(MESSAGES.chooseAsset)] } as Schema<EmployeeExportValues>,
  initialValues: (): EmployeeExportValues => ({ assetId: null }),
  query: (values: EmployeeExportValues) => ({ assetId: values.assetId?.id }),
};
