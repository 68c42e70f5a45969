import { describe, expect, it } from 'vitest';
import { htmlPageIn, summariseBody } from '@amc/provider-clients';
import { plainReason } from '../../src/shared/plain-words';
import { failureWordsOf } from '../../src/shared/task-failure';
import { attemptsLabel } from '../../src/shared/action';
import { stepCountsLabel, taskOutcomeKind, taskOutcomeWord } from '../../src/shared/task-words';

describe('plain words', () => {
  it('Scenario: Failure reasons are shown without error class names or stack traces', () => {
    expect(plainReason('AdbError: No device "x" is connected.')).toBe('No device "x" is connected.');
    expect(plainReason('ToolCallUnavailable: Anthropic rejected the API key (HTTP 401); check the key')).toBe('Anthropic rejected the API key (HTTP 401); check the key');
    expect(plainReason('TaskFailedError: There is no Calculator app')).toBe('There is no Calculator app');
    expect(plainReason('ToolCallUnavailable: TypeError: fetch failed')).toBe('fetch failed');
    const withStack = 'ToolCallUnavailable: OpenAI answered with a server error (HTTP 500): boom\n    at handler (/srv/app/server.js:10:5)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)';
    expect(plainReason(withStack)).toBe('OpenAI answered with a server error (HTTP 500): boom');
    // Words that merely start with a capital are kept.
    expect(plainReason('Anthropic did not answer within 30 s (timeout)')).toBe('Anthropic did not answer within 30 s (timeout)');
    expect(plainReason('Wi-Fi: could not toggle')).toBe('Wi-Fi: could not toggle');
    // A task's failure is read from its parts: the message, without stack frames; the D7 reason is not taken apart.
    const failure = { error: 'ToolCallUnavailable', message: 'OpenAI answered with a server error (HTTP 500): boom\n    at handler (/srv/app/server.js:10:5)' };
    expect(failureWordsOf({ failureReason: `ToolCallUnavailable: ${failure.message}`, failure })).toBe('OpenAI answered with a server error (HTTP 500): boom');
    expect(failureWordsOf({ failureReason: 'There is no Calculator app', failure: undefined })).toBe('There is no Calculator app');
    expect(failureWordsOf({ failureReason: null })).toBeNull();
  });

  it('Scenario: A proxy page instead of the provider is summarised, not quoted', () => {
    const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>';
    expect(summariseBody(page)).toBe('an HTML page titled "502 Bad Gateway" (a proxy or gateway answered, not the model\'s API)');
    expect(plainReason(`ToolCallUnavailable: OpenAI refused the request (HTTP 502): ${page}`)).toBe(
      'OpenAI refused the request (HTTP 502): an HTML page titled "502 Bad Gateway" (a proxy or gateway answered, not the model\'s API)',
    );
    // The page is recognised raw or already summarised, so a message that quotes a summary names it once.
    expect(htmlPageIn(page)).toBe('an HTML page titled "502 Bad Gateway"');
    expect(htmlPageIn(`Anthropic answered with a server error (HTTP 502): ${summariseBody(page)}; try again later`)).toBe('an HTML page titled "502 Bad Gateway"');
    expect(htmlPageIn(summariseBody('<html><body>down</body></html>'))).toBe('an HTML page');
    expect(htmlPageIn('Anthropic rate limited the request (HTTP 429)')).toBeNull();
    // A list keeps its lines.
    expect(plainReason('ConfigError: configuration problems:\n  - Control-plane URL is empty\n  - Control-plane token is not set')).toBe(
      'configuration problems:\n - Control-plane URL is empty\n - Control-plane token is not set',
    );
    expect(summariseBody('x'.repeat(500)).length).toBeLessThanOrEqual(301);
  });

  it('Scenario: attempts count retries, so one successful execution shows no count', () => {
    expect(attemptsLabel({ ok: true, attempts: 2, durationMs: 5 })).toBeNull(); // launch_app: two adb commands, no retry
    expect(attemptsLabel({ ok: true, attempts: 0, durationMs: 0 })).toBeNull(); // a look at the screen
    expect(attemptsLabel({ ok: true, attempts: 3, retries: 2, durationMs: 5 })).toBe('3 attempts');
    expect(attemptsLabel({ ok: false, attempts: 0, durationMs: 0, error: 'no target' })).toBe('not sent to the phone');
  });

  it('Scenario: One vocabulary for how a task ended', () => {
    const stub = { kind: 'stub' as const };
    const ai = { kind: 'ai' as const };
    expect(taskOutcomeKind({ status: 'completed', planner: stub })).toBe('looked-only');
    expect(taskOutcomeWord({ status: 'completed', planner: ai })).toBe('done');
    expect(taskOutcomeWord({ status: 'cancelled', planner: ai })).toBe('stopped');
    expect(taskOutcomeWord({ status: 'failed', planner: stub })).toBe('failed');
    expect(stepCountsLabel(1, 2, 'en-US')).toBe('1 action in 2 turns');
    expect(stepCountsLabel(74611, 74612, 'en-US')).toBe('74,611 actions in 74,612 turns');
    expect(stepCountsLabel(74611, 1, 'de-DE')).toBe('74.611 actions in 1 turn');
  });
});
