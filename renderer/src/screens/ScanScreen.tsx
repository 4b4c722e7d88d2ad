import { Page } from '../components/Page.tsx';

/** Placeholder until this screen's issue lands; replaced by the owning domain. */
export const ScanScreen = () => (
  <Page title="Scan text for personal data">
    <p className="muted">This screen arrives with its feature.</p>
  </Page>
);
