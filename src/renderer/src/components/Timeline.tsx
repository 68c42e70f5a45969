export function Timeline() {
  return (
    <section className="panel timeline" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <p className="empty" data-testid="timeline-empty">
        Each turn of a task appears here: what the agent saw, why it acted, and what happened.
      </p>
    </section>
  );
}
