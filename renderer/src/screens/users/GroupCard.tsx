import { useState } from 'react';
import { type DirectoryGroup, type DirectoryUser, useDirectory } from '../../state/identity.ts';

/** One group: its members, removing one, adding a user of the current page, deleting the group. */
export const GroupCard = ({ group, users }: { group: DirectoryGroup; users: readonly DirectoryUser[] }) => {
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
