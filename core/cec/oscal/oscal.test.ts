import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { missingTools } from '../../test-support/tools.ts';
import type { App } from '../../app.ts';
import { appendEvidence } from '../../audit/store.ts';
import { createTestServer } from '../../http/test-support.ts';
import { testBackends } from '../../test-support/backends.ts';
import { appPerDescribe } from '../app-per-describe.test-support.ts';
import { SFCECClient } from '../client.ts';
import { samplePayloads } from '../test-support.ts';
import { controlToken, toAssessmentResults } from './assessment-results.ts';
import { readVerifiedBundle } from './read-bundle.ts';
import { oscalErrors } from './test/validate.ts';

describe.each(testBackends)('OSCAL from evidence stored on $name', (backend) => {
  const fixture = appPerDescribe(backend);
  let app: App;
  let dir: string;
  let zipPath: string;

  beforeAll(async () => {
    ({ app, dir } = fixture());
    const day = (d: string, key: keyof typeof samplePayloads, payload = samplePayloads[key]) => ({
      project_id: 'oscal',
      schema_key: key,
      timestamp: `${d}T12:00:00.000Z`,
      payload,
    });
    await appendEvidence(app, [
      day('2026-01-10', 'score_records', { ...samplePayloads.score_records, threshold: 0.85, passed: true }),
      day('2026-01-11', 'drift_events', { ...samplePayloads.drift_events, detected: true }),
      day('2026-01-12', 'gate_evaluations'),
      day('2026-01-13', 'bias_reports'),
    ]);
    const bundle = await new SFCECClient({ app }).buildBundle('oscal', ['2026-01-01', '2026-01-31'], ['eu_ai_act', 'soc2'], {
      outputDir: dir,
    });
    zipPath = bundle.zip_path;
  }, 60_000);

  describe('OSCAL Assessment Results export', () => {
    it('validates against NIST OSCAL 1.1.3 and carries clauses, observations, statuses and the bundle hash', async () => {
      const contents = await readVerifiedBundle(app, zipPath);
      const doc = toAssessmentResults(contents);
      expect(oscalErrors(doc)).toEqual([]);
      const ar = doc['assessment-results'];
      expect(ar.metadata['oscal-version']).toBe('1.1.3');
      const sha = createHash('sha256').update(readFileSync(zipPath)).digest('hex');
      expect(ar['back-matter'].resources[0]?.rlinks?.[0]?.hashes[0]).toEqual({ algorithm: 'SHA-256', value: sha });
      const result = ar.results[0];
      const findings = result?.findings ?? [];
      expect(findings).toHaveLength(contents.clause_map.entries.length);
      // Article 15(1): score passes but the drift is detected → PARTIAL → not-satisfied, naming the drift record.
      const art151 = findings.find((f) => f.target['target-id'] === controlToken('eu_ai_act', 'Article 15(1)'));
      expect(art151?.target.status).toEqual({ state: 'not-satisfied', reason: 'fail' });
      expect(art151?.props).toContainEqual(expect.objectContaining({ name: 'workbench-status', value: 'PARTIAL' }));
      expect(art151?.description).toMatch(/drift_events \(primary\): 1 of 1 series fail/);
      const art153 = findings.find((f) => f.target['target-id'] === controlToken('eu_ai_act', 'Article 15(3)'));
      expect(art153?.target.status.state).toBe('satisfied');
      // One observation per schema key plus the verification; each key's points at its NDJSON digest.
      const drift = result?.observations.find((o) => o.title === 'Evidence: drift_events');
      expect(drift?.props).toContainEqual(expect.objectContaining({ name: 'failing', value: '1' }));
      expect(drift?.['relevant-evidence'][0]?.props).toContainEqual(
        expect.objectContaining({ name: 'entry-sha256', value: contents.manifest.entries['drift_events/records.ndjson']?.sha256 }),
      );
      expect(result?.observations[0]?.props).toContainEqual(expect.objectContaining({ name: 'overall-valid', value: 'true' }));
      // The same bundle exports the same ids and findings (only the verification time differs).
      const again = toAssessmentResults(await readVerifiedBundle(app, zipPath))['assessment-results'];
      expect(again.uuid).toBe(ar.uuid);
      expect(again.results[0]?.findings).toEqual(findings);
    });

    it('a bundle of a project without evidence exports all GAP clauses as not-satisfied, still valid OSCAL', async () => {
      const empty = await new SFCECClient({ app }).buildBundle('nothing-here', ['2026-01-01', '2026-01-31'], ['soc2'], { outputDir: dir });
      const doc = toAssessmentResults(await readVerifiedBundle(app, empty.zip_path));
      expect(oscalErrors(doc)).toEqual([]);
      const states = new Set(doc['assessment-results'].results[0]?.findings?.map((f) => f.target.status.state));
      expect([...states]).toEqual(['not-satisfied']);
    });

    // The tampered copy is written by Python's zipfile, another tool than ours.
    const noPython = missingTools('the OSCAL export of a tampered bundle', ['python3']);
    it.skipIf(noPython !== null)(
      'a tampered bundle still exports, stating the failed verification; a non-bundle file is a clear error',
      async () => {
        const tampered = join(dir, 'tampered.zip');
        copyFileSync(zipPath, tampered);
        // Rewrite the clause map inside the ZIP with python's zipfile (another tool than ours).
        execFileSync('python3', [
          '-c',
          `import zipfile,shutil,sys
src=sys.argv[1]; dst=sys.argv[2]
zin=zipfile.ZipFile(src); zout=zipfile.ZipFile(dst+'.tmp','w',zipfile.ZIP_DEFLATED)
for i in zin.infolist():
  data=zin.read(i.filename)
  if i.filename=='clause_map.json': data=data.replace(b'"PARTIAL"', b'"SATISFIED"')
  zout.writestr(i, data)
zout.close(); shutil.move(dst+'.tmp', dst)`,
          zipPath,
          tampered,
        ]);
        const doc = toAssessmentResults(await readVerifiedBundle(app, tampered));
        expect(oscalErrors(doc)).toEqual([]);
        const verification = doc['assessment-results'].results[0]?.observations[0];
        expect(verification?.props).toContainEqual(expect.objectContaining({ name: 'overall-valid', value: 'false' }));
        expect(verification?.description).toMatch(/INVALID.*clause_map\.json/);

        const notZip = join(dir, 'not.zip');
        writeFileSync(notZip, 'hello');
        await expect(readVerifiedBundle(app, notZip)).rejects.toThrow(/not a readable ZIP/);
      },
    );
  });

  describe('OSCAL export surfaces', () => {
    const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'svc.js');

    it('REST: GET /v1/risk/cec/{bundle_id}/oscal returns a valid document; unknown ids are 404', async () => {
      const t = await createTestServer({ app });
      try {
        const bundles = await t.server.inject({ method: 'GET', url: '/v1/risk/cec?project_id=oscal', headers: t.auth() });
        const id = (bundles.json() as { items: { bundle_id: string }[] }).items[0]?.bundle_id;
        const res = await t.server.inject({ method: 'GET', url: `/v1/risk/cec/${String(id)}/oscal`, headers: t.auth() });
        expect(res.statusCode).toBe(200);
        expect(oscalErrors(res.json())).toEqual([]);
        const missing = await t.server.inject({
          method: 'GET',
          url: '/v1/risk/cec/cec-01J00000000000000000000000/oscal',
          headers: t.auth(),
        });
        expect(missing.statusCode).toBe(404);
        const anonymous = await t.server.inject({ method: 'GET', url: `/v1/risk/cec/${String(id)}/oscal` });
        expect(anonymous.statusCode).toBe(401);
      } finally {
        await t.close();
      }
    });

    // The CLI reads only the ZIP (no database): one back end proves it, and two more tsx processes are not paid again.
    if (backend.name === 'sqlite')
      it('CLI: svc oscal BUNDLE.zip -o out.json writes a valid, private file; a missing file exits 2', () => {
        const out = join(dir, 'out.json');
        execFileSync(process.execPath, [bin, 'oscal', zipPath, '-o', out, '--key', 'test-signing-key-0123456789abcdef'], {
          encoding: 'utf8',
        });
        expect(oscalErrors(JSON.parse(readFileSync(out, 'utf8')))).toEqual([]);
        expect(statSync(out).mode & 0o777).toBe(0o600);
        let status = 0;
        let stderr = '';
        try {
          execFileSync(process.execPath, [bin, 'oscal', join(dir, 'missing.zip'), '--key', 'k'], { encoding: 'utf8', stdio: 'pipe' });
        } catch (error) {
          status = (error as { status: number }).status;
          stderr = String((error as { stderr: string }).stderr);
        }
        expect(status).toBe(2);
        expect(stderr).toMatch(/Bundle file not found/);
        // Two real processes starting through tsx: generous for a loaded CI machine.
      }, 180_000);
  });
});
