export function DevicePanel() {
  return (
    <section className="panel device-panel" aria-labelledby="devices-title">
      <h2 id="devices-title">Devices</h2>
      <p className="empty" data-testid="devices-empty">
        No phone connected yet. Plug one in with USB debugging on, or connect over Wi-Fi.
      </p>
      <div className="mirror-placeholder" aria-label="Phone mirror">
        <span>The phone's screen appears here.</span>
      </div>
    </section>
  );
}
