import type { SamlTestReport } from '../../state/sso-login.ts';
import { samlHints } from './saml-hints.ts';

/** The outcome of testing a pasted SAMLResponse: what passed, or which check failed and how to fix it. */
export const SamlTestResult = ({ report }: { report: SamlTestReport }) =>
  report.ok ? (
    <div role="status" className="notice">
      <p>
        Valid response for <strong>{report.subject}</strong> ({report.email || 'no email'}).
      </p>
      <ul aria-label="Checks passed">
        <li>Decryption: {report.decryption ?? 'not encrypted'}</li>
        <li>Signed: {report.signed_parts.join(', ')}</li>
      </ul>
    </div>
  ) : (
    <div role="alert" className="alert">
      <p>
        Failed check: <strong>{report.check}</strong>. {report.message}
      </p>
      <p>What to do: {samlHints[report.check] ?? 'See docs/saml-validator.md.'}</p>
    </div>
  );
