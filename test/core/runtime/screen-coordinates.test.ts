// A screen with no usable UI tree (a game drawn on one surface): the model aims by the screenshot, in the convention
// its provider is asked to answer in, and the tap must land on the device pixel it meant. The real Anthropic and
// OpenAI SDKs talk to the loopback fakes, whose "model" finds the target in the very image it was sent and reads the
// convention from the prompt; the screenshot is downscaled as the Observer does it, for each scale and screen shape.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderClient, type ToolCallingClient } from '@amc/provider-clients';
import { encodeScreenshot } from '../../../src/core/perception/screenshot';
import { createAIPlanner } from '../../../src/core/runtime/ai-planner';
import { turnText } from '../../../src/core/runtime/prompt';
import { COORDINATE_CONVENTIONS, toDevicePoint } from '../../../src/core/runtime/screen-coordinates';
import { MODEL_TOOL_SPECS } from '../../../src/core/tools/registry';
import type { Scene } from '../../../src/shared/scene';
import { startProviderFake, type FakeTurn, type ProviderFake } from '../../fakes/index';

/** Where the game's button is, device pixels: a 32-pixel red square the model is told to tap. */
let target = { x: 0, y: 0 };
const SIDE = 32;

/** The fake model: finds the red square in the image it received and answers in the convention the prompt asks for. */
async function aimAtRed(turn: FakeTurn) {
  const { data, info } = await sharp(turn.image!).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sumX = 0;
  let sumY = 0;
  let count = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const at = (y * info.width + x) * 3;
      if (data[at]! > 150 && data[at + 1]! < 90 && data[at + 2]! < 90) {
        sumX += x;
        sumY += y;
        count++;
      }
    }
  }
  const centre = { x: sumX / count, y: sumY / count };
  const perMille = /thousandths of the attached screenshot's width and height/.test(turn.lastUserText);
  const pixels = new RegExp(`pixels of the attached ${info.width}x${info.height} screenshot`).test(turn.lastUserText);
  if (perMille === pixels) return { kind: 'text' as const, text: 'The prompt says no convention I can follow.' };
  const x = perMille ? Math.round(((centre.x + 0.5) / info.width) * 1000) : Math.round(centre.x);
  const y = perMille ? Math.round(((centre.y + 0.5) / info.height) * 1000) : Math.round(centre.y);
  return { kind: 'call' as const, tool: 'tap', args: { x, y }, text: 'Tapping the red button.' };
}

/** The device's screen: black, with the red square at `target`, as a raw RGBA screencap. */
function screenWithTarget(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 4);
  for (let at = 3; at < pixels.length; at += 4) pixels[at] = 255;
  for (let y = target.y - SIDE / 2; y < target.y + SIDE / 2; y++) {
    for (let x = target.x - SIDE / 2; x < target.x + SIDE / 2; x++) pixels[(y * width + x) * 4] = 230;
  }
  return pixels;
}

const gameScene = (width: number, height: number, rotation?: 1 | 3): Scene => ({
  screen: { width, height, orientation: width > height ? 'landscape' : 'portrait', ...(rotation && { rotation }), package: 'com.example.towerdefense', keyboardShown: false },
  elements: [{ id: 'e1', type: 'SurfaceView', desc: 'Game view', resourceId: 'unitySurfaceView', bounds: [0, 0, width, height], focused: true }],
});

const fakes: ProviderFake[] = [];
const clients = new Map<string, ToolCallingClient>();
beforeAll(async () => {
  for (const provider of ['anthropic', 'openai'] as const) {
    const fake = await startProviderFake(provider, aimAtRed);
    fakes.push(fake);
    clients.set(provider, createProviderClient({ provider, apiKey: fake.apiKey, baseURL: fake.baseURL, model: 'test-model', timeoutMs: 20_000 }));
  }
  // The cloud proxy forwards the same request to whichever model it picks; the host only knows it is the proxy.
  const openai = clients.get('openai')!;
  clients.set('cloud-proxy', { provider: 'cloud-proxy', decide: (request, options) => openai.decide(request, options) });
});
afterAll(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
});

