/** The Table columns of the rbac kinds, as kube-apiserver prints them: roles show when they
 * were created, bindings the role they grant and, with -o wide, whom to. */
import { ageColumn, column, nameColumn } from '../printing.js';
import type { PrintColumn } from '../resource-definition.js';
import { type Binding, subjectNames, zeroRoleRef } from './rbac-types.js';

/** roleColumns: NAME, CREATED AT (the creation time itself, not an age). */
export const roleColumns: PrintColumn[] = [
  nameColumn,
  { ...ageColumn, name: 'Created At', type: 'date', cell: (role) => role.metadata?.creationTimestamp ?? '' },
];

/** bindingColumns: NAME, ROLE (Kind/name), AGE; USERS, GROUPS, SERVICEACCOUNTS with -o wide.
 * `what` names the kind in the wide columns' descriptions. */
export function bindingColumns(what: string): PrintColumn[] {
  return [
    nameColumn,
    column('Role', (binding: Binding) => `${zeroRoleRef(binding.roleRef).kind}/${zeroRoleRef(binding.roleRef).name}`, {
      description: 'The role the binding grants (roleRef), as Kind/name.',
    }),
    ageColumn,
    column('Users', (binding: Binding) => subjectNames(binding.subjects).users, { wide: true, description: `Users in the ${what}` }),
    column('Groups', (binding: Binding) => subjectNames(binding.subjects).groups, { wide: true, description: `Groups in the ${what}` }),
    column('ServiceAccounts', (binding: Binding) => subjectNames(binding.subjects).serviceAccounts, {
      wide: true,
      description: `ServiceAccounts in the ${what}`,
    }),
  ];
}
