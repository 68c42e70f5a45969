import { useEffect } from 'react';
import { useBridge } from './bridge-context';
import { useAppStore } from './store/app-store';

/** Loads app info, measures one ping round trip and follows the heartbeat: the live proof that main answers. */
export function useAppConnection(): void {
  const bridge = useBridge();
  useEffect(() => {
    const { setInfo, setConnected, recordHeartbeat, setPing, setError } = useAppStore.getState();
    const load = async () => {
      try {
        setInfo(await bridge.call('app.info', {}));
        const sentAt = performance.now();
        await bridge.call('app.ping', { nonce: `ping-${Date.now()}` });
        setPing(performance.now() - sentAt);
        setConnected(true);
        setError(null);
      } catch (error) {
        setError(error instanceof Error ? error.message : String(error));
      }
    };
    void load();
    const offHeartbeat = bridge.on('app.heartbeat', (heartbeat) => {
      recordHeartbeat(heartbeat);
      setConnected(true);
    });
    const offConnection = bridge.onConnectionChange((connected) => {
      setConnected(connected);
      if (connected) void load();
    });
    return () => {
      offHeartbeat();
      offConnection();
    };
  }, [bridge]);
}
