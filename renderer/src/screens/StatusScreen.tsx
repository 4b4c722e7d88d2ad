import { Page } from '../components/Page.tsx';

/** Placeholder until this screen's issue lands; replaced by the owning domain. */
export const StatusScreen = () => (
  <Page title="Service status">
    <p className="muted">This screen arrives with its feature.</p>
  </Page>
);
