import type { MirrorKey } from '../../../../shared/contract';

export type KeyboardInput = { kind: 'text'; text: string } | { kind: 'key'; key: MirrorKey };

/**
 * What the person types on the mirror, sent to the phone one request at a time and in order. Characters typed
 * while a request is on its way join into one text, so fast typing costs one `input text`, not one per key.
 */
export function createKeyboardQueue(send: (input: KeyboardInput) => Promise<unknown>, onError: (error: unknown) => void) {
  const waiting: KeyboardInput[] = [];
  let sending = false;

  const drain = async () => {
    sending = true;
    while (waiting.length > 0) {
      const next = waiting.shift()!;
      try {
        await send(next);
      } catch (error) {
        // The rest was typed after a failure the person has not seen yet: dropping it keeps the phone predictable.
        waiting.length = 0;
        onError(error);
      }
    }
    sending = false;
  };

  return {
    push(input: KeyboardInput): void {
      const last = waiting.at(-1);
      if (input.kind === 'text' && last?.kind === 'text') last.text += input.text;
      else waiting.push(input.kind === 'text' ? { ...input } : input);
      if (!sending) void drain();
    },
  };
}
