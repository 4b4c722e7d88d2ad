import { type DirectoryUser, useDirectory } from '../../state/identity.ts';

/** Deactivate / reactivate and delete (after a confirmation: it revokes the user's sessions and keys). */
export const UserActions = ({ user }: { user: DirectoryUser }) => {
  const { setActive, deleteUser, loading } = useDirectory();
  return (
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
  );
};
