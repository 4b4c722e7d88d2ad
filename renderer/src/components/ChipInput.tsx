import { type KeyboardEvent, useState } from 'react';
import { FieldError } from './FieldError.tsx';
import './ChipInput.css';

/** A list of short texts shown as removable chips, with an input that adds one on Enter or with the button. */
export const ChipInput = ({
  id,
  legend,
  inputLabel,
  placeholder,
  values,
  onChange,
  error,
}: {
  id: string;
  legend: string;
  inputLabel: string;
  placeholder: string;
  values: readonly string[];
  onChange: (values: string[]) => void;
  error: string | undefined;
}) => {
  const [draft, setDraft] = useState('');
  const add = (): void => {
    const value = draft.trim();
    if (value !== '' && !values.includes(value)) onChange([...values, value]);
    setDraft('');
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };
  return (
    <fieldset>
      <legend>{legend}</legend>
      <ul className="chips" aria-label={legend}>
        {values.map((value) => (
          <li key={value} className="chip">
            {value}
            <button type="button" aria-label={`Remove ${value}`} onClick={() => onChange(values.filter((v) => v !== value))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="row">
        <label htmlFor={id} className="sr-only">
          {inputLabel}
        </label>
        <input
          id={id}
          placeholder={placeholder}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKey}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="button" onClick={add} disabled={draft.trim() === ''} aria-label={`Add to ${legend.toLowerCase()}`}>
          Add
        </button>
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
};
