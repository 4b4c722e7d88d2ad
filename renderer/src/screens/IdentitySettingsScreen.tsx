import { Page } from '../components/Page.tsx';

/** Placeholder until this screen's issue lands; replaced by the owning domain. */
export const IdentitySettingsScreen = () => (
  <Page title="Identity Settings">
    <p className="muted">This screen arrives with its feature.</p>
  </Page>
);
