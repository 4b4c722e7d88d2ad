import type { ReactNode } from 'react';

/** The frame of every screen: a heading, an optional description, an error banner, then the content. */
export const Page = ({
  title,
  description,
  error,
  children,
}: {
  title: string;
  description?: string;
  error?: string | null;
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
    {children}
  </section>
);
