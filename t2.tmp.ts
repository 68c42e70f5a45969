import { readFileSync } from 'node:fs';
import { buildScene } from './src/main/perception/scene-builder';
import { screenFacts } from './src/main/perception/screen-facts';
import { parseUiHierarchy } from './src/main/perception/ui-hierarchy';
const dir = 'test/fixtures/real-dumps/';
const sources = JSON.parse(readFileSync(dir + 'sources.json', 'utf8'));
const windows: string[] = []; let nodes = 0;
for (const s of sources) { if (nodes >= 800) break; const x = readFileSync(dir + s.name + '.xml', 'utf8'); windows.push(/<hierarchy[^>]*>([\s\S]*)<\/hierarchy>/.exec(x)?.[1] ?? ''); nodes += x.match(/<node\b/g)?.length ?? 0; }
const page = `<hierarchy rotation="0"><node class="android.webkit.WebView" package="com.android.chrome" text="" content-desc="" resource-id="" scrollable="true" bounds="[0,0][1080,2400]">${windows.join('')}</node></hierarchy>`;
const stats = (f: () => unknown) => { for (let i = 0; i < 10; i++) f(); const t: number[] = []; for (let i = 0; i < 60; i++) { const s = performance.now(); f(); t.push(performance.now() - s); } t.sort((a, b) => a - b); return `min ${t[0]!.toFixed(1)} p50 ${t[30]!.toFixed(1)}`; };
console.log('parse', stats(() => parseUiHierarchy(page)));
const h = parseUiHierarchy(page); const f = screenFacts(h, '', null);
console.log('build', stats(() => buildScene(h, f)));
console.log('parse+build', stats(() => { const x = parseUiHierarchy(page); buildScene(x, screenFacts(x, '', null)); }));
