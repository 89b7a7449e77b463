import { serverPicker } from './listPicker';

/**
 * The spec's lookups as server pickers (the specification's campaigns part, "Lookups"), one object
 * each, so any screen's filter or form declares one in a line and a chosen
 * record is named the same way everywhere.
 */
export const lookups = {
  /** `GET asset`, searched by name. */
  asset: serverPicker('asset', 'asset'),
  /** `GET partner/filter` with name, Skip and Take=30. */
  partner: serverPicker('partner/filter', 'partner'),
  /** `GET employee/forAdmin` with Skip and Take=30, as `{id, userName}` (the e-mail), searched by e-mail. */
  employee: serverPicker('employee/forAdmin', 'employee', { label: 'userName', search: 'Email' }),
};
