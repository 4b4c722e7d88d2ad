import { DataTable } from '../components/DataTable.tsx';
import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { usePii } from '../state/pii.ts';
import type { OpOutput } from '../transport/index.ts';
import './ScanScreen.css';

type Finding = OpOutput<'pii.scan'>['entities'][number];

const describeFinding = (finding: Finding): string =>
  [`${finding.type} · score ${finding.score.toFixed(2)}`, finding.explanation?.textualExplanation ?? finding.explanation?.recognizer]
    .filter(Boolean)
    .join(' · ');

/** The scanned text with each finding marked; offsets are code points, so the text is split into code points. */
const Highlighted = ({ text, findings }: { text: string; findings: readonly Finding[] }) => {
  const points = [...text];
  const ordered = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: ReactNode[] = [];
  let cursor = 0;
  for (const finding of ordered) {
    if (finding.start < cursor) continue; // overlapping finding: the table still lists it
    if (finding.start > cursor) parts.push(<span key={`t${cursor}`}>{points.slice(cursor, finding.start).join('')}</span>);
    parts.push(
      <mark key={`m${finding.start}`} data-type={finding.type} title={describeFinding(finding)}>
        {points.slice(finding.start, finding.end).join('')}
        <span className="scan-tag">{finding.type}</span>
      </mark>,
    );
    cursor = finding.end;
  }
  if (cursor < points.length) parts.push(<span key={`t${cursor}`}>{points.slice(cursor).join('')}</span>);
  return (
    <figure className="scan-figure" aria-label="Highlighted findings">
      <pre className="scan-text">{parts}</pre>
    </figure>
  );
};

const selectedValues = (event: ChangeEvent<HTMLSelectElement>): string[] => [...event.target.selectedOptions].map((option) => option.value);

export const ScanScreen = () => {
  const { types, result, scanning, error, loadTypes, scan } = usePii();
  const [text, setText] = useState('');
  const [language, setLanguage] = useState('en');
  const [entities, setEntities] = useState<string[]>([]);
  const [threshold, setThreshold] = useState(0);
  const [allowList, setAllowList] = useState('');
  const [phoneRegions, setPhoneRegions] = useState('');
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    void loadTypes(language);
  }, [language, loadTypes]);

  const openFile = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setCopied(false);
    const allow = allowList
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const regions = phoneRegions
      .split(',')
      .map((code) => code.trim().toUpperCase())
      .filter(Boolean);
    void scan({
      text,
      language,
      score_threshold: threshold,
      return_decision_process: true,
      ...(entities.length > 0 ? { entities } : {}),
      ...(allow.length > 0 ? { allow_list: allow } : {}),
      ...(regions.length > 0 ? { phone_regions: regions } : {}),
    });
  };
  const copy = async (): Promise<void> => {
    if (!result) return;
    await navigator.clipboard.writeText(result.value.redacted_text);
    setCopied(true);
  };

  return (
    <Page
      title="Scan text for personal data"
      description="Paste text or open a text file. Scanning runs in the local engine (or your Presidio service when configured); the text is never stored, only counts go to the evidence chain."
      error={error}
    >
      <form onSubmit={submit} className="stack">
        <label htmlFor="scan-input">Text to scan</label>
        <textarea id="scan-input" rows={8} value={text} onChange={(e) => setText(e.target.value)} />
        <label className="inline">
          Open a text file
          <input type="file" accept=".txt,.md,.csv,.log,.json,text/*" onChange={(e) => void openFile(e)} />
        </label>
        <div className="scan-options">
          <label>
            Language
            <select value={language} onChange={(e) => setLanguage(e.target.value)}>
              {(types?.languages ?? ['en']).map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </label>
          <label>
            Entity filter (none selected = defaults)
            <select multiple value={entities} onChange={(e) => setEntities(selectedValues(e))}>
              {(types?.entity_types ?? []).map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </label>
          <label>
            Score threshold: {threshold.toFixed(2)}
            <input type="range" min={0} max={1} step={0.05} value={threshold} onChange={(e) => setThreshold(Number(e.target.value))} />
          </label>
          <label>
            Phone regions (e.g. GB, TR; empty = the setting)
            <input type="text" value={phoneRegions} onChange={(e) => setPhoneRegions(e.target.value)} />
          </label>
          <label>
            Allow list (one value per line)
            <textarea rows={4} value={allowList} onChange={(e) => setAllowList(e.target.value)} />
          </label>
        </div>
        <div className="row">
          <button type="submit" className="primary" disabled={scanning || text === ''}>
            {scanning ? 'Scanning…' : 'Scan'}
          </button>
        </div>
      </form>
      {result ? (
        <>
          <p role="status">
            {result.value.detected
              ? `${result.value.entities.length} ${result.value.entities.length === 1 ? 'entity' : 'entities'} found`
              : 'No personal data found'}
            {result.value.normalized ? ' · invisible characters removed and compatibility forms folded before matching' : ''}
          </p>
          <div className="scan-results">
            <section aria-labelledby="scan-highlighted">
              <h2 id="scan-highlighted">Findings</h2>
              <Highlighted text={result.text} findings={result.value.entities} />
            </section>
            <section aria-labelledby="scan-redacted">
              <h2 id="scan-redacted">Redacted text</h2>
              <figure className="scan-figure" aria-label="Redacted output">
                <pre className="scan-text">{result.value.redacted_text}</pre>
              </figure>
              <div className="row">
                <button type="button" onClick={() => void copy()}>
                  Copy redacted text
                </button>
                {copied ? <span className="muted">Copied</span> : null}
              </div>
            </section>
          </div>
          {result.value.entities.length > 0 ? (
            <DataTable
              label="Entities"
              rows={result.value.entities}
              rowKey={(finding) => `${finding.type}-${finding.start}-${finding.end}`}
              columns={[
                { header: 'Type', cell: (finding) => finding.type },
                { header: 'Start', cell: (finding) => finding.start },
                { header: 'End', cell: (finding) => finding.end },
                { header: 'Score', cell: (finding) => finding.score.toFixed(2) },
                { header: 'Explanation', cell: (finding) => finding.explanation?.textualExplanation ?? '' },
              ]}
            />
          ) : null}
        </>
      ) : null}
    </Page>
  );
};
