// The app's side of the supervisor port, alone: a request waits until a fitting reply to it arrives.
import { describe, expect, it } from 'vitest';
import { SupervisionDesk } from '../../src/app/supervision-desk';
import { ReplyInputSchema } from '../../src/shared/contract';
import type { SupervisorRequest } from '../../src/core/runtime/supervisor';

const question: SupervisorRequest = { taskId: 't1', requestId: 'r1', step: 2, request: { kind: 'question', question: 'Which Ana?' } };
const handOver: SupervisorRequest = { taskId: 't1', requestId: 'r2', step: 3, request: { kind: 'hand-over', reason: 'Log in' } };

describe('the supervision desk', () => {
  it('Scenario: A reply from a window settles the waiting request, once', async () => {
    const desk = new SupervisionDesk();
    const waiting = desk.ask(question, { signal: new AbortController().signal });
    expect(desk.reply({ taskId: 't1', requestId: 'r1', reply: { kind: 'answer', text: 'Ana Lopez' } })).toEqual({ accepted: true, reason: null });
    await expect(waiting).resolves.toEqual({ reply: { kind: 'answer', text: 'Ana Lopez' }, by: 'person' });
    // A second window answering the same request changes nothing.
    const late = desk.reply({ taskId: 't1', requestId: 'r1', reply: { kind: 'answer', text: 'Ana Ruiz' } });
    expect(late.accepted).toBe(false);
    expect(late.reason).toMatch(/already answered/);
  });

  it('Scenario: A reply that does not fit the request, or names another request, is refused and the request keeps waiting', async () => {
    const desk = new SupervisionDesk();
    const waiting = desk.ask(handOver, { signal: new AbortController().signal });
    expect(desk.handsPhoneOver('t1')).toBe(true);
    const misfit = desk.reply({ taskId: 't1', requestId: 'r2', reply: { kind: 'allow', scope: 'once' } });
    expect(misfit).toEqual({ accepted: false, reason: '"allow" is not a reply to a hand-over.' });
    expect(desk.reply({ taskId: 't1', requestId: 'stale', reply: { kind: 'continue' } }).accepted).toBe(false);
    expect(desk.reply({ taskId: 't1', requestId: 'r2', reply: { kind: 'continue', note: 'I logged in' } }).accepted).toBe(true);
    await expect(waiting).resolves.toEqual({ reply: { kind: 'continue', note: 'I logged in' }, by: 'person' });
    expect(desk.handsPhoneOver('t1')).toBe(false);
  });

  it('Scenario: Stopping a task frees its waiting request', async () => {
    const desk = new SupervisionDesk();
    const stop = new AbortController();
    const waiting = desk.ask(question, { signal: stop.signal });
    stop.abort();
    await expect(waiting).resolves.toMatchObject({ reply: { kind: 'unanswered' }, by: 'no-one-present' });
    expect(desk.reply({ taskId: 't1', requestId: 'r1', reply: { kind: 'answer', text: 'late' } }).accepted).toBe(false);
  });

  it('Scenario: A window cannot claim that nobody answered', () => {
    const parsed = ReplyInputSchema.safeParse({ taskId: 't1', requestId: 'r1', reply: { kind: 'unanswered', reason: 'x' } });
    expect(parsed.success).toBe(false);
    expect(ReplyInputSchema.safeParse({ taskId: 't1', requestId: 'r1', reply: { kind: 'answer', text: '   ' } }).success).toBe(false);
    const given = [{ kind: 'answer', text: 'Ana' }, { kind: 'allow', scope: 'task' }, { kind: 'deny' }, { kind: 'continue', note: 'done' }, { kind: 'stop' }];
    expect(given.map((reply) => ReplyInputSchema.safeParse({ taskId: 't1', requestId: 'r1', reply }).success)).toEqual([true, true, true, true, true]);
  });
});
