import { useState } from 'react';

export function GoalBox() {
  const [goal, setGoal] = useState('');
  return (
    <form className="goal-box" onSubmit={(event) => event.preventDefault()} aria-label="Goal">
      <label htmlFor="goal-input">What should the phone do?</label>
      <div className="goal-row">
        <input
          id="goal-input"
          value={goal}
          onChange={(event) => setGoal(event.target.value)}
          placeholder="e.g. Add Alice with number 555-0100 to contacts"
        />
        <button type="submit" className="button primary" disabled title="Connect a phone first">
          Run
        </button>
      </div>
    </form>
  );
}
