import { DataTable } from '../../components/DataTable.tsx';
import type { DirectoryGroup, DirectoryUser } from '../../state/identity.ts';
import { UserActions } from './UserActions.tsx';

const primaryEmail = (user: DirectoryUser): string => user.emails.find((email) => email.primary)?.value ?? user.emails[0]?.value ?? '—';

/** The current page of users, with the groups (of those loaded) each belongs to. */
export const UsersTable = ({ users, groups }: { users: readonly DirectoryUser[]; groups: readonly DirectoryGroup[] }) => {
  const groupNames = (user: DirectoryUser): string => {
    const names = groups.filter((group) => user.groups.includes(group.id)).map((group) => group.display_name);
    return names.length > 0 ? names.join(', ') : '—';
  };
  return (
    <DataTable
      label="Users"
      rows={users}
      rowKey={(user) => user.id}
      empty="No users match."
      columns={[
        { header: 'User name', cell: (user) => user.user_name },
        { header: 'Display name', cell: (user) => user.display_name || '—' },
        { header: 'Email', cell: primaryEmail },
        { header: 'Groups', cell: groupNames },
        {
          header: 'Status',
          cell: (user) => <span className={`badge ${user.active ? 'active' : 'revoked'}`}>{user.active ? 'active' : 'inactive'}</span>,
        },
        { header: 'Actions', cell: (user) => <UserActions user={user} /> },
      ]}
    />
  );
};
