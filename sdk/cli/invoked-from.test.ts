import path from 'node:path';
import { invokedFrom } from './invoked-from';

const ROOT = path.resolve(__dirname, '../..');

describe('issue 3 item 7: mandi commands resolve paths from where the author typed them', () => {
  it('takes the folder ./run recorded when npm started in the repository root', () => {
    expect(invokedFrom({ INIT_CWD: ROOT, MANDI_CWD: '/tmp/newcomer' })).toBe('/tmp/newcomer');
  });

  it('takes npm\'s INIT_CWD when npm started elsewhere, so an inherited MANDI_CWD cannot misdirect it', () => {
    expect(invokedFrom({ INIT_CWD: '/tmp/elsewhere', MANDI_CWD: '/tmp/stale' })).toBe('/tmp/elsewhere');
    expect(invokedFrom({ INIT_CWD: path.join(ROOT, 'modules') })).toBe(path.join(ROOT, 'modules'));
  });

  it('falls back to the process folder without npm', () => {
    expect(invokedFrom({})).toBe(process.cwd());
  });
});
