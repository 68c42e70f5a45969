import type { z } from 'zod';
import {
  isMethodName,
  methods,
  type MethodName,
  type MethodOutput,
  type MethodParsedInput,
  type RpcError,
  type RpcResult,
} from '../../shared/contract';
import { redactSecrets } from '@amc/provider-clients';
import { saidOf, wordCode, type Said, type SaidCode } from '../../shared/said';
import { issueSaidAt } from '../../shared/issue-said';

/** Who is calling: handlers may answer differently per transport (e.g. app.info). */
export interface CallContext {
  transport: 'electron' | 'web';
}

export type MethodHandler<M extends MethodName> = (
  input: MethodParsedInput<M>,
  context: CallContext,
) => Promise<MethodOutput<M>> | MethodOutput<M>;

export type MethodHandlers = { [M in MethodName]?: MethodHandler<M> };

export interface Router {
  /** Never throws: every failure becomes a typed RpcError the caller can show. */
  call(method: unknown, input: unknown, context: CallContext): Promise<RpcResult<unknown>>;
}

/** Each issue as "field: why", by code (a window words them in its language) and in English. */
function describeIssues(error: z.ZodError): { issues: string[]; issuesSaid: Said[] } {
  const issuesSaid = error.issues.map(issueSaidAt);
  return { issues: issuesSaid.map((said) => wordCode(said.code as SaidCode, said.values)), issuesSaid };
}

const failure = (error: RpcError): RpcResult<never> => ({ ok: false, error });

/**
 * The transport-agnostic router: validates each request against the contract before any handler runs (so invalid
 * input never causes a partial action), and parses each answer through the output schema so nothing beyond the
 * contract (a secret, an internal field) can leave main.
 */
export function createRouter(handlers: MethodHandlers, onFailure: (method: MethodName, error: unknown) => void = () => {}): Router {
  return {
    async call(method, input, context) {
      if (!isMethodName(method)) {
        return failure({ code: 'unknown_method', message: `Unknown method "${String(method)}".` });
      }
      const handler = handlers[method] as MethodHandler<MethodName> | undefined;
      if (!handler) {
        return failure({ code: 'unavailable', message: `"${method}" is not available in this app build.` });
      }
      const definition = methods[method];
      const parsed = definition.input.safeParse(input ?? {});
      if (!parsed.success) {
        const { issues, issuesSaid } = describeIssues(parsed.error);
        return failure({ code: 'invalid_input', message: `Invalid input for "${method}": ${issues.join('; ')}`, issues, issuesSaid });
      }
      try {
        const value = await handler(parsed.data as never, context);
        return { ok: true, value: definition.output.parse(value) };
      } catch (error) {
        // The stack goes to the log (onFailure); the window gets the message, shown there in plain words.
        onFailure(method, error);
        const message = redactSecrets(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
        const said = saidOf(error);
        return failure({ code: 'failed', message, ...(said && { said }) });
      }
    },
  };
}
