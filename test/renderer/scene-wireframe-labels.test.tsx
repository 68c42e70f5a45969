// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SceneWireframe } from '../../src/renderer/src/components/timeline/SceneWireframe';
import { elementCaption, elementLabel, joinLabelParts, type Scene } from '../../src/shared/scene';

afterEach(cleanup);

const chatRow = joinLabelParts(['Eve | Design', '29/11/2026', 'Sent', 'C:\\temp']);
const scene: Scene = {
  screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.whatsapp', keyboardShown: false },
  elements: [
    { id: 'e1', type: 'LinearLayout', text: chatRow, bounds: [0, 300, 1080, 480], clickable: true },
    // A field's content is verbatim (never joined), so its backslash and pipe are its own.
    { id: 'e2', type: 'EditText', text: 'a \\| b', bounds: [0, 2200, 1080, 2300], editable: true },
    { id: 'e3', type: 'ImageButton', desc: 'Voice message', bounds: [900, 2200, 1080, 2300], clickable: true },
  ],
};

describe('Scene wireframe labels', () => {
  it('Scenario: People read merged labels part by part (timeline wireframe)', () => {
    render(<SceneWireframe scene={scene} title="Screen" />);
    const wireframe = screen.getByRole('img', { name: 'Screen' });
    const drawn = [...wireframe.querySelectorAll('text.wf-label')].map((text) => text.textContent);
    expect(drawn).toEqual(['Eve | Design · 29/11/2026 ·…', 'a \\| b', 'Voice message']);
    const titles = [...wireframe.querySelectorAll('rect.wf-element title')].map((title) => title.textContent);
    expect(titles[0]).toBe('e1: LinearLayout "Eve | Design · 29/11/2026 · Sent · C:\\temp"');
    expect(titles[1]).toBe('e2: EditText "a \\| b"');
  });

  it('gives every part back unescaped, a field its content verbatim, and falls back to the description', () => {
    expect(elementCaption(scene.elements[0]!)).toBe('Eve | Design · 29/11/2026 · Sent · C:\\temp');
    expect(elementCaption(scene.elements[1]!)).toBe('a \\| b');
    expect(elementCaption({ desc: 'Back', hint: 'unused' })).toBe('Back');
    expect(elementCaption({ hint: 'Search' })).toBe('Search');
    expect(elementCaption({})).toBeUndefined();
    expect(elementLabel({ id: 'e9', type: 'ImageView', unlabeled: 'icon button', bounds: [0, 0, 1, 1] })).toBe('ImageView "icon button"');
  });
});
