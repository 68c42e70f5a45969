import { Component, type ErrorInfo, type ReactNode } from 'react';
import { currentWords } from '../i18n/language-store';

interface Props {
  /** What this part of the window is, for the message ("the timeline"). */
  area: string;
  children: ReactNode;
}

/**
 * Keeps a failure in one part of the window from blanking the rest: that part shows what went wrong in plain
 * words and can be tried again, everything else keeps working.
 */
export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`Drawing ${this.props.area} failed:`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    // A class cannot use the words hook; the language store says the same.
    const { t } = currentWords();
    return (
      <div className="panel area-error" role="alert" data-testid="area-error">
        <p>{t('app:area.failed', { area: this.props.area, message: this.state.error.message })}</p>
        <button type="button" className="button secondary" onClick={() => this.setState({ error: null })}>
          {t('app:area.retry')}
        </button>
      </div>
    );
  }
}
