import { Field } from '../../components/Field.tsx';
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
    const change = (text: string) => onChange({ ...value, [field]: text });
    return (
      <Field
        id={`dpa-${party}-${field}`}
        label={`${title} ${label}`}
        problem={show ? problems[`${party}_details.${field}`] : undefined}
        control={(props) =>
          multiline ? (
            <textarea {...props} rows={3} value={value[field]} onChange={(e) => change(e.target.value)} />
          ) : (
            <input {...props} value={value[field]} onChange={(e) => change(e.target.value)} />
          )
        }
      />
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
