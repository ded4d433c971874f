/**
 * The dependency audit CI runs (tools/audit-dependencies.ts): what counts as shipped, and which
 * findings fail. The registry's advisories cannot be asked from here, so the reports are npm's shape.
 */
import { readFileSync } from 'node:fs';
import { closureOf, judge, type LockFile } from '../../tools/audit-dependencies';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as LockFile;
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };

test("the shipped packages are the functions' dependencies, the dashboard's, and theirs; no tool", () => {
  const shipped = closureOf(lock, [...Object.keys(manifest.dependencies), 'preact', 'openapi-fetch']);
  for (const name of ['@middy/core', 'qrcode', 'preact', 'openapi-typescript-helpers']) expect(shipped).toContain(name);
  // qrcode's own dependencies come along.
  expect(shipped).toContain('pngjs');
  for (const name of ['jest', 'aws-cdk-lib', 'eslint', 'typescript']) expect(shipped).not.toContain(name);
});

const finding = (severity: string) => ({ severity, via: [] });

test('a high or critical finding in a shipped package fails; in a tool, or moderate, it is listed', () => {
  const shipped = new Set(['qrcode', 'preact']);
  const report = {
    vulnerabilities: {
      qrcode: finding('high'),
      preact: finding('critical'),
      jest: finding('critical'),
      'swagger-ui-dist': finding('moderate'),
    },
  };
  expect(judge(report, shipped)).toEqual({
    kind: 'checked',
    failing: ['preact (critical)', 'qrcode (high)'],
    listed: ['jest (critical)', 'swagger-ui-dist (moderate)'],
  });
  expect(judge({ vulnerabilities: { qrcode: finding('moderate') } }, shipped)).toEqual({
    kind: 'checked',
    failing: [],
    listed: ['qrcode (moderate)'],
  });
});

test('a registry that refuses the audit leaves it unchecked, saying why', () => {
  const refused = {
    message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
    error: {},
  };
  expect(judge(refused, new Set(['qrcode']))).toEqual({ kind: 'unchecked', why: refused.message });
});
