import { FAKE_ANTHROPIC_KEY, startAnthropicFake } from './anthropic-fake';
import { FAKE_OPENAI_KEY, startOpenAIFake } from './openai-fake';
import type { FakePolicy, FakeProvider } from './fake-policy';
import type { FakeServer } from './fake-http';

export * from './fake-policy';
export { startAnthropicFake, FAKE_ANTHROPIC_KEY, type AnthropicFake } from './anthropic-fake';
export { startOpenAIFake, FAKE_OPENAI_KEY, type OpenAIFake } from './openai-fake';
export type { FakeServer, RecordedRequest } from './fake-http';

export interface ProviderFake extends FakeServer {
  provider: FakeProvider;
  /** What the provider's SDK takes as `baseURL`. */
  baseURL: string;
  /** The key the fake accepts. */
  apiKey: string;
  /** Parsed bodies of the decision requests, in order. */
  bodies(): unknown[];
}

/** Starts the fake for either provider behind one shape, for tests that run the same case on both. */
export async function startProviderFake(provider: FakeProvider, policy: FakePolicy): Promise<ProviderFake> {
  if (provider === 'anthropic') {
    const fake = await startAnthropicFake({ policy });
    return { ...fake, provider, baseURL: fake.url, apiKey: FAKE_ANTHROPIC_KEY };
  }
  const fake = await startOpenAIFake({ policy });
  return { ...fake, provider, apiKey: FAKE_OPENAI_KEY };
}
export { slowedModel, wifiOnModel } from './wifi-model';
