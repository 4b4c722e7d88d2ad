import { FieldError } from '../../components/FieldError.tsx';
import type { Problems } from './problems.ts';
import type { Party } from './useDpaForm.ts';

/** Name, address and contact of the controller or the processor (Art. 28(3) GDPR: who the parties are). */
export const PartyFields = ({
  party,
  value,
  onChange,
  problems,
  show,
}: {
  party: 'controller' | 'processor';
  value: Party;
  onChange: (details: Party) => void;
  problems: Problems;
  show: boolean;
}) => {
  const title = party === 'controller' ? 'Controller' : 'Processor';
  const input = (field: keyof Party, label: string, multiline = false) => {
    const id = `dpa-${party}-${field}`;
    const problem = show ? problems[`${party}_details.${field}`] : undefined;
    const common = {
      id,
      value: value[field],
      'aria-invalid': problem ? true : undefined,
      'aria-describedby': problem ? `${id}-error` : undefined,
    };
    return (
      <div className="field">
        <label htmlFor={id}>{`${title} ${label}`}</label>
        {multiline ? (
          <textarea {...common} rows={3} onChange={(e) => onChange({ ...value, [field]: e.target.value })} />
        ) : (
          <input {...common} onChange={(e) => onChange({ ...value, [field]: e.target.value })} />
        )}
        <FieldError id={`${id}-error`} message={problem} />
      </div>
    );
  };
  return (
    <fieldset className="dpa-party">
      <legend>{title}</legend>
      {input('name', 'name')}
      {input('address', 'address', true)}
      {input('contact', 'contact (optional)')}
    </fieldset>
  );
};
