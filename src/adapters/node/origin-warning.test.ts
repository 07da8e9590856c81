import { describe, expect, it } from 'vitest';
import { originWarning } from './origin-warning.ts';

describe('originWarning', () => {
  it('warns when a local build is served on another port', () => {
    const line = originWarning('http://localhost:4321', 'http://127.0.0.1:4601');
    expect(line).toContain('http://localhost:4321');
    expect(line).toContain('http://127.0.0.1:4601');
    expect(line).toContain('SITE_URL=http://localhost:4601');
    expect(line).not.toContain('\n');
  });
  it('says nothing on the build\'s own port, or for a public origin behind a proxy', () => {
    expect(originWarning('http://localhost:4321', 'http://127.0.0.1:4321')).toBeNull();
    expect(originWarning('http://127.0.0.1:4321/', 'http://127.0.0.1:4321')).toBeNull();
    expect(originWarning('https://evi.example', 'http://127.0.0.1:4321')).toBeNull();
    expect(originWarning('not a url', 'http://127.0.0.1:4321')).toBeNull();
  });
});
