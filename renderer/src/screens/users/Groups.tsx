import { type FormEvent, useState } from 'react';
import { useDirectory } from '../../state/identity.ts';
import { GroupCard } from './GroupCard.tsx';
import './Groups.css';

/** Every group, and a form to create one. */
export const Groups = () => {
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
