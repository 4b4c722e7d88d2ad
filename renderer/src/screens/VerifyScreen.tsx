import { type DragEvent, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { useBundles, type Verification } from '../state/bundles.ts';
import { VerifyAnchors } from './VerifyAnchors.tsx';
import { VerifyTrust } from './VerifyTrust.tsx';
import './VerifyScreen.css';

const checkLabels: Record<Verification['checks'][number]['name'], string> = {
  archive: 'Archive is safe to read',
  manifest: 'Manifest is present and well-formed',
  entries: 'Every entry matches its SHA-256 in the manifest',
  hmac: 'Manifest HMAC (shared signing key)',
  signature: 'Ed25519 attestation signature',
  chain: 'Evidence chain re-hashed and re-linked',
  anchors: 'Chain anchors match the re-derived heads',
  timestamp: 'RFC 3161 timestamp over the manifest',
};

const Result = ({ result, name }: { result: Verification; name: string }) => (
  <div className="card stack">
    <p role="status" className={`verify-verdict ${result.overall_valid ? 'ok' : 'bad'}`}>
      {result.overall_valid ? 'Bundle is valid' : 'Bundle is NOT valid'}: {name}
      {result.bundle_id ? (
        <>
          {' '}
          (<code>{result.bundle_id}</code>)
        </>
      ) : null}
    </p>
    <ul className="verify-checks" aria-label="Checks">
      {result.checks.map((check) => (
        <li key={check.name} className={`verify-check ${check.status}`}>
          <span className={`badge ${check.status === 'pass' ? 'valid' : check.status === 'fail' ? 'invalid' : ''}`}>{check.status}</span>{' '}
          {checkLabels[check.name]}
          {check.summary && check.summary !== check.errors[0] ? <span className="muted verify-summary">: {check.summary}</span> : null}
          {check.errors.length > 0 ? (
            <ul className="verify-errors">
              {check.errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ul>
    <VerifyTrust result={result} />
    <VerifyAnchors report={result.anchors} />
  </div>
);

/** Drop or pick a bundle ZIP and see each check pass or fail, offline. */
export const VerifyScreen = () => {
  const { verifyFile, verifyUrl, verifying, verification, verifiedName, verifyError } = useBundles();
  const [over, setOver] = useState(false);
  const [url, setUrl] = useState('');
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) void verifyFile(file);
  };
  return (
    <Page
      title="Verify a bundle"
      description="Checks the manifest HMAC, every entry digest, the Ed25519 signature, the chain proof and the timestamp."
      error={verifyError}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; the file input below is the accessible path */}
      <div
        className={`card verify-drop ${over ? 'over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>Drop a bundle ZIP here, or</p>
        <label>
          Bundle ZIP file
          <input type="file" accept=".zip,application/zip" onChange={(e) => e.target.files?.[0] && void verifyFile(e.target.files[0])} />
        </label>
        {verifying ? <p role="status">Verifying {verifiedName}…</p> : null}
      </div>
      <form
        className="card verify-url"
        onSubmit={(event) => {
          event.preventDefault();
          if (url.trim() !== '') void verifyUrl(url.trim());
        }}
      >
        <label>
          Or a bundle URL (s3://bucket/key, or a presigned https link)
          <input
            type="text"
            inputMode="url"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="s3://bucket/path/bundle.zip"
          />
        </label>
        <button type="submit" disabled={verifying || url.trim() === ''}>
          Download and verify
        </button>
      </form>
      {verification && verifiedName ? <Result result={verification} name={verifiedName} /> : null}
    </Page>
  );
};
