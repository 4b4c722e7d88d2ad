import './FieldError.css';

/** A field's problem under it; the field points here with `aria-describedby={id}`. Renders nothing when fine. */
export const FieldError = ({ id, message }: { id: string; message: string | undefined }) =>
  message ? (
    <span id={id} className="field-error">
      {message}
    </span>
  ) : null;
