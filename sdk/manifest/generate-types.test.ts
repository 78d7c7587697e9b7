import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

// json-schema-to-typescript formats with prettier, which cannot load inside jest's module system, so
// the generator runs as its own process, exactly as `npm run gen:manifest-types -- --check` would.
describe('issue 3 item 7: manifest types are generated from the schema', () => {
  it('regenerating manifest.types.ts from manifest.schema.json yields the committed text', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'sdk/manifest/generate-types.ts', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
