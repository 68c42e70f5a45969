// Parses the service name of an OPEN into what the device should run.

export interface ShellRequest {
  kind: 'shell';
  protocol: 'v2' | 'none';
  pty: boolean;
  command: string;
}

export type ServiceRequest =
  | ShellRequest
  | { kind: 'sync' }
  | { kind: 'framebuffer' }
  | { kind: 'reverse'; request: string }
  | { kind: 'local-abstract'; name: string }
  | { kind: 'unsupported'; name: string };

/**
 * `shell[,opt...]:command`, `exec:command`, `sync:`, `framebuffer:`, `reverse:REQUEST` and `localabstract:NAME`. Like adbd, a shell without a command defaults to a pty
 * and one with a command to raw, unless the options say otherwise; `exec:` is always raw without the protocol.
 */
export function parseServiceRequest(name: string): ServiceRequest {
  if (name === 'sync:') return { kind: 'sync' };
  if (name === 'framebuffer:') return { kind: 'framebuffer' };
  if (name.startsWith('reverse:')) return { kind: 'reverse', request: name.slice('reverse:'.length) };
  if (name.startsWith('localabstract:')) return { kind: 'local-abstract', name: name.slice('localabstract:'.length) };
  if (name.startsWith('exec:')) return { kind: 'shell', protocol: 'none', pty: false, command: name.slice(5) };
  const shellMatch = /^shell(,[^:]*)?:/.exec(name);
  if (shellMatch) {
    const options = (shellMatch[1] ?? '').split(',').filter((option) => option !== '');
    const command = name.slice(shellMatch[0].length);
    const pty = options.includes('pty') ? true : options.includes('raw') ? false : command === '';
    return { kind: 'shell', protocol: options.includes('v2') ? 'v2' : 'none', pty, command };
  }
  return { kind: 'unsupported', name };
}
