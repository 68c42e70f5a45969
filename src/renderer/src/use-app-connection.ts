import { useEffect } from 'react';
import { useBridge } from './bridge-context';
import { plainError } from './lib/errors';
import { useAppStore } from './store/app-store';
import { allTopics } from './sync/topics';

/**
 * Connects the window to main: app info and a ping round trip, the heartbeat, and every topic's state and events.
 * After a reconnect (the web transport can drop) everything is fetched again, so the page never shows stale state.
 */
export function useAppConnection(): void {
  const bridge = useBridge();
  useEffect(() => {
    const { setInfo, setConnected, recordHeartbeat, setPing, setError } = useAppStore.getState();
    const topics = allTopics(bridge);
    const load = async () => {
      try {
        setInfo(await bridge.call('app.info', {}));
        const sentAt = performance.now();
        await bridge.call('app.ping', { nonce: `ping-${Date.now()}` });
        setPing(performance.now() - sentAt);
        setConnected(true);
        setError(null);
      } catch (error) {
        setError(plainError(error));
        return;
      }
      // Each topic loads on its own: one failing (say, adb is missing) must not blank the others.
      const failures = (await Promise.allSettled(topics.map((topic) => topic.load()))).filter((r) => r.status === 'rejected');
      if (failures.length > 0) setError(plainError((failures[0] as PromiseRejectedResult).reason));
    };
    void load();
    const offTopics = topics.map((topic) => topic.listen());
    const offHeartbeat = bridge.on('app.heartbeat', (heartbeat) => {
      recordHeartbeat(heartbeat);
      setConnected(true);
    });
    // The first open is covered by the load above; only a reconnect after a drop fetches everything again.
    let dropped = false;
    const offConnection = bridge.onConnectionChange((connected) => {
      setConnected(connected);
      useAppStore.getState().setConnectionLost(!connected);
      if (!connected) dropped = true;
      else if (dropped) void load();
    });
    return () => {
      offTopics.forEach((off) => off());
      offHeartbeat();
      offConnection();
    };
  }, [bridge]);
}
