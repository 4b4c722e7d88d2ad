import { Page } from '../components/Page.tsx';

/** Placeholder until this screen's issue lands; replaced by the owning domain. */
export const DpaScreen = () => (
  <Page title="GDPR Article 28 DPA generator">
    <p className="muted">This screen arrives with its feature.</p>
  </Page>
);
