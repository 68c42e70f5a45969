import { shellLine } from './shell-line';

/** An intent as `am` takes it on its command line. */
export interface AmIntent {
  action?: string;
  data?: string;
  /** String extras (`--es key value`). */
  extras?: Readonly<Record<string, string>>;
}

function intentWords(intent: AmIntent): string[] {
  return [
    ...(intent.action !== undefined ? ['-a', intent.action] : []),
    ...(intent.data !== undefined ? ['-d', intent.data] : []),
    ...Object.entries(intent.extras ?? {}).flatMap(([key, value]) => ['--es', key, value]),
  ];
}

/** `am`, the activity manager: starting activities, stopping apps, broadcasting intents. */
export const am = {
  start: (intent: AmIntent) => shellLine(['am', 'start', ...intentWords(intent)]),
  forceStop: (pkg: string) => shellLine(['am', 'force-stop', pkg]),
  broadcast: (intent: AmIntent) => shellLine(['am', 'broadcast', ...intentWords(intent)]),
};
