import { Page } from '../components/Page.tsx';

/** Placeholder until this screen's issue lands; replaced by the owning domain. */
export const SsoSessionsScreen = () => (
  <Page title="SSO Sessions">
    <p className="muted">This screen arrives with its feature.</p>
  </Page>
);
