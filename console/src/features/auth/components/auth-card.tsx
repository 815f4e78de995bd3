import type { ReactNode } from 'react';

/** The sign-in screen's card, for the screens beside it (forgot password, reset, invitation). */
export function AuthCard({
  title,
  onSubmit,
  children,
}: {
  title: string;
  onSubmit?: (event: React.FormEvent) => void;
  children: ReactNode;
}) {
  const body = (
    <>
      <div className="login__brand" aria-hidden="true">
        kb
      </div>
      <h1 id="auth-card-title" className="login__title">
        {title}
      </h1>
      {children}
    </>
  );
  return (
    <main className="login">
      {onSubmit ? (
        <form className="login__card" onSubmit={onSubmit} aria-labelledby="auth-card-title">
          {body}
        </form>
      ) : (
        <section className="login__card" aria-labelledby="auth-card-title">
          {body}
        </section>
      )}
    </main>
  );
}
