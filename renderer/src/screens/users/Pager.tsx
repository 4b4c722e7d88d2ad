import { useDirectory, usersPerPage } from '../../state/identity.ts';

/** Where the current page of users is in the result, and the way to the pages before and after. */
export const Pager = () => {
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
