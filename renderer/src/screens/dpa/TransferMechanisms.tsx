import { FieldError } from '../../components/FieldError.tsx';
import type { DpaOptions } from '../../state/dpa.ts';

/** Chapter V transfer mechanisms as checkboxes; "No transfer outside the EEA" excludes the others and back. */
export const TransferMechanisms = ({
  options,
  values,
  onChange,
  error,
}: {
  options: DpaOptions['transfer_mechanisms'];
  values: readonly string[];
  onChange: (values: string[]) => void;
  error: string | undefined;
}) => {
  const toggle = (id: string, checked: boolean): void => {
    if (!checked) onChange(values.filter((m) => m !== id));
    else if (id === 'none_eea_only') onChange([id]);
    else onChange([...values.filter((m) => m !== 'none_eea_only'), id]);
  };
  return (
    <fieldset>
      <legend>Transfer mechanisms</legend>
      {options.map((mechanism) => (
        <label key={mechanism.id} className="inline">
          <input type="checkbox" checked={values.includes(mechanism.id)} onChange={(e) => toggle(mechanism.id, e.target.checked)} />
          {mechanism.display_name}
        </label>
      ))}
      <FieldError id="dpa-mechanisms-error" message={error} />
    </fieldset>
  );
};
