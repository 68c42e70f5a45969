import type { MethodHandlers } from '../../ipc/router';
import type { MirrorPump } from '../../mirror/mirror-pump';

export const mirrorHandlers = (mirror: MirrorPump): MethodHandlers => ({
  'mirror.start': ({ serial, maxSize, decodesVideo }) => mirror.start(serial, { maxSize, decodesVideo }),
  'mirror.stop': () => mirror.stop(),
  'mirror.setVisible': ({ visible }) => mirror.setVisible(visible),
  'mirror.getStatus': () => mirror.status(),
  'mirror.requestKeyFrame': () => ({ requested: mirror.requestKeyFrame() }),
});
