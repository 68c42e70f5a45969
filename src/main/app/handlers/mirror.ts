import type { MethodHandlers } from '../../ipc/router';
import type { MirrorPump } from '../../mirror/mirror-pump';

export const mirrorHandlers = (mirror: MirrorPump): MethodHandlers => ({
  'mirror.start': ({ serial }) => mirror.start(serial),
  'mirror.stop': () => mirror.stop(),
  'mirror.setVisible': ({ visible }) => mirror.setVisible(visible),
  'mirror.getStatus': () => mirror.status(),
});
