import { CloseIcon } from './icons';
import './base.css';

/** The round × of dialogs and notices, named for screen readers by `label`. */
export function CloseButton({ label, onClick, className }: { label: string; onClick: () => void; className?: string }) {
  return (
    <button type="button" className={['dv-close-button', className].filter(Boolean).join(' ')} aria-label={label} onClick={onClick}>
      <CloseIcon />
    </button>
  );
}
