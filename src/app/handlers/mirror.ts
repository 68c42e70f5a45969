import type { MethodHandlers } from '../ipc/router';
import type { DeviceMirror } from '../mirror/device-mirror';

export const mirrorHandlers = (mirror: DeviceMirror): MethodHandlers => ({
  'mirror.start': ({ serial, maxSize, decodesVideo }) => mirror.start(serial, { maxSize, decodesVideo }),
  'mirror.stop': () => mirror.stop(),
  'mirror.setVisible': ({ visible }) => mirror.setVisible(visible),
  'mirror.getStatus': () => mirror.status(),
  'mirror.requestKeyFrame': () => ({ requested: mirror.requestKeyFrame() }),
});
