export function OverrideNote({ id, variable, inEffect }: { id: string; variable: string; inEffect?: string }) {
  return (
    <p className="field-override" id={id} data-testid="override-note">
      Overridden by {variable}
      {inEffect !== undefined && <> (in effect: {inEffect})</>}
    </p>
  );
}
