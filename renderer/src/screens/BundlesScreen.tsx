import { Page } from '../components/Page.tsx';

/** Placeholder until this screen's issue lands; replaced by the owning domain. */
export const BundlesScreen = () => (
  <Page title="Evidence bundles">
    <p className="muted">This screen arrives with its feature.</p>
  </Page>
);
