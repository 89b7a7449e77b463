export const Role = { Admin: 0, User: 1, CallCenter: 2 } as const;
export type RoleId = (typeof Role)[keyof typeof Role];

export const roleOptions: { value: RoleId; labelKey: 'role.admin' | 'role.user' | 'role.callCenter' }[] = [
  { value: Role.Admin, labelKey: 'role.admin' },
  { value: Role.User, labelKey: 'role.user' },
  { value: Role.CallCenter, labelKey: 'role.callCenter' },
];

/** Call Center staff read every list but change nothing (docs/architecture.md, sign-in and sessions). */
export function canWrite(roleId: number | undefined): boolean {
  return roleId === Role.Admin || roleId === Role.User;
}
