import { type FormEvent, useEffect, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { type DirectoryGroup, type DirectoryUser, useDirectory, usersPerPage } from '../state/identity.ts';
import './UsersScreen.css';

const UserSearch = () => {
  const { filter, load, loading } = useDirectory();
  const [text, setText] = useState(filter);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void load(text.trim(), 1);
  };
  return (
    <form onSubmit={submit} className="toolbar" aria-label="Search users">
      <label className="grow">
        SCIM filter
        <input
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={'userName sw "a" and active eq true'}
          maxLength={4096}
          spellCheck={false}
        />
      </label>
      <button type="submit" disabled={loading}>
        Search
      </button>
      <button
        type="button"
        disabled={loading || filter === ''}
        onClick={() => {
          setText('');
          void load('', 1);
        }}
      >
        Clear
      </button>
    </form>
  );
};

const CreateUser = () => {
  const { createUser, loading } = useDirectory();
  const [userName, setUserName] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void createUser({ userName: userName.trim(), displayName: displayName.trim(), email: email.trim() });
    setUserName('');
    setDisplayName('');
    setEmail('');
  };
  return (
    <form onSubmit={submit} className="toolbar" aria-label="Create user">
      <label>
        User name
        <input value={userName} onChange={(event) => setUserName(event.target.value)} required maxLength={256} />
      </label>
      <label>
        Display name
        <input value={displayName} onChange={(event) => setDisplayName(event.target.value)} maxLength={256} />
      </label>
      <label>
        Email
        <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} maxLength={320} />
      </label>
      <button type="submit" className="primary" disabled={loading || userName.trim() === ''}>
        Create user
      </button>
    </form>
  );
};

const UserRow = ({ user, groups }: { user: DirectoryUser; groups: readonly DirectoryGroup[] }) => {
  const { setActive, deleteUser, loading } = useDirectory();
  const names = groups.filter((group) => user.groups.includes(group.id)).map((group) => group.display_name);
  return (
    <tr>
      <td>{user.user_name}</td>
      <td>{user.display_name || '—'}</td>
      <td>{user.emails.find((email) => email.primary)?.value ?? user.emails[0]?.value ?? '—'}</td>
      <td>{names.length > 0 ? names.join(', ') : '—'}</td>
      <td>
        <span className={`badge ${user.active ? 'active' : 'revoked'}`}>{user.active ? 'active' : 'inactive'}</span>
      </td>
      <td>
        <div className="row">
          <button
            type="button"
            disabled={loading}
            onClick={() => void setActive(user, !user.active)}
            aria-label={`${user.active ? 'Deactivate' : 'Reactivate'} ${user.user_name}`}
          >
            {user.active ? 'Deactivate' : 'Reactivate'}
          </button>
          <button
            type="button"
            className="danger"
            disabled={loading}
            onClick={() => {
              if (window.confirm(`Delete ${user.user_name}? Their SSO sessions and API keys are revoked.`)) void deleteUser(user);
            }}
            aria-label={`Delete ${user.user_name}`}
          >
            Delete
          </button>
        </div>
      </td>
    </tr>
  );
};

const Pager = () => {
  const { total, startIndex, users, load, loading } = useDirectory();
  const last = startIndex + users.length - 1;
  return (
    <div className="row pager">
      <span className="muted">{total === 0 ? 'No users' : `Showing ${startIndex}–${last} of ${total}`}</span>
      <button
        type="button"
        disabled={loading || startIndex <= 1}
        onClick={() => void load(undefined, Math.max(1, startIndex - usersPerPage))}
      >
        Previous page
      </button>
      <button type="button" disabled={loading || last >= total} onClick={() => void load(undefined, startIndex + usersPerPage)}>
        Next page
      </button>
    </div>
  );
};

const GroupCard = ({ group, users }: { group: DirectoryGroup; users: readonly DirectoryUser[] }) => {
  const { addMember, removeMember, deleteGroup, loading } = useDirectory();
  const candidates = users.filter((user) => !group.members.some((member) => member.value === user.id));
  const [choice, setChoice] = useState('');
  const selectId = `add-member-${group.id}`;
  return (
    <li className="card group-card">
      <div className="row group-head">
        <h3>{group.display_name}</h3>
        <span className="muted">{group.members.length} member(s)</span>
        <button
          type="button"
          className="danger"
          disabled={loading}
          onClick={() => {
            if (window.confirm(`Delete group ${group.display_name}? Its users are kept.`)) void deleteGroup(group);
          }}
          aria-label={`Delete group ${group.display_name}`}
        >
          Delete group
        </button>
      </div>
      <ul className="members" aria-label={`Members of ${group.display_name}`}>
        {group.members.map((member) => (
          <li key={member.value} className="row">
            <span>{member.display}</span>
            <button
              type="button"
              className="link-dark"
              disabled={loading}
              onClick={() => void removeMember(group.id, member.value)}
              aria-label={`Remove ${member.display} from ${group.display_name}`}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <div className="row">
        <label htmlFor={selectId} className="sr-only">
          User to add to {group.display_name}
        </label>
        <select id={selectId} value={choice} onChange={(event) => setChoice(event.target.value)}>
          <option value="">Choose a user on this page…</option>
          {candidates.map((user) => (
            <option key={user.id} value={user.id}>
              {user.user_name}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={loading || choice === ''}
          onClick={() => {
            void addMember(group.id, choice);
            setChoice('');
          }}
          aria-label={`Add member to ${group.display_name}`}
        >
          Add member
        </button>
      </div>
    </li>
  );
};

const Groups = () => {
  const { groups, users, createGroup, loading } = useDirectory();
  const [name, setName] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void createGroup(name.trim());
    setName('');
  };
  return (
    <section aria-labelledby="groups-title">
      <h2 id="groups-title">Groups</h2>
      <form onSubmit={submit} className="toolbar" aria-label="Create group">
        <label>
          Group name
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={256} />
        </label>
        <button type="submit" className="primary" disabled={loading || name.trim() === ''}>
          Create group
        </button>
      </form>
      {groups.length === 0 ? <p className="muted">No groups yet.</p> : null}
      <ul className="group-list">
        {groups.map((group) => (
          <GroupCard key={group.id} group={group} users={users} />
        ))}
      </ul>
    </section>
  );
};

/** SCIM users and groups: what IdPs provisioned, plus manual administration (same store as /scim/v2). */
export const UsersScreen = () => {
  const { users, groups, error, message, load } = useDirectory();
  useEffect(() => void load(), [load]);
  return (
    <Page
      title="Users & Groups"
      description="Users and groups provisioned over SCIM 2.0 (/scim/v2) by Okta, Entra ID or by hand. Deactivating a user revokes their SSO sessions and API keys."
      error={error}
    >
      <div role="status" className="status-line">
        {message}
      </div>
      <UserSearch />
      <CreateUser />
      <table>
        <caption className="sr-only">Users</caption>
        <thead>
          <tr>
            <th scope="col">User name</th>
            <th scope="col">Display name</th>
            <th scope="col">Email</th>
            <th scope="col">Groups</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.length === 0 ? (
            <tr>
              <td colSpan={6} className="muted">
                No users match.
              </td>
            </tr>
          ) : null}
          {users.map((user) => (
            <UserRow key={user.id} user={user} groups={groups} />
          ))}
        </tbody>
      </table>
      <Pager />
      <Groups />
    </Page>
  );
};
