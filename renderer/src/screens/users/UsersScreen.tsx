import { useEffect } from 'react';
import { Page } from '../../components/Page.tsx';
import { useDirectory } from '../../state/identity.ts';
import { CreateUser } from './CreateUser.tsx';
import { Groups } from './Groups.tsx';
import { Pager } from './Pager.tsx';
import { UserSearch } from './UserSearch.tsx';
import { UsersTable } from './UsersTable.tsx';

/** SCIM users and groups: what IdPs provisioned, plus manual administration (same store as /scim/v2). */
export const UsersScreen = () => {
  const { users, groups, error, message, load } = useDirectory();
  useEffect(() => void load(), [load]);
  return (
    <Page
      title="Users & Groups"
      description="Users and groups provisioned over SCIM 2.0 (/scim/v2) by Okta, Entra ID or by hand. Deactivating a user revokes their SSO sessions and API keys."
      error={error}
      status={message}
    >
      <UserSearch />
      <CreateUser />
      <UsersTable users={users} groups={groups} />
      <Pager />
      <Groups />
    </Page>
  );
};
