import type { ReactNode } from 'react';
import { FieldError } from './FieldError.tsx';

/** What a field's control spreads: its id, and the ARIA that ties it to its problem. */
export type FieldControlProps = { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

/** A labelled form field with its problem under it; `control` renders the input with the props it is given. */
export const Field = ({
  id,
  label,
  problem,
  control,
}: {
  id: string;
  label: string;
  problem: string | undefined;
  control: (props: FieldControlProps) => ReactNode;
}) => (
  <div className="field">
    <label htmlFor={id}>{label}</label>
    {control({ id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': problem ? `${id}-error` : undefined })}
    <FieldError id={`${id}-error`} message={problem} />
  </div>
);
