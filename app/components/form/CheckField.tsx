import { useSignals } from "@preact/signals-react/runtime";

/** A checkbox field of a modular form (its value a boolean), its label beside it. */
export function DefaultCheckbox({
  field,
  props,
  id,
  label,
}: {
  field: { value: { value: boolean | null | undefined } };
  props: {
    name: string;
    ref: (el: HTMLInputElement | null) => void;
    onChange: React.ChangeEventHandler<HTMLInputElement>;
    onBlur: React.FocusEventHandler<HTMLInputElement>;
  };
  id: string;
  label: string;
}) {
  useSignals();
  return (
    <div className="field field--check">
      <input
        id={id}
        type="checkbox"
        name={props.name}
        checked={Boolean(field.value.value)}
        ref={props.ref}
        onChange={props.onChange}
        onBlur={props.onBlur}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
