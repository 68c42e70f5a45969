import { startVirtualDevice, type LatencyProfileName, type VirtualDevice } from '../../virtual-device/index';

/** Below this the adb server may take a port for an emulator console and list a phantom device. */
const FIRST_SAFE_DEMO_PORT = 5586;

/** Starts a demo phone on free ports that the adb server will not mistake for an emulator's. */
export async function startDemoDevice(profile: LatencyProfileName = 'instant'): Promise<VirtualDevice> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = await startVirtualDevice({ port: 0, controlPort: 0, profile });
    if (started.adbPort >= FIRST_SAFE_DEMO_PORT) return started;
    await started.close();
  }
  throw new Error('Could not find a free port for the demo phone.');
}
