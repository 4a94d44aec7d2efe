import type { ButtonHTMLAttributes } from "react";

/**
 * A form's submit button. Pressing it does not take focus from the field being edited: that
 * field's blur would validate it, show its message and move the button before the click lands,
 * so the first click would be lost. The submit validates every field anyway.
 */
export function SubmitButton({
  className = "button button--primary",
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="submit" className={className} onMouseDown={(e) => e.preventDefault()} {...rest}>
      {children}
    </button>
  );
}
