import type { ReactNode } from 'react';

/**
 * The frame of every screen: a heading, an optional description, an error banner, an optional live status line
 * (always present when given, so screen readers hear each new message), then the content.
 */
export const Page = ({
  title,
  description,
  error,
  status,
  children,
}: {
  title: string;
  description?: string;
  error?: string | null;
  status?: ReactNode;
  children: ReactNode;
}) => (
  <section className="page" aria-labelledby="page-title">
    <header className="page-header">
      <h1 id="page-title">{title}</h1>
      {description ? <p className="muted">{description}</p> : null}
    </header>
    {error ? (
      <div role="alert" className="alert">
        {error}
      </div>
    ) : null}
    {status === undefined ? null : (
      <div role="status" className="status-line">
        {status}
      </div>
    )}
    {children}
  </section>
);
