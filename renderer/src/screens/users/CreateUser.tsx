import { type FormEvent, useState } from 'react';
import { useDirectory } from '../../state/identity.ts';

/** Creates a user by hand, as an IdP would over SCIM. */
export const CreateUser = () => {
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
