import { useCurrentUser } from '../auth/api/me';

export default function AdminPlaceholder() {
  const user = useCurrentUser();
  return (
    <div className="screen screen--narrow">
      <h1 className="screen__title">Administration</h1>
      <p className="screen__lead">
        {user.role === 'admin'
          ? 'The administrator’s workspace is not part of this version of the console yet.'
          : 'This part of kb is for administrators.'}
      </p>
    </div>
  );
}
