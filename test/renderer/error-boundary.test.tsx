// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../src/renderer/src/components/ErrorBoundary';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

let broken = true;
function Fragile() {
  if (broken) throw new Error('the record has no steps array');
  return <p>timeline content</p>;
}

describe('error boundary', () => {
  it('Scenario: A part of the window that fails to draw shows why and the rest keeps working', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <>
        <ErrorBoundary area="the timeline">
          <Fragile />
        </ErrorBoundary>
        <p>goal box</p>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong while showing the timeline: the record has no steps array');
    expect(screen.getByText('goal box')).toBeTruthy();
    expect(logged.mock.calls.some(([text]) => text === 'Drawing the timeline failed:')).toBe(true);
    broken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('timeline content')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
