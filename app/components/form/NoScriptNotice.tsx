import { useActionData } from "react-router";
import { isScriptRequired } from "../../lib/no-script";
import { useT } from "../../lib/use-locale";

/** After a form carrying a secret was posted without JavaScript: what to do instead (lib/no-script.ts). */
export function NoScriptNotice() {
  const t = useT();
  const answer: unknown = useActionData();
  if (!isScriptRequired(answer)) return null;
  return (
    <p className="form__alert" role="alert" data-no-script-notice>
      {t("form.needsScript")}
    </p>
  );
}