const SCREENS = [
  { name: 'a phone in portrait', width: 1080, height: 2400, target: { x: 811, y: 1733 } },
  { name: 'a phone turned to landscape (rotation 1)', width: 2400, height: 1080, rotation: 1 as const, target: { x: 2217, y: 141 } },
  { name: 'a tablet in landscape (rotation 3)', width: 2560, height: 1600, rotation: 3 as const, target: { x: 123, y: 1411 } },
  { name: 'a tablet in portrait', width: 1600, height: 2560, target: { x: 1407, y: 300 } },
];
const LONG_EDGES = [1456, 800, 4000];

describe("Scenario: The model's coordinates land on the intended device pixel for every provider, scale and screen", () => {
  for (const provider of ['anthropic', 'openai', 'cloud-proxy'] as const) {
    for (const screen of SCREENS) {
      it(`${provider}, ${screen.name}, screenshots at long edges ${LONG_EDGES.join(', ')}`, async () => {
        const planner = createAIPlanner({ client: clients.get(provider)!, tools: MODEL_TOOL_SPECS, info: { provider: provider === 'cloud-proxy' ? 'openai' : provider, model: 'test-model', transport: provider === 'cloud-proxy' ? 'cloud-proxy' : 'direct' } });
        target = screen.target;
        for (const longEdge of LONG_EDGES) {
          const screenshot = await encodeScreenshot({ pixels: screenWithTarget(screen.width, screen.height), width: screen.width, height: screen.height }, { longEdge, format: 'png', quality: 80 });
          const decision = await planner.plan(
            { goal: 'Tap the red button', step: 1, scene: gameScene(screen.width, screen.height, screen.rotation), sceneError: null, screenshot },
            { signal: new AbortController().signal },
          );
          const { x, y } = decision.call!.args as { x: number; y: number };
          // Within the square, and within one screenshot pixel (plus the rounding of a thousandth) of its centre.
          const tolerance = screenshot.scale + (COORDINATE_CONVENTIONS[provider] === 'per-mille' ? Math.max(screen.width, screen.height) / 1000 : 1);
          expect(Math.abs(x - screen.target.x), `x at long edge ${longEdge} (scale ${screenshot.scale.toFixed(2)})`).toBeLessThanOrEqual(tolerance);
          expect(Math.abs(y - screen.target.y), `y at long edge ${longEdge}`).toBeLessThanOrEqual(tolerance);
          expect(x >= screen.target.x - SIDE / 2 && x < screen.target.x + SIDE / 2 && y >= screen.target.y - SIDE / 2 && y < screen.target.y + SIDE / 2).toBe(true);
        }
      });
    }
  }
});

describe('the prompt of a screen with no usable tree', () => {
  it('Scenario: A screen with no usable tree is said, with the screenshot and the convention of the provider', () => {
    const scene = gameScene(2400, 1080, 1);
    const shot = { bytes: new Uint8Array(), mediaType: 'image/jpeg' as const, width: 1456, height: 655, scale: 2400 / 1456 };
    const input = { goal: 'Start a level', step: 1, scene, sceneError: null, screenshot: shot };
    expect(turnText(input, undefined, 'image-pixels')).toContain('This screen has no usable UI tree');
    expect(turnText(input, undefined, 'image-pixels')).toContain('as pixels of the attached 1456x655 screenshot');
    expect(turnText(input, undefined, 'per-mille')).toContain('as thousandths of the attached screenshot');
    // Without a screenshot there is nothing to aim by: the model is told not to guess.
    expect(turnText({ ...input, screenshot: undefined })).toContain('do not guess coordinates');
    // An ordinary screen keeps coordinates in the Scene's device pixels.
    const ordinary: Scene = { ...scene, elements: [...scene.elements, { id: 'e2', type: 'Button', text: 'Play', bounds: [1000, 800, 1400, 950], clickable: true }] };
    expect(turnText({ ...input, scene: ordinary })).toContain('take coordinates from the Scene');
    expect(turnText({ ...input, scene: ordinary })).not.toContain('no usable UI tree');
  });

  it('keeps a point named at the edge of the image on the screen', () => {
    expect(toDevicePoint({ x: 1456, y: 700 }, 'image-pixels', { width: 1456, height: 655 }, { width: 2400, height: 1080 })).toEqual({ x: 2399, y: 1079 });
    expect(toDevicePoint({ x: -5, y: 1000 }, 'per-mille', { width: 1456, height: 655 }, { width: 2400, height: 1080 })).toEqual({ x: 0, y: 1079 });
  });
});
