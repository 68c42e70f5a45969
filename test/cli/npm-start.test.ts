import { describe, expect, it } from 'vitest';
import { interrupt, startAmc } from '../support/cli';
import { requireBuiltRenderer } from '../support/build';

const urlLine = /serving at (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/;

async function startScript(env: NodeJS.ProcessEnv) {
  const started = await startAmc([], urlLine, { command: [process.execPath, 'scripts/start.mjs'], env });
  try {
    const response = await fetch(new URL(started.match[1]!).origin);
    return { output: started.output(), status: response.status };
  } finally {
    await interrupt(started.child);
  }
}

describe('npm start', () => {
  it('Scenario: npm start falls back to the browser UI without the Electron binary', async () => {
    requireBuiltRenderer();
    // A display is present but Electron's binary is not, and its download is switched off.
    const noBinary = await startScript({ DISPLAY: ':99', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expect(noBinary.output).toContain('No desktop window: Electron is not available');
    expect(noBinary.output).toContain('Serving the same UI in your browser instead.');
    expect(noBinary.status).toBe(200);

    const noDisplay = await startScript({ DISPLAY: '', WAYLAND_DISPLAY: '' });
    expect(noDisplay.output).toContain('there is no graphical display here');
    expect(noDisplay.status).toBe(200);
  });
});
