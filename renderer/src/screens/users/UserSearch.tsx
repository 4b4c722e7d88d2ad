import { type FormEvent, useState } from 'react';
import { useDirectory } from '../../state/identity.ts';

/** Searches users with a SCIM filter (RFC 7644 3.4.2.2), the same syntax IdPs use on /scim/v2/Users. */
export const UserSearch = () => {
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
